package io.holdfast.server.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Dockerfile at the repository root, checked without a Docker engine: a Java runtime (no JDK) of the release
 * the code is compiled for, a numeric non-root user that is the one deploy/deployment.yaml runs as, and the shaded
 * jar the server module's build writes (whose existence after {@code mvn package} ImageJarIT checks) copied in and
 * run. .dockerignore lets nothing else into the build context.
 */
class ImageBuildTest {
  private static final Path ROOT = Path.of("..");

  /** Dockerfile instructions, continuation lines joined, comments dropped. */
  private static List<String> instructions() throws Exception {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : Files.readAllLines(ROOT.resolve("Dockerfile"))) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || trimmed.isEmpty()) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
      } else {
        out.add(current.append(trimmed).toString());
        current.setLength(0);
      }
    }
    return out;
  }

  private static List<String> all(String keyword) throws Exception {
    return instructions().stream().filter(i -> i.startsWith(keyword + " ")).map(i -> i.substring(keyword.length() + 1))
        .toList();
  }

  @Test
  void theBaseIsAJavaRuntimeOfTheCompiledRelease() throws Exception {
    List<String> from = all("FROM");
    assertThat(from).as("one stage: nothing but the runtime and the jar").hasSize(1);
    Matcher release = Pattern.compile("<maven.compiler.release>(\\d+)</maven.compiler.release>")
        .matcher(Files.readString(ROOT.resolve("pom.xml")));
    assertThat(release.find()).isTrue();
    // Eclipse Temurin's runtime-only image: "-jre", never "-jdk".
    assertThat(from.get(0)).matches("eclipse-temurin:" + release.group(1) + "(\\.[0-9.]+)?-jre(-[a-z]+)?")
        .doesNotContain("jdk");
  }

  @Test
  void theUserIsNumericNonRootAndTheDeploymentsUser() throws Exception {
    List<String> users = all("USER");
    assertThat(users).hasSize(1);
    Matcher m = Pattern.compile("(\\d+)(?::(\\d+))?").matcher(users.get(0));
    assertThat(m.matches()).as("numeric USER, so runAsNonRoot can verify it: " + users.get(0)).isTrue();
    long uid = Long.parseLong(m.group(1));
    assertThat(uid).isPositive();
    assertThat(instructions().get(instructions().size() - 1)).as("USER comes before the entry point")
        .startsWith("ENTRYPOINT");
    assertThat(instructions().indexOf("USER " + users.get(0))).isGreaterThan(
        instructions().indexOf(instructions().stream().filter(i -> i.startsWith("COPY ")).findFirst().orElseThrow()));
    Deployment deployment;
    try (InputStream in = Files.newInputStream(ROOT.resolve("deploy").resolve("deployment.yaml"))) {
      deployment = new KubernetesSerialization().unmarshal(in, Deployment.class);
    }
    PodSecurityContext pod = deployment.getSpec().getTemplate().getSpec().getSecurityContext();
    assertThat(pod.getRunAsUser()).isEqualTo(uid);
    if (m.group(2) != null) {
      assertThat(pod.getRunAsGroup()).isEqualTo(Long.parseLong(m.group(2)));
    }
  }

  @Test
  void theShadedJarIsCopiedInAndRun() throws Exception {
    // The path the server module's shade plugin writes: target/<finalName>.jar.
    Matcher finalName = Pattern.compile("<finalName>([^<]+)</finalName>")
        .matcher(Files.readString(ROOT.resolve("server").resolve("pom.xml")));
    assertThat(finalName.find()).isTrue();
    String jar = "server/target/" + finalName.group(1) + ".jar";

    List<String> copies = all("COPY");
    assertThat(copies).hasSize(1);
    List<String> words = List.of(copies.get(0).split("\\s+"));
    assertThat(words.get(words.size() - 2)).isEqualTo(jar);
    String target = words.get(words.size() - 1);
    assertThat(words).contains("--chown=0:0");
    assertThat(all("ENTRYPOINT")).containsExactly("[\"java\", \"-jar\", \"" + target + "\"]");
    assertThat(all("ADD")).as("no downloads into the image").isEmpty();
    assertThat(all("RUN")).as("no build steps: the jar is built by Maven").isEmpty();

    assertThat(Files.readAllLines(ROOT.resolve(".dockerignore")).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#")).toList()).containsExactly("*", "!" + jar);
  }
}
