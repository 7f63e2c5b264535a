package io.holdfast.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * The Service port a Gloo Edge {@code Upstream} ({@code gloo.solo.io}) names with {@code spec.kube}, narrowed by its
 * {@code selector}, read from the raw object so that sources (files, informers) resolve its endpoints before the
 * Gloo front end reads it. Lenient: anything malformed gives nothing here, and the front end reports it.
 */
public final class GlooUpstreams {

  private static final String GROUP = "gloo.solo.io";

  private GlooUpstreams() {
  }

  /** The endpoints {@code object}'s {@code spec.kube} names, if it is a Gloo kube Upstream that names them. */
  public static Optional<ServiceRef> kubeService(ApiObject object) {
    JsonNode kube = object.at("/spec/kube");
    if (!object.key().group().equals(GROUP) || !object.key().kind().equals("Upstream") || !kube.isObject()) {
      return Optional.empty();
    }
    String name = kube.path("serviceName").asString("");
    int port = kube.path("servicePort").asInt(0);
    JsonNode selector = kube.path("selector");
    if (name.isEmpty() || port <= 0 || !(selector.isMissingNode() || selector.isObject())
        || selector.size() > UpstreamTarget.Kube.MAX_SELECTOR_LABELS) {
      return Optional.empty();
    }
    Map<String, String> labels = new TreeMap<>();
    for (Map.Entry<String, JsonNode> label : selector.properties()) {
      if (!label.getValue().isValueNode() || label.getValue().isNull()) {
        return Optional.empty();
      }
      labels.put(label.getKey(), label.getValue().asString());
    }
    return Optional.of(ServiceRef.selecting(kube.path("serviceNamespace").asString(object.key().namespace()), name,
        port, labels));
  }

  /**
   * Nodes visited per object when looking for routes' subset choices. Reason: a destination sits a few levels
   * deep in a route; the bound keeps a hostile object from making the source walk without end.
   */
  public static final int MAX_NODES = 100_000;

  /**
   * The narrowed Service ports routes choose with a destination's {@code subset.values} of a kube Upstream that
   * declares a {@code subsetSpec}: the Upstream's reference with the chosen labels joined to its selector, as the
   * Gloo front end serves such a destination (a synthetic narrowed Upstream). A join across objects, so sources
   * call it with every object they read. Lenient: a choice that contradicts the selector, names an unknown
   * Upstream or is malformed gives nothing here, and the front end rejects it.
   */
  public static List<ServiceRef> subsetServices(Collection<ApiObject> objects) {
    Map<String, ServiceRef> subsettable = new TreeMap<>();
    for (ApiObject object : objects) {
      if (object.at("/spec/kube/subsetSpec").isObject()) {
        kubeService(object).ifPresent(ref -> subsettable.put(object.key().namespace() + "/" + object.key().name(),
            ref));
      }
    }
    List<ServiceRef> out = new ArrayList<>();
    if (subsettable.isEmpty()) {
      return out;
    }
    for (ApiObject object : objects) {
      if (!object.key().group().endsWith("solo.io")) {
        continue;
      }
      walk(object.at("/spec"), new int[] {0}, node -> {
        JsonNode upstream = node.path("upstream");
        JsonNode values = node.path("subset").path("values");
        if (!upstream.isObject() || !values.isObject()) {
          return;
        }
        String namespace = upstream.path("namespace").asString(object.key().namespace());
        ServiceRef base = subsettable.get(namespace + "/" + upstream.path("name").asString(""));
        if (base != null) {
          narrowed(base, values).ifPresent(out::add);
        }
      });
    }
    return out;
  }

  private static Optional<ServiceRef> narrowed(ServiceRef base, JsonNode values) {
    Map<String, String> labels = new TreeMap<>(base.selector());
    for (Map.Entry<String, JsonNode> value : values.properties()) {
      if (!value.getValue().isValueNode() || value.getValue().isNull()) {
        return Optional.empty();
      }
      String own = labels.putIfAbsent(value.getKey(), value.getValue().asString());
      if (own != null && !own.equals(value.getValue().asString())) {
        return Optional.empty();
      }
    }
    if (labels.isEmpty() || labels.size() > UpstreamTarget.Kube.MAX_SELECTOR_LABELS) {
      return Optional.empty();
    }
    return Optional.of(ServiceRef.selecting(base.namespace(), base.name(), base.port(), labels));
  }

  private static void walk(JsonNode node, int[] visited, java.util.function.Consumer<JsonNode> visit) {
    if (++visited[0] > MAX_NODES) {
      return;
    }
    if (node.isObject()) {
      visit.accept(node);
    }
    if (node.isObject() || node.isArray()) {
      for (JsonNode child : node.values()) {
        walk(child, visited, visit);
      }
    }
  }
}
