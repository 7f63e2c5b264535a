package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A small validator for the subset of OpenAPI v3 the Holdfast CRDs use (type, properties, additionalProperties,
 * items, required, enum, pattern, maxLength, int32, oneOf/anyOf/not, preserve-unknown-fields), plus the
 * structural-schema rules the API server enforces on the CRD itself. Enough to compare the CRDs with
 * ModelParser; not a general JSON Schema implementation.
 */
final class SchemaCheck {

  private SchemaCheck() {
  }

  /** Every way {@code value} breaks {@code schema}, each prefixed with its JSON path; empty if it conforms. */
  static List<String> violations(JsonNode value, JSONSchemaProps schema) {
    List<String> out = new ArrayList<>();
    check(value, schema, "", out);
    return out;
  }

  private static void check(JsonNode value, JSONSchemaProps schema, String path, List<String> out) {
    String type = schema.getType();
    if (type != null && !hasType(value, type, schema.getFormat())) {
      out.add(path + ": expected " + type + ", got " + value.getNodeType());
      return;
    }
    if (schema.getEnum() != null && !schema.getEnum().isEmpty() && !schema.getEnum().contains(value)) {
      out.add(path + ": " + value + " not in " + schema.getEnum());
    }
    if (value.isString()) {
      if (schema.getPattern() != null && !Pattern.compile(schema.getPattern()).matcher(value.stringValue()).find()) {
        out.add(path + ": \"" + value.stringValue() + "\" does not match " + schema.getPattern());
      }
      if (schema.getMaxLength() != null && value.stringValue().length() > schema.getMaxLength()) {
        out.add(path + ": longer than " + schema.getMaxLength());
      }
      if (schema.getMinLength() != null && value.stringValue().length() < schema.getMinLength()) {
        out.add(path + ": shorter than " + schema.getMinLength());
      }
    }
    if (value.isArray() && schema.getMinItems() != null && value.size() < schema.getMinItems()) {
      out.add(path + ": fewer than " + schema.getMinItems() + " items");
    }
    if (value.isArray() && schema.getMaxItems() != null && value.size() > schema.getMaxItems()) {
      out.add(path + ": more than " + schema.getMaxItems() + " items");
    }
    if (value.isObject()) {
      checkObject(value, schema, path, out);
    }
    if (value.isArray() && schema.getItems() != null && schema.getItems().getSchema() != null) {
      for (int i = 0; i < value.size(); i++) {
        check(value.get(i), schema.getItems().getSchema(), path + "[" + i + "]", out);
      }
    }
    if (schema.getOneOf() != null && !schema.getOneOf().isEmpty()) {
      long matching = schema.getOneOf().stream().filter(s -> violations(value, s).isEmpty()).count();
      if (matching != 1) {
        out.add(path + ": matches " + matching + " of oneOf (exactly one required)");
      }
    }
    if (schema.getAnyOf() != null && !schema.getAnyOf().isEmpty()
        && schema.getAnyOf().stream().noneMatch(s -> violations(value, s).isEmpty())) {
      out.add(path + ": matches none of anyOf");
    }
    if (schema.getNot() != null && violations(value, schema.getNot()).isEmpty()) {
      out.add(path + ": matches a forbidden combination (not)");
    }
  }

