package io.holdfast.kube.source;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GlooUpstreams;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What a Gloo Edge object names in the cluster, so the source resolves it: the Service ports of an Upstream's
 * {@code spec.kube} (narrowed by its {@code selector}) and of routes' {@code kube: {ref, port}} destinations
 * (endpoints), and the Secrets of {@code sslConfig.secretRef}s (TLS material). Read from the raw object, as the
 * Gloo front end reads it; anything malformed is skipped here and reported by the front end.
 */
final class GlooRefs {

  /**
   * Nodes visited per object. Reason: a destination or secret reference sits a few levels deep in a route; the
   * bound keeps a hostile object from making the source walk without end (Kubernetes caps object size anyway).
   */
  static final int MAX_NODES = 100_000;

  private GlooRefs() {
  }

  static List<ServiceRef> services(ApiObject object) {
    List<ServiceRef> out = new ArrayList<>();
    String namespace = object.key().namespace();
    GlooUpstreams.kubeService(object).ifPresent(out::add);
    walk(object.at("/spec"), new int[] {0}, node -> {
      JsonNode ref = node.path("kube").path("ref");
      int port = node.path("kube").path("port").asInt(0);
      if (ref.isObject() && !ref.path("name").asString("").isEmpty() && port > 0) {
        out.add(new ServiceRef(ref.path("namespace").asString(namespace), ref.path("name").asString(), port));
      }
    });
    return out;
  }

  static List<ResourceKey> secrets(ApiObject object) {
    List<ResourceKey> out = new ArrayList<>();
    String namespace = object.key().namespace();
    walk(object.at("/spec"), new int[] {0}, node -> {
      JsonNode ref = node.path("sslConfig").path("secretRef");
      if (ref.isObject() && !ref.path("name").asString("").isEmpty()) {
        out.add(TlsSecretData.secretKey(ref.path("namespace").asString(namespace), ref.path("name").asString()));
      }
    });
    return out;
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
