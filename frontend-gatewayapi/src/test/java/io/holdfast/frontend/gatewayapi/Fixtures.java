package io.holdfast.frontend.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.SectionStatus;
import io.holdfast.ir.VirtualHost;
import io.holdfast.pki.TestCertificates;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Gateway API manifests and assertions shared by the front end's conformance-intent tests. */
final class Fixtures {

  static final String GROUP = GatewayApiFrontEnd.GROUP;

  /** Holdfast's GatewayClass {@code holdfast}. */
  static final String CLASS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: holdfast}
      spec:
        controllerName: holdfast.io/gateway-controller
      """;

  private Fixtures() {
  }

  static GatewayConfig config(Map<ServiceRef, List<Endpoint>> endpoints, String... yamls) {
    return TestManifests.config(endpoints, yamls);
  }

  static GatewayConfig config(String... yamls) {
    return TestManifests.config(Map.of(), yamls);
  }

  /** One ready endpoint for each Service port named {@code namespace/name:port}. */
  static Map<ServiceRef, List<Endpoint>> services(String... refs) {
    Map<ServiceRef, List<Endpoint>> endpoints = new TreeMap<>();
    int host = 10;
    for (String ref : refs) {
      String[] namespaceAndRest = ref.split("/");
      String[] nameAndPort = namespaceAndRest[1].split(":");
      endpoints.put(new ServiceRef(namespaceAndRest[0], nameAndPort[0], Integer.parseInt(nameAndPort[1])),
          List.of(new Endpoint("127.0.0." + host++, 8080)));
    }
    return endpoints;
  }

  /** {@code config} with a kubernetes.io/tls Secret holding a fresh certificate for {@code dnsName}. */
  static GatewayConfig withTlsSecret(GatewayConfig config, String namespace, String name, String dnsName) {
    TestCertificates.Issued ca = TestCertificates.ca("test ca");
    TestCertificates.Issued leaf = TestCertificates.leaf(ca, dnsName, dnsName);
    return config.toBuilder().secret(TlsSecretData.secretKey(namespace, name), new TlsSecretData(new TreeMap<>(
        Map.of(TlsSecretData.TLS_CRT, leaf.certificatePem(), TlsSecretData.TLS_KEY, leaf.privateKeyPem()))))
        .build();
  }

  static GatewayConfig withSecretData(GatewayConfig config, String namespace, String name, Map<String, String> data) {
    return config.toBuilder().secret(TlsSecretData.secretKey(namespace, name), new TlsSecretData(new TreeMap<>(data)))
        .build();
  }

  static IrBuilder.Result lower(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME).lower(config, builder);
    return builder.build();
  }

  static ResourceKey gatewayKey(String namespace, String name) {
    return new ResourceKey(GROUP, "Gateway", namespace, name);
  }

  static ResourceKey httpRouteKey(String namespace, String name) {
    return new ResourceKey(GROUP, "HTTPRoute", namespace, name);
  }

  static ResourceKey grpcRouteKey(String namespace, String name) {
    return new ResourceKey(GROUP, "GRPCRoute", namespace, name);
  }

  static ObjectStatus status(IrBuilder.Result result, ResourceKey key) {
    assertThat(result.statuses()).as("status of " + key).containsKey(key);
    return result.statuses().get(key);
  }

  static SectionStatus listenerStatus(IrBuilder.Result result, ResourceKey gateway, String listener) {
    return status(result, gateway).sections().stream().filter(s -> s.name().equals(listener)).findFirst()
        .orElseThrow(() -> new AssertionError("no status for listener " + listener + " of " + gateway));
  }

  static Condition condition(List<Condition> conditions, String type) {
    return conditions.stream().filter(c -> c.type().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no condition " + type + " in " + conditions));
  }

  /** The one parent entry of {@code route} for {@code gateway}. */
  static ParentStatus parent(IrBuilder.Result result, ResourceKey route, ResourceKey gateway) {
    List<ParentStatus> parents = status(result, route).parents().stream().filter(p -> p.parent().equals(gateway))
        .toList();
    assertThat(parents).as("parent entries of " + route + " for " + gateway).hasSize(1);
    return parents.get(0);
  }

  static void assertCondition(List<Condition> conditions, String type, Condition.Status status, String reason) {
    Condition condition = condition(conditions, type);
    assertThat(condition.status()).as(type + " of " + conditions).isEqualTo(status);
    assertThat(condition.reason()).as(type + " reason of " + conditions).isEqualTo(reason);
  }

  static Listener.Socket socket(IrBuilder.Result result, ResourceKey gateway, int port) {
    return result.ir().listeners().stream()
        .filter(l -> l instanceof Listener.Socket s && s.origin().object().equals(gateway) && s.port() == port)
        .map(Listener.Socket.class::cast).findFirst()
        .orElseThrow(() -> new AssertionError("no socket listener of " + gateway + " on port " + port + " in "
            + result.ir().listeners()));
  }

  /** The virtual host serving {@code domain} on {@code gateway}'s {@code port}. */
  static VirtualHost host(IrBuilder.Result result, ResourceKey gateway, int port, String domain) {
    return socket(result, gateway, port).virtualHosts().stream().filter(h -> h.domains().contains(domain))
        .findFirst().orElseThrow(() -> new AssertionError("no virtual host for " + domain + " on " + gateway
            + ":" + port + " in " + socket(result, gateway, port).virtualHosts()));
  }

  /** A Gateway of class holdfast with the given listeners YAML (indented as list items under listeners). */
  static String gateway(String namespace, String name, String listeners) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: %s, namespace: %s}
        spec:
          gatewayClassName: holdfast
          listeners:
        %s""".formatted(name, namespace, listeners.indent(4));
  }

  /** An HTTPRoute with parentRefs and hostnames (flow YAML) and one rule forwarding to {@code backend}:port. */
  static String httpRoute(String namespace, String name, String parentRefs, String hostnames, String backendRefs) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: %s, namespace: %s}
        spec:
          parentRefs: %s
          hostnames: %s
          rules:
            - backendRefs: %s
        """.formatted(name, namespace, parentRefs, hostnames, backendRefs);
  }
}