  private static void checkObject(JsonNode value, JSONSchemaProps schema, String path, List<String> out) {
    for (String required : nullToEmpty(schema.getRequired())) {
      if (!value.has(required) || value.get(required).isNull()) {
        out.add(child(path, required) + ": required");
      }
    }
    Map<String, JSONSchemaProps> properties = schema.getProperties();
    JSONSchemaProps additional = schema.getAdditionalProperties() == null ? null
        : schema.getAdditionalProperties().getSchema();
    boolean preserve = Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields());
    // Value-validation sub-schemas (oneOf entries etc.) have no type and declare no fields: nothing is unknown.
    boolean closed = "object".equals(schema.getType()) && additional == null && !preserve;
    for (var entry : value.properties()) {
      String name = entry.getKey();
      if (entry.getValue().isNull()) {
        continue; // the API server prunes nulls of non-nullable fields, as the parser ignores them
      }
      JSONSchemaProps field = properties == null ? null : properties.get(name);
      if (field != null) {
        check(entry.getValue(), field, child(path, name), out);
      } else if (additional != null) {
        check(entry.getValue(), additional, child(path, name), out);
      } else if (closed && !isKubernetesMetadata(path)) {
        out.add(child(path, name) + ": field not declared in the schema");
      }
    }
  }

  /** The API server validates metadata itself; a CRD may only declare {@code metadata: {type: object}}. */
  private static boolean isKubernetesMetadata(String path) {
    return path.equals("metadata");
  }

  private static boolean hasType(JsonNode value, String type, String format) {
    return switch (type) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isString();
      case "boolean" -> value.isBoolean();
      case "integer" -> value.isIntegralNumber() && (!"int32".equals(format) || value.canConvertToInt());
      case "number" -> value.isNumber();
      default -> false;
    };
  }

  /**
   * The API server's structural-schema rules that matter here: every object and array node has a type, items
   * have a schema, and value-validation branches (oneOf, anyOf, allOf, not) set no type, no fields, no
   * extensions, and require only fields declared next to them.
   */
  static List<String> structuralProblems(JSONSchemaProps schema) {
    List<String> out = new ArrayList<>();
    structural(schema, "", out);
    return out;
  }

  private static void structural(JSONSchemaProps schema, String path, List<String> out) {
    if (schema.getType() == null) {
      out.add(path + ": no type");
    }
    if ("array".equals(schema.getType()) && (schema.getItems() == null || schema.getItems().getSchema() == null)) {
      out.add(path + ": array without an items schema");
    }
    if (!nullToEmpty(schema.getProperties()).isEmpty() && !"object".equals(schema.getType())) {
      out.add(path + ": properties on a non-object");
    }
    for (var entry : nullToEmpty(schema.getProperties()).entrySet()) {
      structural(entry.getValue(), child(path, entry.getKey()), out);
    }
    if (schema.getItems() != null && schema.getItems().getSchema() != null) {
      structural(schema.getItems().getSchema(), path + "[]", out);
    }
    if (schema.getAdditionalProperties() != null && schema.getAdditionalProperties().getSchema() != null) {
      structural(schema.getAdditionalProperties().getSchema(), path + "{}", out);
    }
    List<JSONSchemaProps> branches = new ArrayList<>();
    branches.addAll(nullToEmpty(schema.getOneOf()));
    branches.addAll(nullToEmpty(schema.getAnyOf()));
    branches.addAll(nullToEmpty(schema.getAllOf()));
    if (schema.getNot() != null) {
      branches.add(schema.getNot());
    }
    for (JSONSchemaProps branch : branches) {
      valueValidation(branch, schema, path, out);
    }
  }

  private static void valueValidation(JSONSchemaProps branch, JSONSchemaProps owner, String path, List<String> out) {
    if (branch.getType() != null || !nullToEmpty(branch.getProperties()).isEmpty()
        || branch.getAdditionalProperties() != null
        || branch.getDefault() != null || branch.getNullable() != null
        || branch.getXKubernetesPreserveUnknownFields() != null) {
      out.add(path + ": a value-validation branch may not set type, properties, defaults or extensions");
    }
    for (String required : nullToEmpty(branch.getRequired())) {
      if (!nullToEmpty(owner.getProperties()).containsKey(required)) {
        out.add(path + ": a value-validation branch requires undeclared field " + required);
      }
    }
    List<JSONSchemaProps> nested = new ArrayList<>();
    nested.addAll(nullToEmpty(branch.getOneOf()));
    nested.addAll(nullToEmpty(branch.getAnyOf()));
    nested.addAll(nullToEmpty(branch.getAllOf()));
    if (branch.getNot() != null) {
      nested.add(branch.getNot());
    }
    nested.forEach(n -> valueValidation(n, owner, path, out));
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static <T> List<T> nullToEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static <K, V> Map<K, V> nullToEmpty(Map<K, V> map) {
    return map == null ? Map.of() : map;
  }
}
