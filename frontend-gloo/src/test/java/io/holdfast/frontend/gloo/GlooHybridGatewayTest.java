package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Reasons;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pki.TestCertificates;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Gloo's hybridGateway with matchers: each matched gateway is its own filter chain set on the one listener,
 * selected by the matcher's client networks (and, on TCP, its sslConfig's SNI names), as Gloo's hybrid translator
 * builds it; what Holdfast cannot serve the same way rejects the Gateway naming the matcher.
 */
class GlooHybridGatewayTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("gloo hybrid CA");
  private static final TestCertificates.Issued CERT = TestCertificates.leaf(CA, "api", "api.example.test");

  private static final String UPSTREAM_AND_SERVICES = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: app, namespace: gloo-system}
      spec:
        static: {hosts: [{addr: 192.0.2.40, port: 8080}]}
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: partners, namespace: gloo-system}
      spec:
        virtualHost:
          domains: [api.example.test]
          routes:
          - matchers: [{prefix: /}]
            routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
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
      """;

  /** The start of the partners VirtualService's spec, after which a test adds its sslConfig. */
  private static final String DOMAINS = "metadata: {name: partners, namespace: gloo-system}\nspec:\n";

  private static final String HYBRID = """
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gw, namespace: gloo-system}
      spec:
        bindAddress: 0.0.0.0
        bindPort: 8080
        hybridGateway:
          matchedGateways:
      """;

  private static IrBuilder.Result build(GatewayConfig config) {
    return GlooFixtures.build(config);
  }

  private static ObjectStatus gateway(IrBuilder.Result result) {
    return GlooFixtures.gateway(result, "gloo-system", "gw");
  }

  private static List<String> errors(String yaml) {
    ObjectStatus status = gateway(build(GlooFixtures.load(yaml)));
    assertThat(status.isAccepted()).as("%s", status.findings()).isFalse();
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR)
        .map(f -> f.field() + " " + f.reason()).toList();
  }

  private static Listener.Socket socket(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .map(l -> (Listener.Socket) l).filter(s -> s.port() == 8080).findFirst().orElseThrow();
  }

  @Test
  void twoHttpGatewaysSplitByClientNetworkAreTwoChainsOnOneListener() {
    IrBuilder.Result result = build(GlooFixtures.load(UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher:
                sourcePrefixRanges:
                - {addressPrefix: 198.51.100.9, prefixLen: 24}
              httpGateway:
                virtualServices: [{name: partners, namespace: gloo-system}]
            - matcher: {}
              httpGateway:
                virtualServices: [{name: client-ip-reject, namespace: gloo-system}]
        """));
    assertThat(gateway(result).isAccepted()).as("%s", gateway(result).findings()).isTrue();
    Listener.Socket socket = socket(result);
    assertThat(socket.origin().object()).isEqualTo(GlooFixtures.gateway(result, "gloo-system", "gw").key());
    assertThat(socket.filterChains()).extracting(c -> c.match().sourcePrefixRanges()).containsExactly(
        List.of(new Listener.SourceRange("198.51.100.0", 24)), List.of());
    // The partners reach only the partner routes, everyone else only the 403, whatever the path: Gloo picks the
    // matched gateway by the connection, not by the routes.
    assertThat(socket.filterChains()).extracting(c -> ((Listener.FilterChain.Http) c).virtualHosts().get(0).domains())
        .containsExactly(List.of("api.example.test"), List.of("*"));
  }

  @Test
  void matchedHttpGatewaysSelectingTheSameVirtualServicesServeThemOnEachChain() {
    // Gloo's Helm hybrid values: every matched httpGateway selects every (non-ssl) VirtualService.
    IrBuilder.Result result = build(GlooFixtures.load(UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher: {sourcePrefixRanges: [{addressPrefix: 0.0.0.0, prefixLen: 1}]}
              httpGateway: {options: {healthCheck: {path: /healthz}}}
            - matcher: {}
              httpGateway: {}
        """));
    assertThat(gateway(result).isAccepted()).as("%s", gateway(result).findings()).isTrue();
    List<Listener.FilterChain> chains = socket(result).filterChains();
    assertThat(chains).hasSize(2).allSatisfy(c -> assertThat(((Listener.FilterChain.Http) c).virtualHosts())
        .extracting(h -> h.domains().get(0)).containsExactlyInAnyOrder("api.example.test", "*"));
    // Each part keeps its own httpGateway options.
    assertThat(((Listener.FilterChain.Http) chains.get(0)).options().healthCheckPath()).contains("/healthz");
    assertThat(((Listener.FilterChain.Http) chains.get(1)).options().healthCheckPath()).isEmpty();
  }

  @Test
  void tcpAndHttpMatchedGatewaysShareTheListener() {
    IrBuilder.Result result = build(GlooFixtures.load(UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher: {sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]}
              tcpGateway:
                tcpHosts:
                - name: partners-tcp
                  destination: {single: {upstream: {name: app, namespace: gloo-system}}}
            - httpGateway: {}
        """));
    assertThat(gateway(result).isAccepted()).as("%s", gateway(result).findings()).isTrue();
    List<Listener.FilterChain> chains = socket(result).filterChains();
    assertThat(chains).extracting(c -> c.getClass().getSimpleName() + " " + c.name() + " "
        + c.match().sourcePrefixRanges()).containsExactly("Http gloo-system/gw-matched-0/http []",
            "Tcp gloo-system/gw/partners-tcp [198.51.100.0/24]");
  }

  @Test
  void anSslConfigMatcherServesTheVirtualServicesTlsOnlyToItsClients() {
    String yaml = UPSTREAM_AND_SERVICES.replace(DOMAINS, DOMAINS + "  sslConfig:\n"
        + "    secretRef: {name: api-tls, namespace: gloo-system}\n    sniDomains: [api.example.test]\n") + HYBRID + """
            - matcher:
                sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]
                sslConfig:
                  secretRef: {name: api-tls, namespace: gloo-system}
              httpGateway: {}
            - matcher: {}
              httpGateway: {}
        """;
    GatewayConfig config = GlooFixtures.load(yaml).toBuilder()
        .secret(TlsSecretData.secretKey("gloo-system", "api-tls"), new TlsSecretData(new TreeMap<>(Map.of(
            TlsSecretData.TLS_CRT, CERT.certificatePem() + CA.certificatePem(),
            TlsSecretData.TLS_KEY, CERT.privateKeyPem(),
            TlsSecretData.CA_CRT, CA.certificatePem()))))
        .build();
    IrBuilder.Result result = build(config);
    ObjectStatus partners = GlooFixtures.virtualService(result, "gloo-system", "partners");
    assertThat(partners.isAccepted()).as("%s", partners.findings()).isTrue();
    assertThat(gateway(result).isAccepted()).as("%s", gateway(result).findings()).isTrue();
    Listener.Socket socket = socket(result);
    Listener.FilterChain tls = socket.filterChains().get(0);
    assertThat(tls.match()).isEqualTo(new Listener.ChainMatch(List.of("api.example.test"),
        List.of(new Listener.SourceRange("198.51.100.0", 24))));
    // ca.crt in the Secret: client certificates required (no oneWayTls), as for a VirtualService's sslConfig.
    assertThat(tls.tls()).hasValueSatisfying(t -> assertThat(t.clientCa()).isPresent());
    // The plain part serves only the VirtualServices without sslConfig (Gloo's ssl rule, per matched gateway).
    assertThat(socket.filterChains().get(1).tls()).isEmpty();
    assertThat(((Listener.FilterChain.Http) socket.filterChains().get(1)).virtualHosts()).extracting(h -> h.domains())
        .containsExactly(List.of("*"));
  }

  @Test
  void aMatcherSslDefaultAVirtualServiceLacksIsRefusedNamingTheField() {
    String yaml = UPSTREAM_AND_SERVICES.replace(DOMAINS, DOMAINS + "  sslConfig:\n"
        + "    secretRef: {name: api-tls, namespace: gloo-system}\n") + HYBRID + """
            - matcher:
                sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]
                sslConfig: {sniDomains: [api.example.test]}
              httpGateway: {}
            - httpGateway: {}
        """;
    assertThat(errors(yaml)).containsExactly("spec.hybridGateway.matchedGateways[0].matcher.sslConfig.sniDomains "
        + GlooFeatures.UNSUPPORTED);
  }

  @Test
  void conflictingMatchersAreRejectedWithNamedReasons() {
    String sameMatcher = UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher: {sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]}
              httpGateway: {virtualServices: [{name: partners}]}
            - matcher: {sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]}
              httpGateway: {virtualServices: [{name: client-ip-reject}]}
        """;
    assertThat(errors(sameMatcher)).containsExactly("spec.hybridGateway.matchedGateways[1].matcher "
        + Reasons.CONFLICTING_FIELDS);
    String both = UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher: {sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]}
              httpGateway: {}
              tcpGateway: {tcpHosts: [{name: x, destination: {single: {upstream: {name: app}}}}]}
            - httpGateway: {}
        """;
    assertThat(errors(both)).containsExactly("spec.hybridGateway.matchedGateways[0] " + Reasons.CONFLICTING_FIELDS);
    // Told apart by sslConfig only: Holdfast splits matched httpGateways by client network.
    String sameRanges = UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher: {sslConfig: {}}
              httpGateway: {}
            - httpGateway: {}
        """;
    assertThat(errors(sameRanges)).containsExactly("spec.hybridGateway.matchedGateways[1].matcher "
        + GlooFeatures.UNSUPPORTED);
    // Another Gloo Gateway already on the port: the hybrid's parts lose it, on the hybrid's own status.
    String taken = UPSTREAM_AND_SERVICES + """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: older, namespace: gloo-system, creationTimestamp: "2020-01-01T00:00:00Z"}
        spec: {bindAddress: 0.0.0.0, bindPort: 8080, httpGateway: {}}
        ---
        """ + HYBRID.replace("name: gw,", "name: gw, creationTimestamp: \"2021-01-01T00:00:00Z\",") + """
            - matcher: {sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]}
              httpGateway: {}
            - httpGateway: {}
        """;
    assertThat(errors(taken)).isNotEmpty().allSatisfy(e -> assertThat(e).endsWith(Reasons.DUPLICATE_LISTENER));
  }

  @Test
  void manyMatchedGatewaysAreBounded() {
    StringBuilder many = new StringBuilder(UPSTREAM_AND_SERVICES + HYBRID);
    for (int i = 0; i <= GatewayReader.MAX_MATCHED_GATEWAYS; i++) {
      many.append("      - matcher: {sourcePrefixRanges: [{addressPrefix: '2001:db8:").append(Integer.toHexString(i))
          .append("::', prefixLen: 48}]}\n        httpGateway: {}\n");
    }
    assertThat(errors(many.toString())).containsExactly("spec.hybridGateway.matchedGateways "
        + GatewayReader.TOO_MANY_MATCHED_GATEWAYS);
  }

  @Test
  void aTcpMatchersSniDomainsSelectItsHostsThatNameNone() {
    String tcp = UPSTREAM_AND_SERVICES + HYBRID + """
            - matcher:
                sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]
                sslConfig: {sniDomains: [db.example.test, replica.example.test]}
              tcpGateway:
                tcpHosts:
                - name: any
                  destination: {single: {upstream: {name: app, namespace: gloo-system}}}
                - name: replica
                  sslConfig: {sniDomains: [replica.example.test]}
                  destination: {single: {upstream: {name: app, namespace: gloo-system}}}
            - tcpGateway:
                tcpHosts:
                - name: rest
                  destination: {single: {upstream: {name: app, namespace: gloo-system}}}
        """;
    GlooReading reading = GlooReading.of(GlooFixtures.load(tcp));
    assertThat(reading.rejected()).isEmpty();
    assertThat(reading.holdfastConfig().tcpGateways().get(0).hosts())
        .extracting(h -> h.name() + " " + h.sniDomains() + " " + h.sourcePrefixRanges()).containsExactly(
            "any [db.example.test, replica.example.test] [198.51.100.0/24]",
            "replica [replica.example.test] [198.51.100.0/24]", "rest [] []");
    // Gloo: "gateway has conflicting sni domains" for a host naming what its matcher does not.
    assertThat(errors(tcp.replace("sniDomains: [replica.example.test]", "sniDomains: [other.example.test]")))
        .containsExactly("spec.hybridGateway.matchedGateways[0].matcher.sslConfig.sniDomains "
            + Reasons.CONFLICTING_FIELDS);
  }
}
