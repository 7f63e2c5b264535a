package io.holdfast.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.common.Durations;
import io.holdfast.election.LeaderElector;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.ir.Ir;
import io.holdfast.kube.status.StatusWriter;
import io.holdfast.pki.Pem;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.xds.translate.Translator;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module graph is one-way (README, architecture): common and pki at the bottom (everything may use them, they use
 * no other Holdfast module), api <- ir <- frontend-options <- frontend-holdfast and frontend-gatewayapi (never each
 * other) <- frontend-gloo (reads Gloo's kinds into Holdfast's), ir <- xds <- pipeline <- server, kube <- server,
 * election standalone
 * above common. Maven's dependencies already refuse a cycle, but they are transitive: xds sees api through ir, and
 * server's class path holds everything. This test reads every class the main code of each module compiled to and
 * fails on a reference across a boundary, fully qualified names included.
 */
class ModuleGraphTest {

  private static final List<String> PROTOCOLS = List.of("io/grpc/", "io/envoyproxy/", "com/google/protobuf/");
  /** The one type of the api module the IR and translation name: the identity of an object, not its parsing. */
  private static final String RESOURCE_KEY = "io/holdfast/api/ResourceKey";

  private record Rule(String module, Class<?> marker, List<String> forbidden, Set<String> allowed) {
  }

  private static final List<Rule> RULES = List.of(
      new Rule("common", Durations.class, concat(PROTOCOLS, List.of("io/fabric8/", "io/micrometer/",
          "io/holdfast/api/", "io/holdfast/ir/", "io/holdfast/frontend/", "io/holdfast/xds/", "io/holdfast/pipeline/",
          "io/holdfast/kube/", "io/holdfast/server/", "io/holdfast/election/")), Set.of()),
      new Rule("pki", Pem.class, concat(PROTOCOLS, List.of("io/fabric8/", "io/micrometer/", "io/holdfast/common/",
          "io/holdfast/api/", "io/holdfast/ir/", "io/holdfast/frontend/", "io/holdfast/xds/", "io/holdfast/pipeline/",
          "io/holdfast/kube/", "io/holdfast/server/", "io/holdfast/election/")), Set.of()),
      new Rule("api", ResourceKey.class, concat(PROTOCOLS, List.of("io/fabric8/", "io/holdfast/ir/",
          "io/holdfast/frontend/", "io/holdfast/xds/", "io/holdfast/pipeline/", "io/holdfast/kube/",
          "io/holdfast/server/", "io/holdfast/election/")), Set.of()),
      new Rule("ir", Ir.class, concat(PROTOCOLS, List.of("io/fabric8/", "io/holdfast/api/", "io/holdfast/frontend/",
          "io/holdfast/xds/", "io/holdfast/pipeline/", "io/holdfast/kube/", "io/holdfast/server/")),
          Set.of(RESOURCE_KEY)),
      // Shared lowering of Holdfast's option types: below both front ends, never seeing either.
      new Rule("frontend-options", io.holdfast.frontend.options.SecurityOptionsLowering.class, concat(PROTOCOLS,
          List.of("io/fabric8/", "io/holdfast/frontend/holdfast/", "io/holdfast/frontend/gatewayapi/",
              "io/holdfast/frontend/gloo/", "io/holdfast/xds/", "io/holdfast/pipeline/", "io/holdfast/kube/",
              "io/holdfast/server/", "io/holdfast/election/")), Set.of()),
      // Gloo's kinds are read into Holdfast's and lowered by the Holdfast front end; never the Gateway API's.
      new Rule("frontend-gloo", io.holdfast.frontend.gloo.GlooFrontEnd.class, concat(PROTOCOLS, List.of(
          "io/holdfast/frontend/gatewayapi/", "io/holdfast/xds/", "io/holdfast/pipeline/", "io/holdfast/kube/",
          "io/holdfast/server/", "io/holdfast/election/")), Set.of()),
      new Rule("frontend-holdfast", HoldfastFrontEnd.class, concat(PROTOCOLS, List.of("io/holdfast/xds/",
          "io/holdfast/pipeline/", "io/holdfast/kube/", "io/holdfast/server/", "io/holdfast/frontend/gatewayapi/",
          "io/holdfast/frontend/gloo/")),
          Set.of()),
      // Two front ends never see each other: each lowers its own API into the IR.
      new Rule("frontend-gatewayapi", GatewayApiFrontEnd.class, concat(PROTOCOLS, List.of("io/holdfast/xds/",
          "io/holdfast/pipeline/", "io/holdfast/kube/", "io/holdfast/server/", "io/holdfast/election/",
          "io/holdfast/frontend/holdfast/")), Set.of()),
      new Rule("xds", Translator.class, List.of("io/holdfast/api/", "io/holdfast/frontend/", "io/holdfast/pipeline/",
          "io/holdfast/kube/", "io/holdfast/server/", "io/fabric8/"), Set.of(RESOURCE_KEY)),
      new Rule("pipeline", ConfigPipeline.class, List.of("io/holdfast/kube/", "io/holdfast/server/"), Set.of()),
      new Rule("kube", StatusWriter.class, concat(PROTOCOLS, List.of("io/holdfast/xds/", "io/holdfast/server/")),
          Set.of()),
      new Rule("election", LeaderElector.class, List.of("io/holdfast/api/", "io/holdfast/ir/",
          "io/holdfast/frontend/", "io/holdfast/xds/", "io/holdfast/pipeline/", "io/holdfast/kube/",
          "io/holdfast/server/"), Set.of()));

