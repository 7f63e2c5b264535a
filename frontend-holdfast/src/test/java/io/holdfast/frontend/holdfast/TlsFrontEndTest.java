package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Secret;
import io.holdfast.pki.TestCertificates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** HTTPS gateways: validation of sslConfig and its material, SNI claims, last-good certificates, lowering. */
class TlsFrontEndTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("front end test CA");
  private static final TestCertificates.Issued A = TestCertificates.leaf(CA, "a", "a.test");
  private static final TestCertificates.Issued B = TestCertificates.leaf(CA, "b", "b.test");
  private static final TestCertificates.Issued FALLBACK = TestCertificates.leaf(CA, "fallback", "fallback.test");
  private static final ResourceKey VS_A = ResourceKey.virtualService("default", "a");
  private static final ResourceKey VS_B = ResourceKey.virtualService("default", "b");
  private static final ResourceKey HTTPS = ResourceKey.gateway("default", "https");

  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC));

  static String vs(String name, String domain, String ssl, String created) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, creationTimestamp: "%s"}
        spec:
          domains: [%s]
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """.formatted(name, created, domain) + ssl.indent(2);
  }

  static String secretSsl(String secret) {
    return "sslConfig: {secretRef: {name: " + secret + "}}";
  }

  static final String HTTPS_GATEWAY = """
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: https}
      spec: {port: 8443, ssl: true}
      """;

  static final String PLAIN_GATEWAY = """
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: http}
      spec: {port: 8080}
      """;

  static TlsSecretData tls(TestCertificates.Issued leaf, String keyPem) {
    return new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.TLS_CRT, leaf.certificatePem() + CA.certificatePem(),
        TlsSecretData.TLS_KEY, keyPem)));
  }

  static TlsSecretData tls(TestCertificates.Issued leaf) {
    return tls(leaf, leaf.privateKeyPem());
  }

  private record Built(IrBuilder.Result result) {
    ResourceStatus status(ResourceKey key) {
      return ResourceStatus.of(result.statuses().get(key));
    }

    Listener.Socket socket(ResourceKey gateway) {
      return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
          .map(l -> (Listener.Socket) l).filter(s -> s.origin().object().equals(gateway)).findFirst().orElseThrow();
    }

    Secret secret(String name) {
      return result.ir().secrets().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }
  }

  /** The documents plus the upstream every route forwards to. */
  static GatewayConfig config(String... yamls) {
    String[] all = java.util.Arrays.copyOf(yamls, yamls.length + 1);
    all[yamls.length] = io.holdfast.api.TestManifests.upstream("up", 9101);
    return io.holdfast.api.TestManifests.config(all);
  }

  private Built lower(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(config, builder);
    return new Built(builder.build());
  }

  private static GatewayConfig withSecrets(GatewayConfig config, Map<String, TlsSecretData> secrets) {
    GatewayConfig.Builder b = config.toBuilder();
    secrets.forEach((name, data) -> b.secret(TlsSecretData.secretKey("default", name), data));
    return b.build();
  }

  private static GatewayConfig twoCertificatesAndADefault() {
    return withSecrets(config(
        vs("a", "a.test", secretSsl("a-tls"), "2026-01-01T00:00:00Z"),
        vs("b", "b.test", "sslConfig: {secretRef: {name: b-tls}, minTlsVersion: TLSv1_3,"
            + " clientCa: {secretRef: {name: clients}}}", "2026-01-01T00:00:01Z"),
        vs("fallback", "\"*\"", secretSsl("fallback-tls"), "2026-01-01T00:00:02Z"),
        HTTPS_GATEWAY), Map.of("a-tls", tls(A), "b-tls", tls(B), "fallback-tls", tls(FALLBACK),
        "clients", new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.CA_CRT, CA.certificatePem())))));
  }

  @Test
  void oneChainPerCertificateSelectedByServerNameWithADefault() {
    Built built = lower(twoCertificatesAndADefault());

    assertThat(built.result().statuses().values()).allSatisfy(s -> assertThat(s.isAccepted()).isTrue());
    Listener.Socket socket = built.socket(HTTPS);
    assertThat(socket.inspectsTls()).isTrue();
    assertThat(socket.filterChains()).extracting(Listener.FilterChain::name, c -> c.match().serverNames())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("default/a", List.of("a.test")),
            org.assertj.core.groups.Tuple.tuple("default/b", List.of("b.test")),
            org.assertj.core.groups.Tuple.tuple("default/fallback", List.of()));
    assertThat(socket.filterChains().get(0).tls()).contains(new Listener.DownstreamTls("secret/default/a-tls",
        Listener.TlsVersion.TLS_1_2, Optional.empty(), List.of("h2", "http/1.1")));
    assertThat(socket.filterChains().get(1).tls()).contains(new Listener.DownstreamTls("secret/default/b-tls",
        Listener.TlsVersion.TLS_1_3, Optional.of("ca/secret/default/clients"), List.of("h2", "http/1.1")));
    assertThat(built.result().ir().secrets()).extracting(Secret::name).containsExactly(
        "ca/secret/default/clients", "secret/default/a-tls", "secret/default/b-tls", "secret/default/fallback-tls");
    assertThat(built.secret("secret/default/a-tls").content()).isEqualTo(new Secret.Content.CertificateAndKey(
        A.certificatePem() + CA.certificatePem(), A.privateKeyPem()));
    assertThat(built.secret("ca/secret/default/clients").content())
        .isEqualTo(new Secret.Content.TrustedCa(CA.certificatePem()));
  }

  @Test
  void pkcs1AndSec1KeysAreAccepted() {
    TestCertificates.Issued rsa = TestCertificates.leaf(CA, "rsa", TestCertificates.rsa(),
        Instant.now().minusSeconds(60), Duration.ofDays(1), "a.test");
    Built built = lower(withSecrets(config(vs("a", "a.test", secretSsl("a-tls"), "2026-01-01T00:00:00Z"),
        vs("b", "b.test", secretSsl("b-tls"), "2026-01-01T00:00:00Z"), HTTPS_GATEWAY),
        Map.of("a-tls", tls(rsa, rsa.traditionalPrivateKeyPem()), "b-tls", tls(B, B.traditionalPrivateKeyPem()))));
    assertThat(built.status(VS_A).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(built.status(VS_B).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
  }

  @Test
  void missingGarbledAndMismatchedMaterialIsRejectedWithItsReason() {
    Built built = lower(withSecrets(config(
        vs("a", "a.test", secretSsl("missing"), "2026-01-01T00:00:00Z"),
        vs("b", "b.test", secretSsl("garbage"), "2026-01-01T00:00:00Z"),
        vs("c", "c.test", secretSsl("mismatch"), "2026-01-01T00:00:00Z"),
        vs("d", "d.test", secretSsl("a-tls"), "2026-01-01T00:00:00Z"), HTTPS_GATEWAY),
        Map.of("garbage", new TlsSecretData(new TreeMap<>(Map.of("tls.crt", "garbage", "tls.key", "more garbage"))),
            "mismatch", tls(A, B.privateKeyPem()), "a-tls", tls(A))));

    assertThat(built.status(VS_A).problems()).extracting(Problem::field, Problem::reason, Problem::message)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.sslConfig.secretRef", Reasons.SECRET_NOT_FOUND,
            "Secret default/missing does not exist"));
    assertThat(built.status(VS_B).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.INVALID_CERTIFICATE);
      assertThat(p.message()).startsWith("Secret default/garbage entry tls.crt: not PEM");
    });
    ResourceStatus mismatch = built.status(ResourceKey.virtualService("default", "c"));
    assertThat(mismatch.problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.KEY_MISMATCH);
      assertThat(p.message()).isEqualTo("the private key in Secret default/mismatch entry tls.key does not belong"
          + " to the first certificate in Secret default/mismatch entry tls.crt (CN=a)");
    });
    // The rest is still served.
    assertThat(built.status(ResourceKey.virtualService("default", "d")).state())
        .isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(built.socket(HTTPS).filterChains()).extracting(Listener.FilterChain::name).containsExactly("default/d");
    assertThat(built.result().statuses().toString()).doesNotContain(keyBody(B));
  }

  @Test
  void anExpiredCertificateIsServedWithAWarning() {
    TestCertificates.Issued old = TestCertificates.leaf(CA, "old", TestCertificates.ec(),
        Instant.now().minus(Duration.ofDays(3)), Duration.ofDays(1), "a.test");
    Built built = lower(withSecrets(config(vs("a", "a.test", secretSsl("a-tls"), "2026-01-01T00:00:00Z"),
        HTTPS_GATEWAY), Map.of("a-tls", tls(old))));
    assertThat(built.status(VS_A).state()).isEqualTo(ResourceStatus.State.WARNING);
    assertThat(built.status(VS_A).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.CERTIFICATE_NOT_VALID_NOW);
      assertThat(p.message()).contains("certificate 1 (CN=old) expired at").endsWith("; served anyway");
    });
    assertThat(built.socket(HTTPS).filterChains()).hasSize(1);
  }

  @Test
  void aLaterClaimOfAServerNameIsRejectedNamingTheHolder() {
    Built built = lower(withSecrets(config(
        vs("a", "a.test", "sslConfig: {secretRef: {name: a-tls}, sniDomains: [shared.test]}", "2026-01-01T00:00:00Z"),
        vs("b", "b.test", "sslConfig: {secretRef: {name: b-tls}, sniDomains: [shared.test, b.test]}",
            "2026-01-02T00:00:00Z"),
        vs("c", "\"*\"", secretSsl("a-tls"), "2026-01-01T00:00:00Z"),
        vs("d", "\"*.d.test\"", "sslConfig: {secretRef: {name: b-tls}, sniDomains: []}", "2026-01-03T00:00:00Z"),
        HTTPS_GATEWAY), Map.of("a-tls", tls(A), "b-tls", tls(B))));

    assertThat(built.status(VS_B).problems()).extracting(Problem::reason, Problem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Reasons.DUPLICATE_SNI_DOMAIN, "server name \"shared.test\" on HTTPS"
            + " Gateway/default/https is already taken by VirtualService/default/a, which is older"));
    assertThat(built.status(ResourceKey.virtualService("default", "d")).problems()).extracting(Problem::message)
        .containsExactly("the default filter chain (no server names) on HTTPS Gateway/default/https is already"
            + " taken by VirtualService/default/c, which is older");
    assertThat(built.socket(HTTPS).filterChains()).extracting(Listener.FilterChain::name)
        .containsExactly("default/a", "default/c");
  }

  @Test
  void invalidServerNamesAreRejected() {
    Built built = lower(withSecrets(config(vs("a", "a.test",
        "sslConfig: {secretRef: {name: a-tls}, sniDomains: [\"a.test:443\", \"api.*\", 127.0.0.1, a.test, a.test]}",
        "2026-01-01T00:00:00Z"), HTTPS_GATEWAY), Map.of("a-tls", tls(A))));
    assertThat(built.status(VS_A).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.sniDomains[0]", Reasons.INVALID_SNI_DOMAIN),
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.sniDomains[1]", Reasons.INVALID_SNI_DOMAIN),
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.sniDomains[2]", Reasons.INVALID_SNI_DOMAIN),
        org.assertj.core.groups.Tuple.tuple("spec.sslConfig.sniDomains[4]", Reasons.INVALID_SNI_DOMAIN));
  }

  @Test
  void anHttpsGatewayLeavesOutVirtualServicesWithoutACertificate() {
    Built built = lower(withSecrets(config(
        vs("a", "a.test", secretSsl("a-tls"), "2026-01-01T00:00:00Z"),
        vs("b", "b.test", "", "2026-01-01T00:00:00Z"), HTTPS_GATEWAY, PLAIN_GATEWAY), Map.of("a-tls", tls(A))));
    assertThat(built.status(HTTPS).problems()).extracting(Problem::reason, Problem::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Reasons.MISSING_SSL_CONFIG, "VirtualService/default/b has no sslConfig"
            + " (no certificate); not served on this HTTPS gateway"));
    assertThat(built.status(VS_B).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(built.socket(HTTPS).filterChains()).extracting(Listener.FilterChain::name).containsExactly("default/a");
    // The plain gateway serves both, sslConfig or not, as plain HTTP.
    assertThat(built.socket(ResourceKey.gateway("default", "http")).virtualHosts()).hasSize(2);
  }

  @Test
  void httpsRedirectAnswersEveryRequestOnThePlainGatewayWithARedirect() {
    Built built = lower(withSecrets(config(
        vs("a", "a.test", secretSsl("a-tls") + "\nhttpsRedirect: true", "2026-01-01T00:00:00Z"),
        HTTPS_GATEWAY, PLAIN_GATEWAY), Map.of("a-tls", tls(A))));
    var plain = built.socket(ResourceKey.gateway("default", "http")).virtualHosts();
    assertThat(plain).singleElement().satisfies(host -> {
      assertThat(host.domains()).containsExactly("a.test");
      assertThat(host.routes()).singleElement().satisfies(route -> assertThat(route.action()).isEqualTo(
          new io.holdfast.ir.RouteAction.Redirect(Optional.empty(), Optional.empty(), Optional.empty(), 301, true)));
    });
    // On the HTTPS gateway it routes as written.
    assertThat(built.socket(HTTPS).virtualHosts().get(0).routes().get(0).action())
        .isInstanceOf(io.holdfast.ir.RouteAction.Forward.class);
  }

  @Test
  void anHttpsGatewayWithNothingToServeHasNoListener() {
    Built built = lower(config(vs("b", "b.test", "", "2026-01-01T00:00:00Z"), HTTPS_GATEWAY));
    assertThat(built.result().ir().listeners()).noneMatch(l -> l.origin().object().equals(HTTPS));
    assertThat(built.status(HTTPS).state()).isEqualTo(ResourceStatus.State.WARNING);
  }

  @Test
  void aSecretGoneBadKeepsTheLastGoodCertificateServed() {
    GatewayConfig good = twoCertificatesAndADefault();
    lower(good);

    for (TlsSecretData bad : List.of(new TlsSecretData(new TreeMap<>(Map.of("tls.crt", "garbage", "tls.key", "x"))),
        tls(A, B.privateKeyPem()))) {
      GatewayConfig.Builder broken = good.toBuilder();
      broken.secret(TlsSecretData.secretKey("default", "a-tls"), bad);
      // A new VirtualService naming the same bad Secret was never accepted with the old material: it stays out.
      broken.add(((io.holdfast.api.ParseResult.Parsed) new io.holdfast.api.ModelParser().parse(
          io.holdfast.api.TestManifests.tree(vs("late", "late.test", secretSsl("a-tls"), "2026-02-01T00:00:00Z"))))
          .resource());
      Built built = lower(broken.build());

      assertThat(built.status(VS_A).state()).isEqualTo(ResourceStatus.State.REJECTED);
      assertThat(built.status(VS_A).problems()).extracting(Problem::reason).last()
          .isEqualTo(Reasons.SERVING_LAST_ACCEPTED);
      assertThat(built.secret("secret/default/a-tls").content()).isEqualTo(new Secret.Content.CertificateAndKey(
          A.certificatePem() + CA.certificatePem(), A.privateKeyPem()));
      assertThat(built.socket(HTTPS).filterChains()).extracting(Listener.FilterChain::name)
          .containsExactly("default/a", "default/b", "default/fallback");
      ResourceStatus late = built.status(ResourceKey.virtualService("default", "late"));
      assertThat(late.state()).isEqualTo(ResourceStatus.State.REJECTED);
      assertThat(late.problems()).extracting(Problem::reason).doesNotContain(Reasons.SERVING_LAST_ACCEPTED);
    }
    // The Secret deleted: the same.
    GatewayConfig.Builder deleted = GatewayConfig.builder();
    good.upstreams().forEach(deleted::add);
    good.virtualServices().forEach(deleted::add);
    good.gateways().forEach(deleted::add);
    good.secrets().forEach((key, data) -> {
      if (!key.name().equals("a-tls")) {
        deleted.secret(key, data);
      }
    });
    Built built = lower(deleted.build());
    assertThat(built.status(VS_A).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.SECRET_NOT_FOUND, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(built.secret("secret/default/a-tls").content()).isInstanceOf(Secret.Content.CertificateAndKey.class);
  }

  /**
   * Regression: holding back a VirtualService that names restored material rebuilt the accepted config from its
   * Upstreams, VirtualServices and Gateways only, so every RouteTable and TcpGateway stopped being served.
   */
  @Test
  void holdingBackAVirtualServiceKeepsTheRouteTablesAndTcpGatewaysServed() {
    String delegating = """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop, creationTimestamp: "2026-01-01T00:00:03Z"}
        spec:
          domains: [shop.test]
          routes: [{match: {prefix: /cart/}, delegate: {ref: {name: cart}}}]
        """;
    String table = """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: cart}
        spec:
          routes: [{match: {prefix: /cart/}, route: {upstream: up}}]
        """;
    String tcp = """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge}
        spec: {port: 9000, hosts: [{name: api, sniDomains: [api.test], upstream: {name: up}}]}
        """;
    GatewayConfig good = withSecrets(config(vs("a", "a.test", secretSsl("a-tls"), "2026-01-01T00:00:00Z"),
        delegating, table, tcp, HTTPS_GATEWAY, PLAIN_GATEWAY), Map.of("a-tls", tls(A)));
    lower(good);

    GatewayConfig.Builder broken = good.toBuilder();
    broken.secret(TlsSecretData.secretKey("default", "a-tls"), tls(A, B.privateKeyPem()));
    broken.add(((io.holdfast.api.ParseResult.Parsed) new io.holdfast.api.ModelParser().parse(
        io.holdfast.api.TestManifests.tree(vs("late", "late.test", secretSsl("a-tls"), "2026-02-01T00:00:00Z"))))
        .resource());
    Built built = lower(broken.build());

    assertThat(built.status(ResourceKey.virtualService("default", "late")).state())
        .isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(built.status(ResourceKey.routeTable("default", "cart")).state())
        .isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(built.result().ir().listeners()).anySatisfy(l ->
        assertThat(l.origin().object()).isEqualTo(ResourceKey.tcpGateway("default", "edge")));
    assertThat(built.socket(ResourceKey.gateway("default", "http")).virtualHosts())
        .filteredOn(h -> h.origin().object().equals(ResourceKey.virtualService("default", "shop")))
        .singleElement().satisfies(h -> assertThat(h.routes()).extracting(r -> r.origin().object())
            .contains(ResourceKey.routeTable("default", "cart")));
  }

  @Test
  void aRotatedCertificateReplacesTheSecretAndLeavesTheChainAsItWas() {
    GatewayConfig good = twoCertificatesAndADefault();
    Built before = lower(good);
    TestCertificates.Issued renewed = TestCertificates.leaf(CA, "a renewed", "a.test");
    Built after = lower(good.toBuilder().secret(TlsSecretData.secretKey("default", "a-tls"), tls(renewed)).build());

    assertThat(after.status(VS_A).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(after.socket(HTTPS)).isEqualTo(before.socket(HTTPS));
    assertThat(after.secret("secret/default/a-tls").content()).isEqualTo(new Secret.Content.CertificateAndKey(
        renewed.certificatePem() + CA.certificatePem(), renewed.privateKeyPem()));
  }

  @Test
  void filesAreReadUnderTheirFileKeys() {
    GatewayConfig config = config(vs("a", "a.test",
        "sslConfig: {files: {certChain: tls/a.crt, privateKey: tls/a.key}, clientCa: {file: tls/ca.crt}}",
        "2026-01-01T00:00:00Z"), HTTPS_GATEWAY).toBuilder()
        .secret(TlsSecretData.fileKey("tls/a.crt"), TlsSecretData.file(A.certificatePem()))
        .secret(TlsSecretData.fileKey("tls/a.key"), TlsSecretData.file(A.traditionalPrivateKeyPem()))
        .secret(TlsSecretData.fileKey("tls/ca.crt"), TlsSecretData.file(CA.certificatePem()))
        .build();
    Built built = lower(config);
    assertThat(built.status(VS_A).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(built.result().ir().secrets()).extracting(Secret::name)
        .containsExactly("ca/file/tls/ca.crt", "file/tls/a.crt");

    HoldfastFrontEnd fresh = new HoldfastFrontEnd();
    IrBuilder builder = new IrBuilder();
    fresh.lower(config(vs("a", "a.test", "sslConfig: {files: {certChain: tls/x.crt, privateKey: tls/x.key}}",
        "2026-01-01T00:00:00Z"), HTTPS_GATEWAY), builder);
    Built missing = new Built(builder.build());
    assertThat(missing.status(VS_A).problems()).extracting(Problem::message).containsExactly(
        "file tls/x.crt does not exist (paths are relative to the config directory)",
        "file tls/x.key does not exist (paths are relative to the config directory)");
  }

  static String keyBody(TestCertificates.Issued issued) {
    String pem = issued.privateKeyPem();
    return pem.substring(pem.indexOf('\n') + 1, pem.indexOf('\n') + 41);
  }
}
