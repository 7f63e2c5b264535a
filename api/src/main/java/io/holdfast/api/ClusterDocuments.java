package io.holdfast.api;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * Kubernetes core documents in a config directory that stand in for what Kubernetes mode reads from the cluster, so
 * Gateway API backends and certificates resolve in file mode too: v1 {@code Service}s with
 * {@code discovery.k8s.io/v1} {@code EndpointSlice}s become {@link GatewayConfig#serviceEndpoints()} entries (one per
 * TCP Service port, empty when no ready endpoint serves it), and {@code kubernetes.io/tls} {@code Secret}s become
 * {@link GatewayConfig#secrets()} entries under their {@link TlsSecretData#secretKey Secret key}. The rules are the
 * cluster's: a Service port maps to slice ports by name, the slice port number is the target port, an endpoint
 * whose {@code conditions.ready} is unset counts as ready. v1 {@code Pod}s give their labels (nothing else of them
 * is kept) to kube Upstreams with a {@code selector} ({@link #selectedEndpoints}): an endpoint belongs to such an
 * Upstream only if its {@code targetRef} names a Pod of the directory carrying every selector label. Collects
 * documents one by one; not thread-safe.
 */
final class ClusterDocuments {

  private static final String DEFAULT_NAMESPACE = "default";
  private static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
  static final String TLS_TYPE = "kubernetes.io/tls";
  static final String OPAQUE_TYPE = "Opaque";

  private final List<JsonNode> services = new ArrayList<>();
  private final List<JsonNode> slices = new ArrayList<>();
  private final Map<ResourceKey, TlsSecretData> secrets = new TreeMap<>();
  private final Map<String, Map<String, String>> podLabels = new java.util.HashMap<>(); // "namespace/name"

  /** Takes the document if it is one of these kinds; false (untouched) otherwise. */
  boolean offer(JsonNode tree) {
    String apiVersion = tree.path("apiVersion").asString("");
    String kind = tree.path("kind").asString("");
    if (tree.path("metadata").path("name").asString("").isEmpty()) {
      return false;
    }
    if (apiVersion.equals("v1") && kind.equals("Service")) {
      services.add(tree);
      return true;
    }
    if (apiVersion.equals("v1") && kind.equals("Pod")) {
      Map<String, String> labels = new TreeMap<>();
      tree.path("metadata").path("labels").properties()
          .forEach(label -> labels.put(label.getKey(), label.getValue().asString("")));
      podLabels.put(namespace(tree) + "/" + tree.path("metadata").path("name").asString(), labels);
      return true;
    }
    if (apiVersion.equals("discovery.k8s.io/v1") && kind.equals("EndpointSlice")) {
      slices.add(tree);
      return true;
    }
    String type = tree.path("type").asString(OPAQUE_TYPE);
    if (apiVersion.equals("v1") && kind.equals("Secret") && (TLS_TYPE.equals(type) || OPAQUE_TYPE.equals(type))) {
      secrets.put(TlsSecretData.secretKey(namespace(tree), tree.path("metadata").path("name").asString()),
          secretData(tree));
      return true;
    }
    return false;
  }

  /** Every collected Service's TCP ports with their ready endpoints. */
  Map<ServiceRef, List<Endpoint>> serviceEndpoints() {
    Map<ServiceRef, List<Endpoint>> out = new TreeMap<>();
    for (JsonNode service : services) {
      String namespace = namespace(service);
      String name = service.path("metadata").path("name").asString();
      for (JsonNode port : service.path("spec").path("ports")) {
        if (port.path("port").isNumber() && isTcp(port)) {
          ServiceRef ref = new ServiceRef(namespace, name, port.path("port").asInt());
          out.put(ref, endpoints(ref, port.path("name").asString("")));
        }
      }
    }
    return out;
  }

  /**
   * The endpoints of each narrowed reference in {@code selections} whose Service (and TCP port) is among the
   * documents: only those whose Pod carries the selector's labels. A reference to a Service not in the directory
   * gets no entry, as in {@link #serviceEndpoints()}.
   */
  Map<ServiceRef, List<Endpoint>> selectedEndpoints(java.util.Collection<ServiceRef> selections) {
    Map<String, List<JsonNode>> byName = new java.util.HashMap<>();
    services.forEach(service -> byName.computeIfAbsent(namespace(service) + "/"
        + service.path("metadata").path("name").asString(), k -> new ArrayList<>()).add(service));
    Map<ServiceRef, List<Endpoint>> out = new TreeMap<>();
    for (ServiceRef ref : selections) {
      if (!ref.isNarrowed()) {
        continue;
      }
      for (JsonNode service : byName.getOrDefault(ref.namespace() + "/" + ref.name(), List.of())) {
        for (JsonNode port : service.path("spec").path("ports")) {
          if (port.path("port").isNumber() && isTcp(port) && port.path("port").asInt() == ref.port()) {
            out.put(ref, endpoints(ref, port.path("name").asString("")));
          }
        }
      }
    }
    return out;
  }

  Map<ResourceKey, TlsSecretData> secrets() {
    return secrets;
  }

  private List<Endpoint> endpoints(ServiceRef ref, String portName) {
    String namespace = ref.namespace();
    String service = ref.name();
    TreeSet<Endpoint> out = new TreeSet<>();
    for (JsonNode slice : slices) {
      if (!namespace(slice).equals(namespace)
          || !service.equals(slice.path("metadata").path("labels").path(SERVICE_NAME_LABEL).asString(""))
          || slice.path("addressType").asString("").equals("FQDN")) {
        continue;
      }
      Integer target = null;
      for (JsonNode port : slice.path("ports")) {
        if (port.path("port").isNumber() && isTcp(port) && port.path("name").asString("").equals(portName)) {
          target = port.path("port").asInt();
          break;
        }
      }
      if (target == null) {
        continue;
      }
      for (JsonNode endpoint : slice.path("endpoints")) {
        JsonNode ready = endpoint.path("conditions").path("ready");
        if (ready.isBoolean() && !ready.asBoolean() || ref.isNarrowed() && !selected(ref, endpoint, namespace)) {
          continue;
        }
        for (JsonNode address : endpoint.path("addresses")) {
          if (!address.asString("").isEmpty()) {
            out.add(new Endpoint(address.asString(), target));
          }
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * Whether the endpoint's Pod is in the directory and carries the selector's labels. An endpoint without a Pod
   * {@code targetRef} never is: narrowing must never take an endpoint it cannot check.
   */
  private boolean selected(ServiceRef ref, JsonNode endpoint, String sliceNamespace) {
    JsonNode target = endpoint.path("targetRef");
    if (!target.path("kind").asString("").equals("Pod") || target.path("name").asString("").isEmpty()) {
      return false;
    }
    String podNamespace = target.path("namespace").asString("");
    Map<String, String> labels = podLabels.get((podNamespace.isEmpty() ? sliceNamespace : podNamespace) + "/"
        + target.path("name").asString());
    return labels != null && ref.selects(labels);
  }

  /**
   * The Secret's entries as text: {@code data} base64-decoded, {@code stringData} merged over it as the API server
   * does on write. An entry that is not valid base64 is kept empty, so the front end reports the certificate as
   * invalid rather than missing.
   */
  private static TlsSecretData secretData(JsonNode secret) {
    Map<String, String> entries = new TreeMap<>();
    secret.path("data").properties().forEach(e -> entries.put(e.getKey(), decode(e.getValue().asString(""))));
    secret.path("stringData").properties().forEach(e -> entries.put(e.getKey(), e.getValue().asString("")));
    return new TlsSecretData(new TreeMap<>(entries));
  }

  private static String decode(String base64) {
    try {
      return new String(Base64.getMimeDecoder().decode(base64), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private static boolean isTcp(JsonNode port) {
    return port.path("protocol").asString("TCP").equals("TCP");
  }

  private static String namespace(JsonNode tree) {
    String namespace = tree.path("metadata").path("namespace").asString("");
    return namespace.isEmpty() ? DEFAULT_NAMESPACE : namespace;
  }
}
