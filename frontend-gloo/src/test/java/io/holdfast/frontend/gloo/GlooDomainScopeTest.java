package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pki.TestCertificates;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Gloo serves a VirtualService with an sslConfig only on ssl Gateways and the others only elsewhere, so the
 * canonical HTTP-to-HTTPS pair (one domain, a redirecting VirtualService and a secure one) never meets in one
 * route configuration: both are served.
 */
class GlooDomainScopeTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("gloo domain scope CA");
  private static final TestCertificates.Issued CERT = TestCertificates.leaf(CA, "example", "example.com");

  /** The lead's reproduction (Gloo's "HTTPS redirect" guide). */
  private static final String REDIRECT_PATTERN = """
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: http, namespace: gloo-system}
      spec:
        bindPort: 8080
        httpGateway: {}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: https, namespace: gloo-system}
      spec:
        bindPort: 8443
        ssl: true
        httpGateway: {}
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: redirect, namespace: gloo-system, creationTimestamp: "2026-01-01T00:00:00Z"}
      spec:
        virtualHost:
          domains: [example.com]
          routes:
          - matchers: [{prefix: /}]
            redirectAction: {hostRedirect: example.com, httpsRedirect: true}
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: secure, namespace: gloo-system, creationTimestamp: "2026-01-02T00:00:00Z"}
      spec:
        sslConfig:
          secretRef: {name: tls, namespace: gloo-system}
        virtualHost:
          domains: [example.com]
          routes:
          - matchers: [{prefix: /}]
            directResponseAction: {status: 200, body: ok}
      """;

  private static GatewayConfig withCertificate(GatewayConfig config) {
    return config.toBuilder().secret(TlsSecretData.secretKey("gloo-system", "tls"), new TlsSecretData(
        new TreeMap<>(Map.of(TlsSecretData.TLS_CRT, CERT.certificatePem() + CA.certificatePem(),
            TlsSecretData.TLS_KEY, CERT.privateKeyPem())))).build();
  }

  private static void assertServedWithoutErrors(IrBuilder.Result result, String name) {
    ObjectStatus status = GlooFixtures.virtualService(result, "gloo-system", name);
    assertThat(status.isAccepted()).as("%s", status.findings()).isTrue();
    assertThat(status.findings()).as("%s", name).noneMatch(f -> f.severity() == Finding.Severity.ERROR)
        .noneMatch(f -> f.reason().equals("DuplicateDomain") && !f.message().contains("gRPC clients"));
  }

  @Test
  void theRedirectAndTheSecureVirtualServiceAreEachServedOnTheirGateway() throws InvalidProtocolBufferException {
    IrBuilder.Result result = GlooFixtures.build(withCertificate(GlooFixtures.load(REDIRECT_PATTERN)));
    assertServedWithoutErrors(result, "redirect");
    assertServedWithoutErrors(result, "secure");
    Translation translation = new Translator().translate(result.ir());
    EnvoyConstraints.assertValid(translation.snapshot());
    Map<String, ?> listeners = translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL);
    Map<String, ?> routes = translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL);
    Map<Integer, VirtualHost> byPort = new TreeMap<>();
    for (Object resource : listeners.values()) {
      Listener listener = (Listener) resource;
      if (!listener.hasAddress()) {
        continue; // a gRPC client listener
      }
      FilterChain chain = listener.getFilterChainsList().stream().filter(c -> c.getFiltersCount() > 0)
          .findFirst().orElseThrow();
      HttpConnectionManager hcm = chain.getFilters(0).getTypedConfig().unpack(HttpConnectionManager.class);
      RouteConfiguration config = (RouteConfiguration) routes.get(hcm.getRds().getRouteConfigName());
      assertThat(config.getVirtualHostsList()).as("%s", listener.getName()).hasSize(1);
      byPort.put(listener.getAddress().getSocketAddress().getPortValue(), config.getVirtualHosts(0));
    }
    assertThat(byPort).containsOnlyKeys(8080, 8443);
    assertThat(byPort.get(8080).getDomainsList()).contains("example.com");
    assertThat(byPort.get(8080).getRoutes(0).getRedirect().getHttpsRedirect()).isTrue();
    assertThat(byPort.get(8443).getDomainsList()).contains("example.com");
    assertThat(byPort.get(8443).getRoutes(0).getDirectResponse().getStatus()).isEqualTo(200);
  }

  @Test
  void aHoldfastVirtualServiceOfTheSameDomainOnItsOwnGatewayIsServedAndLeavesGrpcClientsToTheOlder() {
    IrBuilder.Result result = GlooFixtures.build(withCertificate(GlooFixtures.load(REDIRECT_PATTERN + """
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: native, namespace: gloo-system, creationTimestamp: "2026-01-03T00:00:00Z"}
        spec:
          domains: [example.com]
          routes: [{match: {prefix: /}, directResponse: {status: 204}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: native, namespace: gloo-system}
        spec: {port: 9090, virtualServices: [{name: native}]}
        """)));
    assertServedWithoutErrors(result, "redirect");
    ObjectStatus natively = result.statuses().get(io.holdfast.api.ResourceKey.virtualService("gloo-system",
        "native"));
    assertThat(natively.isAccepted()).as("%s", natively.findings()).isTrue();
    assertThat(natively.findings()).anySatisfy(f -> {
      assertThat(f.reason()).isEqualTo("DuplicateDomain");
      assertThat(f.severity()).isEqualTo(Finding.Severity.WARNING);
      assertThat(f.message()).contains("xds:///example.com").contains("gloo-system/redirect");
    });
    assertThat(result.ir().listeners()).filteredOn(l -> l instanceof io.holdfast.ir.Listener.ClientApi)
        .singleElement().satisfies(l -> assertThat(l.origin().object().name()).isEqualTo("redirect"));
    assertThat(result.ir().listeners()).filteredOn(l -> l instanceof io.holdfast.ir.Listener.Socket)
        .extracting(l -> l.origin().object().name()).containsExactlyInAnyOrder("http", "https", "native");
  }

  @Test
  void bothOnOnePlainGatewayStillConflict() {
    // Without the sslConfig, both are plain VirtualServices on the plain Gateway: one route configuration.
    String plain = REDIRECT_PATTERN.replace("""
          sslConfig:
            secretRef: {name: tls, namespace: gloo-system}
        """, "");
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(plain));
    assertServedWithoutErrors(result, "redirect");
    ObjectStatus secure = GlooFixtures.virtualService(result, "gloo-system", "secure");
    assertThat(secure.isAccepted()).isFalse();
    assertThat(secure.findings()).extracting(Finding::reason).contains("DuplicateDomain");
  }

  @Test
  void hybridGuideTwoCatchAllVirtualServicesOnePerClientNetwork() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load("""
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: partners, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /}]
              directResponseAction: {status: 200, body: partners}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: client-ip-reject, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /}]
              directResponseAction: {status: 403, body: "client ip forbidden"}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          hybridGateway:
            matchedGateways:
            - matcher:
                sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]
              httpGateway:
                virtualServices: [{name: partners, namespace: gloo-system}]
            - matcher: {}
              httpGateway:
                virtualServices: [{name: client-ip-reject, namespace: gloo-system}]
        """));
    assertServedWithoutErrors(result, "partners");
    assertServedWithoutErrors(result, "client-ip-reject");
    io.holdfast.ir.Listener.Socket socket = result.ir().listeners().stream()
        .filter(l -> l instanceof io.holdfast.ir.Listener.Socket).map(l -> (io.holdfast.ir.Listener.Socket) l)
        .findFirst().orElseThrow();
    assertThat(socket.filterChains()).extracting(c -> ((io.holdfast.ir.Listener.FilterChain.Http) c).virtualHosts()
        .stream().map(h -> h.origin().object().name() + " " + h.domains()).toList())
        .containsExactly(List.of("partners [*]"), List.of("client-ip-reject [*]"));
  }
}