  /** A class name inside a class file's strings: a class entry, or a field, method or generic signature. */
  private static final Pattern CLASS_NAME = Pattern.compile("(?:io|com|org)/[A-Za-z0-9_/$]+");

  @Test
  void everyModuleReferencesOnlyWhatItsPlaceInTheGraphAllows() throws IOException {
    Map<String, Set<String>> violations = new TreeMap<>();
    for (Rule rule : RULES) {
      Map<String, byte[]> classes = classesOf(rule.marker());
      assertThat(classes).as("compiled classes of module %s", rule.module()).isNotEmpty();
      classes.forEach((name, bytes) -> {
        for (String referenced : referencedClasses(bytes)) {
          boolean crosses = rule.forbidden().stream().anyMatch(referenced::startsWith)
              && rule.allowed().stream().noneMatch(a -> referenced.equals(a) || referenced.startsWith(a + "$"));
          if (crosses) {
            violations.computeIfAbsent(rule.module() + ": " + name, k -> new TreeSet<>()).add(referenced);
          }
        }
      });
    }
    assertThat(violations).as("references across the module graph (module: class -> referenced)").isEmpty();
  }

  /** The main classes of the module {@code marker} belongs to: its output directory or its jar. */
  private static Map<String, byte[]> classesOf(Class<?> marker) throws IOException {
    Path location;
    try {
      location = Path.of(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    Map<String, byte[]> classes = new TreeMap<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          classes.put(location.relativize(file).toString(), Files.readAllBytes(file));
        }
      }
    } else {
      try (JarFile jar = new JarFile(location.toFile())) {
        for (var entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
          try (InputStream in = jar.getInputStream(entry)) {
            classes.put(entry.getName(), in.readAllBytes());
          }
        }
      }
    }
    return classes;
  }

  /** Every class name in the constant pool's strings (JVMS 4.4). */
  private static Set<String> referencedClasses(byte[] classFile) {
    Set<String> names = new TreeSet<>();
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
      in.readInt(); // magic
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      int count = in.readUnsignedShort();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> {
            Matcher m = CLASS_NAME.matcher(in.readUTF());
            while (m.find()) {
              names.add(m.group());
            }
          }
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4);
          case 5, 6 -> {
            in.skipNBytes(8);
            i++; // a long or double takes two entries
          }
          case 7, 8, 16, 19, 20 -> in.skipNBytes(2);
          case 15 -> in.skipNBytes(3);
          default -> throw new IllegalStateException("unknown constant pool tag " + tag);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return names;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
