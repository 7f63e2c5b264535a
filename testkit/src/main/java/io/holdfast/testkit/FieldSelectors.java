package io.holdfast.testkit;

import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The field selector requirements fabric8's mock cannot evaluate, evaluated here. The mock knows
 * {@code metadata.name} and {@code metadata.namespace} only: a requirement on any other field (a Secret's
 * {@code type}, a Pod's {@code status.phase}) is either ignored (its value has a {@code /}, as in
 * {@code type=kubernetes.io/tls}: every object is served) or matches nothing (the stored objects carry no such
 * attribute). A real API server filters by it, list and watch alike, so a test could not tell a selective
 * informer from one caching everything.
 *
 * <p>{@link #of} takes such requirements ({@code field=value}, {@code field==value}, {@code field!=value} on a
 * dotted field path) out of the request's {@code fieldSelector}; the mock answers the rest ({@link #pathForMock}),
 * and this filters the answer: a list's {@code items} ({@link #filterList}), a watch's events
 * ({@link #filterWatch}). An object lacking the field has the empty value, as on a real server. A watch event for
 * an object that stops matching is dropped rather than turned into DELETED (a real server's behaviour); the fields
 * used here (a Secret's {@code type}) are immutable, so it never arises.
 */
final class FieldSelectors {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  /** Fields the mock evaluates itself. */
  private static final Set<String> KNOWN_TO_MOCK = Set.of("metadata.name", "metadata.namespace");

  /** One requirement: {@code field} equals (or, {@code negated}, differs from) {@code value}. */
  record Requirement(String field, String value, boolean negated) {
    boolean matches(JsonNode object) {
      JsonNode node = object;
      for (String part : field.split("\\.")) {
        node = node == null ? null : node.get(part);
      }
      String actual = node == null || node.isNull() ? "" : node.asString("");
      return actual.equals(value) != negated;
    }
  }

  private final String pathForMock;
  private final List<Requirement> requirements;

  private FieldSelectors(String pathForMock, List<Requirement> requirements) {
    this.pathForMock = pathForMock;
    this.requirements = List.copyOf(requirements);
  }

  /** The requirements of {@code path}'s {@code fieldSelector} that the mock cannot evaluate. */
  static FieldSelectors of(String path) {
    int q = path.indexOf('?');
    if (q < 0) {
      return new FieldSelectors(path, List.of());
    }
    List<Requirement> ours = new ArrayList<>();
    List<String> params = new ArrayList<>();
    for (String param : path.substring(q + 1).split("&")) {
      if (!param.startsWith("fieldSelector=")) {
        params.add(param);
        continue;
      }
      List<String> kept = new ArrayList<>();
      String selector = URLDecoder.decode(param.substring("fieldSelector=".length()), StandardCharsets.UTF_8);
      for (String requirement : selector.split(",")) {
        Requirement parsed = parse(requirement.trim());
        if (parsed == null || KNOWN_TO_MOCK.contains(parsed.field())) {
          kept.add(requirement);
        } else {
          ours.add(parsed);
        }
      }
      if (!kept.isEmpty()) {
        params.add("fieldSelector=" + URLEncoder.encode(String.join(",", kept), StandardCharsets.UTF_8));
      }
    }
    String base = path.substring(0, q);
    return new FieldSelectors(params.isEmpty() ? base : base + "?" + String.join("&", params), ours);
  }

  private static Requirement parse(String text) {
    int ne = text.indexOf("!=");
    if (ne > 0) {
      return new Requirement(text.substring(0, ne), text.substring(ne + 2), true);
    }
    int eq = text.indexOf("==");
    if (eq > 0) {
      return new Requirement(text.substring(0, eq), text.substring(eq + 2), false);
    }
    int single = text.indexOf('=');
    return single > 0 ? new Requirement(text.substring(0, single), text.substring(single + 1), false) : null;
  }

  boolean isEmpty() {
    return requirements.isEmpty();
  }

  List<Requirement> requirements() {
    return requirements;
  }

  /** The request path without the requirements this evaluates. */
  String pathForMock() {
    return pathForMock;
  }

  boolean matches(JsonNode object) {
    return requirements.stream().allMatch(r -> r.matches(object));
  }

  /** A list answer with only the matching items; any other answer (a single object, an error) unchanged. */
  MockResponse filterList(MockResponse response) {
    if (isEmpty() || response == null || response.code() != 200 || response.getBody() == null) {
      return response;
    }
    JsonNode body;
    try {
      body = JSON.readTree(new String(response.getBody().getBytes(), StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      return response;
    }
    if (!(body instanceof ObjectNode list) || !(list.get("items") instanceof ArrayNode items)) {
      return response;
    }
    ArrayNode kept = JSON.createArrayNode();
    items.forEach(item -> {
      if (matches(item)) {
        kept.add(item);
      }
    });
    list.set("items", kept);
    return response.setBody(JSON.writeValueAsString(list));
  }

  /** A watch answer whose events for non-matching objects are never sent. */
  MockResponse filterWatch(MockResponse response) {
    if (isEmpty() || response.getWebSocketListener() == null) {
      return response;
    }
    return response.withWebSocketUpgrade(new FilteringListener(response.getWebSocketListener()));
  }

  /** Hands the delegate a socket that drops the events this selector excludes. */
  private final class FilteringListener extends SendGate {

    FilteringListener(WebSocketListener delegate) {
      super(delegate);
    }

    @Override
    boolean send(String text, BooleanSupplier sender) {
      return !passes(text) || sender.getAsBoolean();
    }

    /** Whether a watch event goes out: its object matches, or it is no object event (an error, a bookmark). */
    private boolean passes(String event) {
      try {
        JsonNode tree = JSON.readTree(event);
        JsonNode object = tree.get("object");
        String type = tree.path("type").asString("");
        return object == null || !(type.equals("ADDED") || type.equals("MODIFIED") || type.equals("DELETED"))
            || matches(object);
      } catch (RuntimeException e) {
        return true;
      }
    }
  }
}
