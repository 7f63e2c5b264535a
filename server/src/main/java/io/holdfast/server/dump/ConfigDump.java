package io.holdfast.server.dump;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.controlplane.cache.Resources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Envoy resources as one document: {@code listeners}, {@code routes}, {@code clusters}, {@code endpoints},
 * {@code secrets} (each a list sorted by name, in Envoy's JSON mapping with the proto field names, so it reads
 * like Envoy's own YAML), after a header of the caller's (version, proxy). Sensitive fields are redacted
 * ({@link Redaction}). Types other than those five are kept under their type URL.
 */
public final class ConfigDump {
  /** The sections, in the order Envoy applies them, by type URL. */
  public static final Map<String, String> SECTIONS = sections();

  private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
  private static final YAMLMapper YAML = YAMLMapper.builder().build();

  /** JSON or YAML. */
  public enum Format {
    JSON, YAML;

    /** {@code json} or {@code yaml} (any case). */
    public static Format parse(String value) {
      return switch (value == null ? "" : value.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "json" -> JSON;
        case "yaml", "yml" -> YAML;
        default -> throw new IllegalArgumentException("--output must be yaml or json, got '" + value + "'");
      };
    }
  }

  private ConfigDump() {
  }

  /**
   * The document for {@code resources} (type URL to name to resource), after {@code header}'s fields.
   *
   * @param header e.g. {@code version}, {@code proxy}; values are strings, numbers, maps or lists
   */
  public static ObjectNode document(Map<String, ?> header, Map<String, ? extends Map<String, ? extends Message>>
      resources) {
    ObjectNode out = JSON.createObjectNode();
    header.forEach((key, value) -> out.set(key, JSON.valueToTree(value)));
    Map<String, Map<String, ? extends Message>> rest = new TreeMap<>(resources);
    SECTIONS.forEach((type, section) -> {
      Map<String, ? extends Message> ofType = rest.remove(type);
      out.set(section, list(ofType == null ? Map.of() : ofType));
    });
    rest.forEach((type, ofType) -> out.set(type, list(ofType)));
    return out;
  }

  public static String render(JsonNode document, Format format) {
    return format == Format.JSON ? JSON.writeValueAsString(document) + "\n" : YAML.writeValueAsString(document);
  }

  private static ArrayNode list(Map<String, ? extends Message> byName) {
    ArrayNode out = JSON.createArrayNode();
    new TreeMap<>(byName).values().forEach(resource -> out.add(json(resource)));
    return out;
  }

  /** One resource, redacted, in Envoy's JSON mapping with proto field names. */
  static JsonNode json(Message resource) {
    Redaction redaction = new Redaction();
    Message redacted = redaction.redact(resource);
    JsonFormat.TypeRegistry.Builder registry = JsonFormat.TypeRegistry.newBuilder();
    redaction.types().forEach(registry::add);
    try {
      String text = JsonFormat.printer().usingTypeRegistry(registry.build()).preservingProtoFieldNames()
          .omittingInsignificantWhitespace().print(redacted);
      return JSON.readTree(text);
    } catch (InvalidProtocolBufferException e) {
      // Every packed type was resolved (or replaced) by the redaction: this is a Holdfast bug, said plainly.
      throw new IllegalStateException("cannot print " + resource.getDescriptorForType().getFullName() + ": "
          + e.getMessage(), e);
    }
  }

  private static Map<String, String> sections() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(Resources.V3.LISTENER_TYPE_URL, "listeners");
    s.put(Resources.V3.ROUTE_TYPE_URL, "routes");
    s.put(Resources.V3.CLUSTER_TYPE_URL, "clusters");
    s.put(Resources.V3.ENDPOINT_TYPE_URL, "endpoints");
    s.put(Resources.V3.SECRET_TYPE_URL, "secrets");
    return java.util.Collections.unmodifiableMap(s);
  }

  /** {@code resources} restricted to the names of each type that {@code keep} allows. */
  public static SortedMap<String, SortedMap<String, Message>> filter(
      Map<String, ? extends Map<String, ? extends Message>> resources,
      java.util.function.BiPredicate<String, String> keep) {
    SortedMap<String, SortedMap<String, Message>> out = new TreeMap<>();
    resources.forEach((type, byName) -> byName.forEach((name, resource) -> {
      if (keep.test(type, name)) {
        out.computeIfAbsent(type, t -> new TreeMap<>()).put(name, resource);
      }
    }));
    return out;
  }
}
