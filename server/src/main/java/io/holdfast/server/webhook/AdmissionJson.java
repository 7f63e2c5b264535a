package io.holdfast.server.webhook;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code AdmissionReview} ({@code admission.k8s.io/v1}) to and from JSON, with Jackson trees: only the fields the
 * webhook reads are looked at (the object under review stays a tree, as the parser of custom resources takes it),
 * and everything else the API server sends is ignored. Stateless and thread-safe.
 */
final class AdmissionJson {

  static final String API_VERSION = "admission.k8s.io/v1";
  static final String KIND = "AdmissionReview";
  private static final Set<String> OPERATIONS = Set.of("CREATE", "UPDATE", "DELETE", "CONNECT");
  /** Custom resources nest little; far deeper input is an attack or a bug, refused before it costs stack. */
  private static final int MAX_NESTING = 200;

  private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
          .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
          .build())
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private AdmissionJson() {
  }

  /** The body could not be read as an AdmissionReview v1; the message says why, for the HTTP 400 answer. */
  static final class MalformedReview extends Exception {
    MalformedReview(String message) {
      super(message);
    }
  }

  /** The kind under review, as the API server names it ({@code request.kind}). */
  record GroupVersionKind(String group, String version, String kind) {
    GroupVersionKind {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(kind, "kind");
    }

    @Override
    public String toString() {
      return (group.isEmpty() ? "" : group + "/") + version + " " + kind;
    }
  }

  /**
   * The part of {@code AdmissionReview.request} the webhook uses.
   *
   * @param object    the object as it would be stored (CREATE, UPDATE); empty for DELETE and CONNECT
   * @param namespace the request's namespace; empty for cluster-scoped kinds
   * @param oldObject the object as stored before an UPDATE; empty otherwise (or when the API server sent none)
   */
  record Request(String uid, GroupVersionKind kind, String operation, String namespace, String name,
      Optional<ObjectNode> object, Optional<ObjectNode> oldObject) {
    Request {
      Objects.requireNonNull(uid, "uid");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(oldObject, "oldObject");
    }
  }

  /** One cause of a denial: a field path inside the object, a Holdfast reason code and its message. */
  record Cause(String field, String reason, String message) {
  }

  /**
   * The webhook's answer. A denial carries the message the API server shows ({@code admission webhook ...
   * denied the request: MESSAGE}) and its causes; warnings reach the client either way ({@code kubectl} prints
   * them as {@code Warning: ...}).
   */
  record Verdict(boolean allowed, String message, List<Cause> causes, List<String> warnings) {
    Verdict {
      Objects.requireNonNull(message, "message");
      causes = List.copyOf(causes);
      warnings = List.copyOf(warnings);
    }

    static Verdict allow(List<String> warnings) {
      return new Verdict(true, "", List.of(), warnings);
    }

    static Verdict deny(String message, List<Cause> causes, List<String> warnings) {
      return new Verdict(false, message, causes, warnings);
    }
  }

  /** Reads a review; every way the body can be wrong is a {@link MalformedReview} naming the field. */
  static Request readRequest(byte[] body) throws MalformedReview {
    JsonNode root;
    try {
      root = MAPPER.readTree(body);
    } catch (JacksonException e) {
      throw new MalformedReview("body is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new MalformedReview("body is not a JSON object");
    }
    String apiVersion = text(root, "apiVersion", "apiVersion");
    String kind = text(root, "kind", "kind");
    if (!API_VERSION.equals(apiVersion) || !KIND.equals(kind)) {
      throw new MalformedReview("expected apiVersion " + API_VERSION + " kind " + KIND + ", got apiVersion "
          + quoted(apiVersion) + " kind " + quoted(kind) + " (set admissionReviewVersions: [v1])");
    }
    JsonNode request = root.get("request");
    if (request == null || !request.isObject()) {
      throw new MalformedReview("request: missing or not an object");
    }
    String uid = text(request, "uid", "request.uid");
    if (uid == null || uid.isEmpty()) {
      throw new MalformedReview("request.uid: missing or empty");
    }
    JsonNode gvk = request.get("kind");
    if (gvk == null || !gvk.isObject()) {
      throw new MalformedReview("request.kind: missing or not an object");
    }
    String group = Optional.ofNullable(text(gvk, "group", "request.kind.group")).orElse("");
    String version = text(gvk, "version", "request.kind.version");
    String kindName = text(gvk, "kind", "request.kind.kind");
    if (version == null || kindName == null) {
      throw new MalformedReview("request.kind: version and kind are required");
    }
    String operation = text(request, "operation", "request.operation");
    if (operation == null || !OPERATIONS.contains(operation)) {
      throw new MalformedReview("request.operation: expected one of CREATE, UPDATE, DELETE, CONNECT, got "
          + quoted(operation));
    }
    String namespace = Optional.ofNullable(text(request, "namespace", "request.namespace")).orElse("");
    String name = Optional.ofNullable(text(request, "name", "request.name")).orElse("");
    JsonNode object = request.get("object");
    Optional<ObjectNode> objectNode = Optional.empty();
    if (object != null && !object.isNull()) {
      if (!(object instanceof ObjectNode o)) {
        throw new MalformedReview("request.object: not an object");
      }
      objectNode = Optional.of(o);
    }
    if ((operation.equals("CREATE") || operation.equals("UPDATE")) && objectNode.isEmpty()) {
      throw new MalformedReview("request.object: required for " + operation);
    }
    // Only an UPDATE's old object is used (to tell a status write from a config change); a malformed one is ignored.
    Optional<ObjectNode> oldObject = operation.equals("UPDATE") && request.get("oldObject") instanceof ObjectNode o
        ? Optional.of(o) : Optional.empty();
    return new Request(uid, new GroupVersionKind(group, version, kindName), operation, namespace, name,
        objectNode, oldObject);
  }

  /** The review answering {@code uid} with {@code verdict}, as bytes to send. */
  static byte[] writeResponse(String uid, Verdict verdict, Optional<GroupVersionKind> kind, String name) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("apiVersion", API_VERSION);
    root.put("kind", KIND);
    ObjectNode response = root.putObject("response");
    response.put("uid", uid);
    response.put("allowed", verdict.allowed());
    if (!verdict.allowed()) {
      // 422 Invalid, like the API server's own answer to an object that fails its schema.
      ObjectNode status = response.putObject("status");
      status.put("status", "Failure");
      status.put("code", 422);
      status.put("reason", "Invalid");
      status.put("message", verdict.message());
      ObjectNode details = status.putObject("details");
      kind.ifPresent(k -> {
        details.put("group", k.group());
        details.put("kind", k.kind());
      });
      if (!name.isEmpty()) {
        details.put("name", name);
      }
      ArrayNode causes = details.putArray("causes");
      verdict.causes().forEach(c -> causes.addObject()
          .put("field", c.field())
          .put("reason", c.reason())
          .put("message", c.message()));
    }
    if (!verdict.warnings().isEmpty()) {
      ArrayNode warnings = response.putArray("warnings");
      verdict.warnings().forEach(warnings::add);
    }
    return MAPPER.writeValueAsBytes(root);
  }

  /** The text of {@code node.field}; null when absent or JSON null; a non-string value is malformed. */
  private static String text(JsonNode node, String field, String path) throws MalformedReview {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isString()) {
      throw new MalformedReview(path + ": expected a string, got " + value.getNodeType().name().toLowerCase());
    }
    return value.asString();
  }

  /** Echoes input in a message, cut short: a message is for reading, not a copy of the request. */
  private static String quoted(String value) {
    if (value == null) {
      return "none";
    }
    return "\"" + (value.length() > 60 ? value.substring(0, 60) + "..." : value) + "\"";
  }
}
