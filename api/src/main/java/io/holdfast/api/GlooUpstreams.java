package io.holdfast.api;

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
}
