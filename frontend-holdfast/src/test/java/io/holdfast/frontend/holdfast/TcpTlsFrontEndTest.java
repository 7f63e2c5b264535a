package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

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
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** TcpGateway hosts that terminate TLS ({@code sslConfig}): validation, material, last-good, lowering. */
class TcpTlsFrontEndTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("tcp tls test CA");
  private static final TestCertificates.Issued DB = TestCertificates.leaf(CA, "db", "db.test");
  private static final TestCertificates.Issued OTHER = TestCertificates.leaf(CA, "other", "other.test");
  private static final ResourceKey EDGE = ResourceKey.tcpGateway("default", "edge");

  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC));

  private static String gateway(String hosts) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge}
        spec:
          port: 9000
          hosts:
        """ + hosts.indent(4);
  }

  private static final String TERMINATING_AND_PASSTHROUGH = """
      - name: db
        sniDomains: [db.test]
        sslConfig: {secretRef: {name: db-tls}, minTlsVersion: TLSv1_3, clientCa: {secretRef: {name: clients}}}
        upstream: {name: up}
      - name: pass
        sniDomains: [pass.test]
        upstream: {name: up}
      """;

  private static GatewayConfig config(String yaml, Map<String, TlsSecretData> secrets) {
    GatewayConfig.Builder b = io.holdfast.api.TestManifests.config(yaml,
        io.holdfast.api.TestManifests.upstream("up", 9101)).toBuilder();
    secrets.forEach((name, data) -> b.secret(TlsSecretData.secretKey("default", name), data));
    return b.build();
  }

  private static TlsSecretData tls(TestCertificates.Issued leaf, String keyPem) {
    return new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.TLS_CRT, leaf.certificatePem() + CA.certificatePem(),
        TlsSecretData.TLS_KEY, keyPem)));
  }

  private static TlsSecretData ca() {
    return new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.CA_CRT, CA.certificatePem())));
  }

  private IrBuilder.Result lower(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(config, builder);
    return builder.build();
  }

  private static ResourceStatus status(IrBuilder.Result result) {
    return ResourceStatus.of(result.statuses().get(EDGE));
  }

  private static Listener.Socket socket(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket).map(l -> (Listener.Socket) l)
        .filter(s -> s.origin().object().equals(EDGE)).findFirst().orElseThrow();
  }

  @Test
  void aTerminatingHostCarriesItsCertificateAndClientCaOverSdsAndThePassthroughHostNone() {
    IrBuilder.Result result = lower(config(gateway(TERMINATING_AND_PASSTHROUGH),
        Map.of("db-tls", tls(DB, DB.privateKeyPem()), "clients", ca())));

    assertThat(status(result).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    Listener.Socket socket = socket(result);
    assertThat(socket.filterChains()).extracting(Listener.FilterChain::name, c -> c.match().serverNames(),
        Listener.FilterChain::tls).containsExactly(
            tuple("db", List.of("db.test"), Optional.of(new Listener.DownstreamTls("secret/default/db-tls",
                Listener.TlsVersion.TLS_1_3, Optional.of("ca/secret/default/clients"), List.of()))),
            tuple("pass", List.of("pass.test"), Optional.empty()));
    assertThat(socket.inspectsTls()).isTrue();
    assertThat(result.ir().secrets()).extracting(Secret::name)
        .containsExactlyInAnyOrder("secret/default/db-tls", "ca/secret/default/clients");
    assertThat(result.ir().secrets()).filteredOn(s -> s.name().equals("secret/default/db-tls")).singleElement()
        .satisfies(s -> assertThat(s.content()).isEqualTo(new Secret.Content.CertificateAndKey(
            DB.certificatePem() + CA.certificatePem(), DB.privateKeyPem())));
  }

  @Test
  void missingAndMismatchedMaterialRejectsTheGatewayOnTheHostsField() {
    IrBuilder.Result missing = lower(config(gateway(TERMINATING_AND_PASSTHROUGH), Map.of("clients", ca())));
    assertThat(status(missing).problems()).extracting(Problem::field, Problem::reason, Problem::message)
        .containsExactly(tuple("spec.hosts[0].sslConfig.secretRef", Reasons.SECRET_NOT_FOUND,
            "Secret default/db-tls does not exist"));
    assertThat(missing.ir().listeners()).noneMatch(l -> l.origin().object().equals(EDGE));

    IrBuilder.Result mismatch = lower(config(gateway(TERMINATING_AND_PASSTHROUGH),
        Map.of("db-tls", tls(DB, OTHER.privateKeyPem()), "clients", ca())));
    assertThat(status(mismatch).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.hosts[0].sslConfig.secretRef", Reasons.KEY_MISMATCH));
  }

  @Test
  void serverNamesInTheSslConfigConflictWithTheHostsOwn() {
    IrBuilder.Result result = lower(config(gateway("""
        - name: db
          sniDomains: [db.test]
          sslConfig: {secretRef: {name: db-tls}, sniDomains: [other.test]}
          upstream: {name: up}
        """), Map.of("db-tls", tls(DB, DB.privateKeyPem()))));
    assertThat(status(result).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.hosts[0].sslConfig.sniDomains", Reasons.CONFLICTING_FIELDS));
  }

  @Test
  void aSecretInAnotherNamespaceWithoutAGrantIsNotLookedAt() {
    IrBuilder.Result result = lower(config(gateway("""
        - name: db
          sslConfig: {secretRef: {name: db-tls, namespace: vault}}
          upstream: {name: up}
        """), Map.of()));
    assertThat(status(result).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.hosts[0].sslConfig.secretRef", Reasons.REF_NOT_PERMITTED));
  }

  @Test
  void aSecretGoneBadKeepsTheLastGoodCertificateServed() {
    GatewayConfig good = config(gateway(TERMINATING_AND_PASSTHROUGH),
        Map.of("db-tls", tls(DB, DB.privateKeyPem()), "clients", ca()));
    lower(good);

    GatewayConfig.Builder broken = good.toBuilder();
    broken.secret(TlsSecretData.secretKey("default", "db-tls"), tls(DB, OTHER.privateKeyPem()));
    broken.add(((io.holdfast.api.ParseResult.Parsed) new io.holdfast.api.ModelParser().parse(
        io.holdfast.api.TestManifests.tree("""
            apiVersion: gateway.holdfast.io/v1
            kind: TcpGateway
            metadata: {name: late, creationTimestamp: "2026-02-01T00:00:00Z"}
            spec: {port: 9001, hosts: [{name: db, sslConfig: {secretRef: {name: db-tls}}, upstream: {name: up}}]}
            """))).resource());
    IrBuilder.Result result = lower(broken.build());

    assertThat(status(result).state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status(result).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.KEY_MISMATCH, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(socket(result).filterChains()).extracting(Listener.FilterChain::name).containsExactly("db", "pass");
    // A new TcpGateway naming the same bad Secret was never accepted with the old material: it stays out.
    ResourceKey late = ResourceKey.tcpGateway("default", "late");
    assertThat(ResourceStatus.of(result.statuses().get(late)).state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(ResourceStatus.of(result.statuses().get(late)).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.KEY_MISMATCH);
    assertThat(result.ir().listeners()).noneMatch(l -> l.origin().object().equals(late));
    assertThat(result.ir().secrets()).filteredOn(s -> s.name().equals("secret/default/db-tls")).singleElement()
        .satisfies(s -> assertThat(s.content()).isEqualTo(new Secret.Content.CertificateAndKey(
            DB.certificatePem() + CA.certificatePem(), DB.privateKeyPem())));
  }
}
