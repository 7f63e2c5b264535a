package io.holdfast.server.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.source.ConfigFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Containment, as a property: every golden input of the translation tests ({@code xds/src/test/resources/golden}),
 * with one of its documents mutated as a careless or hostile user would (a wrong type, an invalid enum value, a
 * dangling reference, a duplicate, a huge value, a required field removed), goes through the validate path
 * ({@link ConfigValidation}: the loader and {@code ConfigCheck}, both front ends and the IR builder) without
 * throwing, without a failure of Holdfast's own ({@code buildProblems}), and every object the mutation did not touch
 * keeps its verdict: its state and its reasons.
 *
 * <p>"Touched" is the mutated document's object and every object related to it: one that shares a value with it
 * (a name it references or is referenced by, a domain, a port, a label, a file) before or after the mutation, and
 * for a Holdfast Gateway, which may select every VirtualService of its namespace, every VirtualService. Only
 * verdicts of objects related by nothing are compared; {@link #comparisons} proves that many are.
 */
class MutatedGoldenInputsPropertyTest {
  private static final Path GOLDEN = Path.of("..", "xds", "src", "test", "resources", "golden");
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<Path> CASES = cases();
  private static final AtomicInteger comparisons = new AtomicInteger();
  /**
   * The verdicts of each unmutated golden input, validated once: a fresh {@link ConfigValidation} over the same
   * text gives the same report, and re-validating it on each of the 400 tries was half of this test's time.
   */
  private static final Map<Path, ValidationReport> UNMUTATED = new java.util.concurrent.ConcurrentHashMap<>();

  /** Values that relate nothing: they are in every document of their kind. */
  private static final Set<String> STRUCTURAL = Set.of("/", "true", "false", "default");
  /**
   * Fields whose values relate nothing by themselves: the type, and the namespace (a reference across namespaces
   * also names its object, which relates it).
   */
  private static final Set<String> UNRELATING_FIELDS = Set.of("apiVersion", "kind", "namespace");
  /** Maps whose keys are values too. */
  private static final Set<String> LABEL_MAPS = Set.of("labels", "matchLabels", "selector");

  enum Mutation {
    WRONG_TYPE, INVALID_ENUM, DANGLING_REFERENCE, DUPLICATE, HUGE_VALUE, REMOVED_FIELD
  }

  /**
   * A few hundred random mutations: any golden input, any document, any mutation, anywhere in the document. The
   * seed is fixed so that CI runs the same tries (a failure names its sample); change it to explore others.
   */
  @Property(tries = 800, seed = "20261204")
  void aMutatedDocumentNeverThrowsAndLeavesUnrelatedVerdictsAlone(@ForAll @IntRange(min = 0, max = 1000) int input,
      @ForAll @IntRange(min = 0, max = 1000) int document, @ForAll Mutation mutation, @ForAll long where) {
    check(CASES.get(input % CASES.size()), document, mutation, where);
  }

  /** Every golden input gets every mutation at least once, whatever the random ones above pick. */
  @Example
  void everyGoldenInputGetsEveryMutation() {
    assertThat(CASES).hasSizeGreaterThanOrEqualTo(10);
    for (Path dir : CASES) {
      for (Mutation mutation : Mutation.values()) {
        check(dir, 1, mutation, 42);
      }
    }
  }

  @AfterContainer
  static void comparedEnoughToMeanSomething() {
    // Not vacuous: the relation must leave plenty of untouched objects to compare.
    System.out.println("untouched verdicts compared: " + comparisons.get());
    assertThat(comparisons.get()).as("untouched verdicts compared").isGreaterThan(200);
  }

  private static void check(Path dir, int documentChoice, Mutation mutation, long where) {
    List<String> documents = documents(read(dir.resolve("input.yaml")));
    List<Integer> objects = new ArrayList<>();
    for (int i = 0; i < documents.size(); i++) {
      if (parse(documents.get(i)) instanceof ObjectNode) {
        objects.add(i);
      }
    }
    int target = objects.get(documentChoice % objects.size());
    ObjectNode original = (ObjectNode) parse(documents.get(target));
    ObjectNode mutated = original.deepCopy();
    List<String> after = new ArrayList<>(documents);
    Random random = new Random(where);
    switch (mutation) {
      case DUPLICATE -> after.add(target + 1, documents.get(target));
      case WRONG_TYPE -> replaceAny(mutated, random, MutatedGoldenInputsPropertyTest::otherType);
      case INVALID_ENUM -> replaceAny(mutated, random, node -> node.isString() ? NODES.stringNode("NotAValue")
          : null);
      case DANGLING_REFERENCE -> dangle(mutated, namesOf(documents, target), random);
      case HUGE_VALUE -> replaceAny(mutated, random, MutatedGoldenInputsPropertyTest::huge);
      case REMOVED_FIELD -> removeAny(mutated, random);
    }
    if (mutation != Mutation.DUPLICATE) {
      after.set(target, YAML.writeValueAsString(mutated));
    }
    String context = dir.getFileName() + " document " + target + " " + mutation + " at " + where + ":\n"
        + after.get(target);

    ValidationReport before = UNMUTATED.computeIfAbsent(dir, d -> validate(d, documents));
    ValidationReport changed = validate(dir, after);

    assertThat(changed.buildProblems()).as("no failure of Holdfast's own: " + context).isEmpty();
    Set<Integer> related = related(documents, target, mutated);
    Map<ResourceKey, String> verdictsAfter = verdicts(changed);
    Map<ResourceKey, Integer> documentOf = documentsOf(before, documents);
    verdicts(before).forEach((key, verdict) -> {
      int doc = documentOf.getOrDefault(key, -1);
      if (doc < 0 || related.contains(doc)) {
        return;
      }
      comparisons.incrementAndGet();
      assertThat(verdictsAfter.get(key)).as(key + " is untouched by " + context).isEqualTo(verdict);
    });
  }

  private static ValidationReport validate(Path dir, List<String> documents) {
    TreeMap<Path, String> contents = new TreeMap<>();
    contents.put(Path.of("input.yaml"), String.join("\n---\n", documents));
    return new ConfigValidation().validate(List.of(new ConfigFiles(contents, List.of(), Instant.EPOCH,
        tlsFiles(dir))));
  }

  /** State and reasons of each resource (a key declared twice keeps its first document's entry). */
  private static Map<ResourceKey, String> verdicts(ValidationReport report) {
    Map<ResourceKey, String> out = new TreeMap<>();
    report.resources().forEach(r -> out.putIfAbsent(r.key(), r.state() + " "
        + r.problems().stream().map(io.holdfast.pipeline.ReportedProblem::reason).toList()));
    return out;
  }

  /** Which document declared each resource, from the line the report gives it at. */
  private static Map<ResourceKey, Integer> documentsOf(ValidationReport report, List<String> documents) {
    List<Integer> firstLines = new ArrayList<>();
    int line = 1;
    for (String document : documents) {
      firstLines.add(line);
      line += document.split("\n", -1).length + 1; // the joining separator line
    }
    Map<ResourceKey, Integer> out = new TreeMap<>();
    for (ValidationReport.ResourceReport r : report.resources()) {
      int doc = 0;
      while (doc + 1 < firstLines.size() && firstLines.get(doc + 1) <= r.line()) {
        doc++;
      }
      out.merge(r.key(), doc, (a, b) -> a.equals(b) ? a : -1); // declared twice: not compared
    }
    return out;
  }

  /**
   * The documents a change of document {@code target} (to {@code mutated}) may affect: itself, and every document
   * reachable from it through shared values (a reference, a domain, a port, a label), in either version of the
   * target, transitively (a Gateway serves a VirtualService that routes to an Upstream); a Holdfast Gateway
   * without a list of VirtualServices selects them all, so it is reached through any of them.
   */
  private static Set<Integer> related(List<String> documents, int target, ObjectNode mutated) {
    Set<Integer> related = new HashSet<>(List.of(target));
    Set<String> reached = new HashSet<>(values(parse(documents.get(target))));
    reached.addAll(values(mutated));
    boolean virtualServiceReached = isKind(mutated, "VirtualService", "")
        || isKind(parse(documents.get(target)), "VirtualService", "");
    // An HTTPS Holdfast Gateway decides verdicts of VirtualServices it does not name: those it would serve are
    // judged for SNI conflicts among themselves (DuplicateSniDomain), however it selects them.
    JsonNode original = parse(documents.get(target));
    boolean gatewayTarget = isKind(original, "Gateway", "gateway.holdfast.io")
        && original.path("spec").path("ssl").asBoolean(false);
    boolean grew = true;
    while (grew) {
      grew = false;
      for (int i = 0; i < documents.size(); i++) {
        if (related.contains(i) || !(parse(documents.get(i)) instanceof ObjectNode object)) {
          continue;
        }
        Set<String> own = values(object);
        boolean selector = isKind(object, "Gateway", "gateway.holdfast.io")
            && !object.path("spec").has("virtualServices");
        if (own.stream().anyMatch(reached::contains) || (selector && virtualServiceReached)
            || (gatewayTarget && isKind(object, "VirtualService", ""))) {
          related.add(i);
          reached.addAll(own);
          virtualServiceReached |= isKind(object, "VirtualService", "");
          grew = true;
        }
      }
    }
    return related;
  }

  private static boolean isKind(JsonNode node, String kind, String group) {
    return node.path("kind").asString("").equals(kind) && node.path("apiVersion").asString("").startsWith(group);
  }

  /** Every scalar value in {@code node}, but the apiVersion and kind, and the structural ones. */
  private static Set<String> values(JsonNode node) {
    Set<String> out = new HashSet<>();
    collect(node, "", out);
    out.removeAll(STRUCTURAL);
    return out;
  }

  private static void collect(JsonNode node, String field, Set<String> out) {
    if (node.isObject()) {
      node.properties().forEach(e -> {
        if (LABEL_MAPS.contains(field)) {
          out.add(e.getKey()); // a label key relates as much as its value
        }
        collect(e.getValue(), e.getKey(), out);
      });
    } else if (node.isArray()) {
      node.forEach(child -> collect(child, field, out));
    } else if (!node.isNull() && !UNRELATING_FIELDS.contains(field)) {
      out.add(node.asString());
    }
  }

  /** Replaces one node (picked at random among all) by {@code replacement}'s answer, if it has one. */
  private static void replaceAny(ObjectNode root, Random random, java.util.function.Function<JsonNode, JsonNode>
      replacement) {
    List<Slot> slots = slots(root);
    for (int attempt = 0; attempt < slots.size(); attempt++) {
      Slot slot = slots.get(random.nextInt(slots.size()));
      JsonNode next = replacement.apply(slot.get());
      if (next != null) {
        slot.set(next);
        return;
      }
    }
  }

  private static void removeAny(ObjectNode root, Random random) {
    List<Slot> fields = slots(root).stream().filter(s -> s.parent() instanceof ObjectNode).toList();
    Slot slot = fields.get(random.nextInt(fields.size()));
    ((ObjectNode) slot.parent()).remove(slot.field());
  }

  /** Points one value that names another document's object at an object that does not exist. */
  private static void dangle(ObjectNode root, Set<String> names, Random random) {
    List<Slot> references = slots(root).stream()
        .filter(s -> s.get().isString() && names.contains(s.get().asString())).toList();
    if (references.isEmpty()) {
      replaceAny(root, random, node -> node.isString() ? NODES.stringNode("missing-" + node.asString()) : null);
      return;
    }
    Slot slot = references.get(random.nextInt(references.size()));
    slot.set(NODES.stringNode("missing-" + slot.get().asString()));
  }

  private static JsonNode otherType(JsonNode node) {
    if (node.isString()) {
      return NODES.numberNode(7);
    }
    if (node.isNumber() || node.isBoolean()) {
      return NODES.stringNode("seven");
    }
    if (node.isObject()) {
      return NODES.arrayNode().add("not-an-object");
    }
    if (node.isArray()) {
      return NODES.objectNode().put("not", "a list");
    }
    return NODES.objectNode();
  }

  private static JsonNode huge(JsonNode node) {
    if (node.isNumber()) {
      return NODES.numberNode(Long.MAX_VALUE);
    }
    if (node.isString()) {
      return NODES.stringNode("x".repeat(10_000));
    }
    if (node.isArray() && !node.isEmpty()) {
      ArrayNode copies = NODES.arrayNode();
      for (int i = 0; i < 200; i++) {
        copies.add(node.get(0).deepCopy());
      }
      return copies;
    }
    return null;
  }

  /** A place in the tree: a field of an object or an element of an array. */
  private record Slot(JsonNode parent, String field, int index) {
    JsonNode get() {
      return parent instanceof ObjectNode o ? o.get(field) : parent.get(index);
    }

    void set(JsonNode value) {
      if (parent instanceof ObjectNode o) {
        o.set(field, value);
      } else {
        ((ArrayNode) parent).set(index, value);
      }
    }
  }

  private static List<Slot> slots(JsonNode root) {
    List<Slot> out = new ArrayList<>();
    addSlots(root, out);
    return out;
  }

  private static void addSlots(JsonNode node, List<Slot> out) {
    if (node instanceof ObjectNode object) {
      object.propertyNames().forEach(name -> {
        out.add(new Slot(object, name, -1));
        addSlots(object.get(name), out);
      });
    } else if (node instanceof ArrayNode array) {
      for (int i = 0; i < array.size(); i++) {
        out.add(new Slot(array, null, i));
        addSlots(array.get(i), out);
      }
    }
  }

  private static Set<String> namesOf(List<String> documents, int except) {
    Set<String> names = new HashSet<>();
    for (int i = 0; i < documents.size(); i++) {
      if (i != except && parse(documents.get(i)) instanceof ObjectNode object) {
        String name = object.path("metadata").path("name").asString("");
        if (!name.isEmpty()) {
          names.add(name);
        }
      }
    }
    return names;
  }

  private static List<String> documents(String text) {
    return Stream.of(text.split("(?m)^---[ \\t]*$")).map(String::strip).filter(d -> !d.isEmpty()).toList();
  }

  private static JsonNode parse(String document) {
    return YAML.readTree(document);
  }

  /** The PEM files of {@code dir/tls}, by the names sslConfigs give them ({@code tls/NAME}). */
  private static TreeMap<String, String> tlsFiles(Path dir) {
    TreeMap<String, String> out = new TreeMap<>();
    Path tls = dir.resolve("tls");
    if (Files.isDirectory(tls)) {
      try (Stream<Path> files = Files.list(tls)) {
        files.filter(f -> !f.getFileName().toString().endsWith(".md"))
            .forEach(f -> out.put("tls/" + f.getFileName(), read(f)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  private static List<Path> cases() {
    try (Stream<Path> dirs = Files.list(GOLDEN)) {
      return dirs.filter(d -> Files.isRegularFile(d.resolve("input.yaml"))).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
