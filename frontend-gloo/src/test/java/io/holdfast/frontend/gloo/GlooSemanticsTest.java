package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.UpstreamTls;
import io.holdfast.ir.VirtualHost;
import io.holdfast.pki.TestCertificates;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Gloo's semantics, each where Holdfast's kinds behave otherwise (issue 27's silent changes). */
class GlooSemanticsTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("gloo semantics CA");
  private static final TestCertificates.Issued LEAF = TestCertificates.leaf(CA, "web", "web.example.test");

  private static final String UPSTREAM = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: web, namespace: gloo-system}
      spec:
        static: {hosts: [{addr: 192.0.2.50, port: 8080}]}
      ---
      """;

  private static String vs(String namespace, String name, String extra) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: %s, labels: {team: %s}}
        spec:
          %s
          virtualHost:
            domains: [%s.example.test]
            routes:
            - routeAction: {single: {upstream: {name: web, namespace: gloo-system}}}
        ---
        """.formatted(name, namespace, name, extra, name);
  }

  private static String gateway(String name, int port, String extra) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: %s, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: %d
          %s
        ---
        """.formatted(name, port, extra);
  }

  private static final String SSL = "sslConfig: {secretRef: {name: web-tls, namespace: gloo-system}, "
      + "sniDomains: [web.example.test]}";

  private static GatewayConfig withSecret(GatewayConfig config, boolean withCa) {
    Map<String, String> data = new TreeMap<>(Map.of(TlsSecretData.TLS_CRT, LEAF.certificatePem() + CA.certificatePem(),
        TlsSecretData.TLS_KEY, LEAF.privateKeyPem()));
    if (withCa) {
      data.put(TlsSecretData.CA_CRT, CA.certificatePem());
    }
    return GlooFixtures.withSecret(config, "gloo-system", "web-tls", data);
  }

  private static Listener.Socket socket(IrBuilder.Result result, String gateway) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .map(l -> (Listener.Socket) l).filter(s -> s.origin().object().name().equals(gateway)).findFirst()
        .orElseThrow(() -> new AssertionError("no listener for " + gateway + ": " + result.statuses()));
  }

  private static List<String> hosts(Listener.Socket socket) {
    return socket.virtualHosts().stream().map(h -> h.origin().object().name()).sorted().toList();
  }

  @Test
  void sslVirtualServicesOnlyOnSslGatewaysAndTheOthersOnlyElsewhere() {
    IrBuilder.Result result = GlooFixtures.build(withSecret(GlooFixtures.load(UPSTREAM + vs("gloo-system", "web", SSL)
        + vs("gloo-system", "plain", "") + gateway("http", 8080, "httpGateway: {}")
        + gateway("https", 8443, "ssl: true\n  httpGateway: {}")), false));
    assertThat(hosts(socket(result, "http"))).containsExactly("plain");
    assertThat(hosts(socket(result, "https"))).containsExactly("web");
  }

  @Test
  void gatewaysSelectVirtualServicesOfEveryNamespaceUnlessNarrowed() {
    String objects = UPSTREAM + vs("team-a", "a", "") + vs("team-b", "b", "") + vs("gloo-system", "c", "");
    IrBuilder.Result all = GlooFixtures.build(GlooFixtures.load(objects + gateway("http", 8080, "httpGateway: {}")));
    assertThat(hosts(socket(all, "http"))).containsExactly("a", "b", "c");

    IrBuilder.Result narrowed = GlooFixtures.build(GlooFixtures.load(objects + gateway("http", 8080,
        "httpGateway: {virtualServiceNamespaces: [team-b]}")));
    assertThat(hosts(socket(narrowed, "http"))).containsExactly("b");

    IrBuilder.Result byLabel = GlooFixtures.build(GlooFixtures.load(objects + gateway("http", 8080,
        "httpGateway: {virtualServiceSelector: {team: a}}")));
    assertThat(hosts(socket(byLabel, "http"))).containsExactly("a");

    IrBuilder.Result named = GlooFixtures.build(GlooFixtures.load(objects + gateway("http", 8080,
        "httpGateway: {virtualServices: [{name: c}, {name: b, namespace: team-b}]}")));
    assertThat(hosts(socket(named, "http"))).containsExactly("b", "c");
  }

  @Test
  void caCrtInTheSecretRequiresClientCertificatesUnlessOneWayTls() {
    String https = gateway("https", 8443, "ssl: true\n  httpGateway: {}");
    IrBuilder.Result mutual = GlooFixtures.build(withSecret(GlooFixtures.load(UPSTREAM + vs("gloo-system", "web", SSL)
        + https), true));
    assertThat(socket(mutual, "https").filterChains()).singleElement().satisfies(chain ->
        assertThat(((Listener.FilterChain.Http) chain).tls().orElseThrow().clientCa()).isPresent());

    String oneWaySsl = "sslConfig: {secretRef: {name: web-tls, namespace: gloo-system}, "
        + "sniDomains: [web.example.test], oneWayTls: true}";
    IrBuilder.Result oneWay = GlooFixtures.build(withSecret(GlooFixtures.load(UPSTREAM + vs("gloo-system", "web",
        oneWaySsl) + https), true));
    assertThat(socket(oneWay, "https").filterChains()).singleElement().satisfies(chain ->
        assertThat(((Listener.FilterChain.Http) chain).tls().orElseThrow().clientCa()).isEmpty());

    IrBuilder.Result noCa = GlooFixtures.build(withSecret(GlooFixtures.load(UPSTREAM + vs("gloo-system", "web", SSL)
        + https), false));
    assertThat(socket(noCa, "https").filterChains()).singleElement().satisfies(chain ->
        assertThat(((Listener.FilterChain.Http) chain).tls().orElseThrow().clientCa()).isEmpty());
  }

  private static Cluster cluster(String upstreamYaml, String name) {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(upstreamYaml));
    assertThat(GlooFixtures.upstream(result, "gloo-system", name).isAccepted()).as("%s", result.statuses()).isTrue();
    return result.ir().clusters().stream().filter(c -> c.origin().object().name().equals(name)).findFirst()
        .orElseThrow();
  }

  private static String staticUpstream(String name, int port, String extra) {
    return """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: %s, namespace: gloo-system}
        spec:
          static:
            hosts: [{addr: api.example.test, port: %d}]
            %s
        """.formatted(name, port, extra);
  }

  @Test
  void staticUpstreamsOnPort443SpeakTlsWithoutVerificationUnlessUseTlsSaysOtherwise() {
    UpstreamTls tls = cluster(staticUpstream("api", 443, ""), "api").tls().orElseThrow();
    assertThat(tls.verify()).isEqualTo(UpstreamTls.Verify.NONE);
    assertThat(tls.sni()).contains("api.example.test");
    assertThat(cluster(staticUpstream("api", 443, "useTls: false"), "api").tls()).isEmpty();
    assertThat(cluster(staticUpstream("api", 8080, ""), "api").tls()).isEmpty();
    assertThat(cluster(staticUpstream("api", 8443, "useTls: true"), "api").tls().orElseThrow().verify())
        .isEqualTo(UpstreamTls.Verify.NONE);
  }

  @Test
  void upstreamCertificatesAreVerifiedOnlyAgainstARootCa() {
    String upstream = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: api, namespace: gloo-system}
        spec:
          kube: {serviceName: api, serviceNamespace: gloo-system, servicePort: 443}
          sslConfig:
            secretRef: {name: api-tls, namespace: gloo-system}
        """;
    Map<String, String> withCa = Map.of(TlsSecretData.TLS_CRT, LEAF.certificatePem(), TlsSecretData.TLS_KEY,
        LEAF.privateKeyPem(), TlsSecretData.CA_CRT, CA.certificatePem());
    IrBuilder.Result verified = GlooFixtures.build(GlooFixtures.withSecret(GlooFixtures.load(upstream),
        "gloo-system", "api-tls", withCa));
    assertThat(verified.ir().clusters().get(0).tls().orElseThrow().verify()).as("%s", verified.statuses())
        .isEqualTo(UpstreamTls.Verify.TRUSTED_CA);
    IrBuilder.Result unverified = GlooFixtures.build(GlooFixtures.withSecret(GlooFixtures.load(upstream),
        "gloo-system", "api-tls", Map.of(TlsSecretData.TLS_CRT, LEAF.certificatePem(), TlsSecretData.TLS_KEY,
            LEAF.privateKeyPem())));
    UpstreamTls tls = unverified.ir().clusters().get(0).tls().orElseThrow();
    assertThat(tls.verify()).isEqualTo(UpstreamTls.Verify.NONE);
    assertThat(tls.clientCertificate()).as("tls.crt and tls.key are the client certificate").isPresent();
  }

  @Test
  void defaultDomainIsEverythingAndDefaultMatcherIsPrefixSlash() {
    String plain = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: any, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - routeAction: {single: {upstream: {name: web}}}
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAM + plain
        + gateway("http", 8080, "httpGateway: {}")));
    VirtualHost host = socket(result, "http").virtualHosts().get(0);
    assertThat(host.domains()).containsExactly("*");
    assertThat(host.routes()).singleElement().satisfies(route ->
        assertThat(route.match().path()).isEqualTo(new RouteMatch.PathMatch.Prefix("/")));
  }

  @Test
  void proxyNamesBindGatewaysToProxiesWithGatewayProxyByDefault() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAM + vs("gloo-system", "a", "")
        + gateway("default-proxy", 8080, "httpGateway: {}")
        + gateway("edge", 9090, "httpGateway: {}\n  proxyNames: [edge-a, edge-b]")));
    assertThat(socket(result, "default-proxy").proxyNames()).containsExactly("gateway-proxy");
    assertThat(socket(result, "edge").proxyNames()).containsExactly("edge-a", "edge-b");
  }

  @Test
  void anIpv6BindAddressIsServedWithAWarningSinceHoldfastDoesNotAddIpv4() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAM + vs("gloo-system", "a", "")
        + gateway("v6", 8080, "httpGateway: {}") + """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: v4, namespace: gloo-system}
        spec: {bindAddress: 0.0.0.0, bindPort: 9090, httpGateway: {}}
        """));
    io.holdfast.ir.ObjectStatus v6 = GlooFixtures.gateway(result, "gloo-system", "v6");
    assertThat(v6.isAccepted()).isTrue();
    assertThat(v6.findings()).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo("Ipv6OnlyListener");
      assertThat(f.field()).isEqualTo("spec.bindAddress");
    });
    assertThat(GlooFixtures.gateway(result, "gloo-system", "v4").findings()).isEmpty();
  }
}
