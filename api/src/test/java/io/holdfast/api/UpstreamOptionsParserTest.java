package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The option blocks of an Upstream: values as written, and malformed shapes reported with their field paths. */
class UpstreamOptionsParserTest {

  private static final String HEAD = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: up}
      spec:
        static: {hosts: [{address: backend.test, port: 443}]}
      """;

  private static ParseResult parse(String options) {
    return new ModelParser().parse(tree(HEAD + options.indent(2)));
  }

  private static UpstreamOptions options(String options) {
    ParseResult result = parse(options);
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return ((Upstream) ((ParseResult.Parsed) result).resource()).options();
  }

  private static List<Problem> problems(String options) {
    ParseResult result = parse(options);
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    return ((ParseResult.Invalid) result).problems();
  }

  @Test
  void noOptionsIsNone() {
    assertThat(options("")).isEqualTo(UpstreamOptions.NONE);
  }

  @Test
  void everyOptionIsReadAsWritten() {
    UpstreamOptions options = options("""
        dns: {resolution: LOGICAL, lookupFamily: ALL, refreshRate: 30s, respectTtl: true}
        circuitBreakers: {maxConnections: 1, maxPendingRequests: 2, maxRequests: 3, maxRetries: 0}
        outlierDetection:
          consecutive5xx: 4
          consecutiveGatewayErrors: 5
          successRate: {minimumHosts: 6, requestVolume: 7, stdevFactor: 1.5}
          failurePercentage: {threshold: 8, minimumHosts: 9, requestVolume: 10}
          interval: 2s
          baseEjectionTime: 1m
          maxEjectionPercent: 11
        healthChecks:
          - {http: {path: /h, host: h.test, expectedStatuses: [{start: 200, end: 204}]}, timeout: 1s, interval: 3s,
             healthyThreshold: 2, unhealthyThreshold: 4}
          - {tcp: {}, timeout: 1s, interval: 3s}
          - {grpc: {serviceName: s.S}, timeout: 1s, interval: 3s}
        """);
    assertThat(options.dns()).contains(new UpstreamOptions.Dns(Optional.of(UpstreamOptions.DnsResolution.LOGICAL),
        Optional.of(UpstreamOptions.DnsLookupFamily.ALL), Optional.of(Duration.ofSeconds(30)), Optional.of(true)));
    assertThat(options.circuitBreakers()).contains(new UpstreamOptions.CircuitBreakers(Optional.of(1), Optional.of(2),
        Optional.of(3), Optional.of(0)));
    assertThat(options.outlierDetection()).contains(new UpstreamOptions.OutlierDetection(Optional.of(4),
        Optional.of(5), Optional.of(new UpstreamOptions.SuccessRate(Optional.of(6), Optional.of(7), Optional.of(1.5))),
        Optional.of(new UpstreamOptions.FailurePercentage(Optional.of(8), Optional.of(9), Optional.of(10))),
        Optional.of(Duration.ofSeconds(2)), Optional.of(Duration.ofMinutes(1)), Optional.of(11)));
    assertThat(options.healthChecks()).containsExactly(
        new UpstreamOptions.HealthCheck(Duration.ofSeconds(1), Duration.ofSeconds(3), Optional.of(2), Optional.of(4),
            new UpstreamOptions.Probe.Http("/h", Optional.of("h.test"), List.of(new UpstreamOptions.StatusRange(200,
                204)))),
        new UpstreamOptions.HealthCheck(Duration.ofSeconds(1), Duration.ofSeconds(3), Optional.empty(),
            Optional.empty(), new UpstreamOptions.Probe.Tcp()),
        new UpstreamOptions.HealthCheck(Duration.ofSeconds(1), Duration.ofSeconds(3), Optional.empty(),
            Optional.empty(), new UpstreamOptions.Probe.Grpc(Optional.of("s.S"))));
  }

  @Test
  void tlsIsReadAsWritten() {
    assertThat(options("tls: {sni: api.test, verify: NONE}").tls()).contains(
        new UpstreamOptions.Tls(Optional.of("api.test"), Optional.of(UpstreamOptions.TlsVerify.NONE)));
    assertThat(options("tls: {}").tls()).contains(new UpstreamOptions.Tls(Optional.empty(), Optional.empty()));
    assertThat(problems("tls: {verify: SOMETIMES, ciphers: x}")).extracting(Problem::field, Problem::reason)
        .containsExactlyInAnyOrder(tuple("spec.tls.verify", Reasons.INVALID_VALUE),
            tuple("spec.tls.ciphers", Reasons.UNKNOWN_FIELD));
  }

  @Test
  void ringSizesAndAlpnProtocolsAreReadAsWritten() {
    UpstreamOptions options = options("""
        ringHash: {minimumRingSize: 10, maximumRingSize: 200}
        tls: {alpnProtocols: [istio, h2]}
        """);
    assertThat(options.ringHash()).contains(new UpstreamOptions.RingHash(Optional.of(10L), Optional.of(200L)));
    assertThat(options.tls().orElseThrow().alpnProtocols()).containsExactly("istio", "h2");
    assertThat(options("ringHash: {}").ringHash())
        .contains(new UpstreamOptions.RingHash(Optional.empty(), Optional.empty()));
    assertThat(problems("ringHash: {minimumRingSize: ten, buckets: 3}\ntls: {alpnProtocols: h2}"))
        .extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
            tuple("spec.ringHash.minimumRingSize", Reasons.WRONG_TYPE),
            tuple("spec.ringHash.buckets", Reasons.UNKNOWN_FIELD),
            tuple("spec.tls.alpnProtocols", Reasons.WRONG_TYPE));
  }

  @Test
  void connectionSettingsAreReadAsWritten() {
    UpstreamOptions options = options("""
        connection:
          maxRequestsPerConnection: 10
          perConnectionBufferLimitBytes: 4294967295
          idleTimeout: 45s
          tcpKeepalive: {probes: 3, time: 30, interval: 5}
        """);
    assertThat(options.connection()).contains(new UpstreamOptions.Connection(Optional.of(10),
        Optional.of(4_294_967_295L), Optional.of(new UpstreamOptions.TcpKeepalive(Optional.of(3), Optional.of(30),
            Optional.of(5))), Optional.of(java.time.Duration.ofSeconds(45))));
    assertThat(options("ringHash: {}").connection()).isEmpty();
    UpstreamOptions.Connection limits =
        options("connection: {maxHeadersCount: 80, maxStreamDuration: 10s}").connection().orElseThrow();
    assertThat(limits.maxHeadersCount()).contains(80);
    assertThat(limits.maxStreamDuration()).contains(java.time.Duration.ofSeconds(10));
    assertThat(options("connection: {http1: {enableTrailers: true, headerKeyFormat: PRESERVE_CASE,"
        + " streamErrorOnInvalidHttpMessage: false}}").connection().orElseThrow().http1()).contains(
        new UpstreamOptions.Http1(true, Optional.of(UpstreamOptions.HeaderKeyFormat.PRESERVE_CASE),
            Optional.of(false)));
    assertThat(options("connection: {http1: {}}").connection().orElseThrow().http1())
        .contains(new UpstreamOptions.Http1(false, Optional.empty(), Optional.empty()));
    assertThat(options("connection: {http2: {maxConcurrentStreams: 4294967296, initialStreamWindowSize: 65535,"
        + " streamErrorOnInvalidHttpMessage: true}}").connection().orElseThrow().http2()).contains(
        new UpstreamOptions.Http2(Optional.of(4_294_967_296L), Optional.of(65_535L), Optional.empty(),
            Optional.of(true)));
    assertThat(problems("connection: {http2: {maxStreams: 1, initialConnectionWindowSize: big}}"))
        .extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
            tuple("spec.connection.http2.maxStreams", Reasons.UNKNOWN_FIELD),
            tuple("spec.connection.http2.initialConnectionWindowSize", Reasons.WRONG_TYPE));
    assertThat(problems("connection: {http1: {headerKeyFormat: Upper, trailers: true}}"))
        .extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
            tuple("spec.connection.http1.headerKeyFormat", Reasons.INVALID_VALUE),
            tuple("spec.connection.http1.trailers", Reasons.UNKNOWN_FIELD));
    assertThat(problems("connection: {idleTimeout: soon, maxStreams: 3, tcpKeepalive: {time: x}}"))
        .extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
            tuple("spec.connection.idleTimeout", Reasons.INVALID_DURATION),
            tuple("spec.connection.maxStreams", Reasons.UNKNOWN_FIELD),
            tuple("spec.connection.tcpKeepalive.time", Reasons.WRONG_TYPE));
  }

  @Test
  void sdsAgentIsReadAndOnlyLoopbackIpLiteralsGiveAnAgent() {
    UpstreamOptions.Tls tls = options("""
        tls:
          sds: {address: 127.0.0.1:8234, certificateSecretName: cert, validationContextName: ca}
        """).tls().orElseThrow();
    UpstreamOptions.Sds sds = tls.sds().orElseThrow();
    assertThat(sds).isEqualTo(new UpstreamOptions.Sds("127.0.0.1:8234", Optional.of("cert"), Optional.of("ca")));
    assertThat(sds.agent()).contains(new UpstreamOptions.Sds.Agent("127.0.0.1", 8234));
    assertThat(tls.effectiveVerify()).isEqualTo(UpstreamOptions.TlsVerify.CA);
    assertThat(new UpstreamOptions.Sds("[::1]:15012", Optional.of("c"), Optional.empty()).agent())
        .contains(new UpstreamOptions.Sds.Agent("::1", 15012));
    for (String refused : List.of("192.0.2.1:8234", "localhost:8234", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536",
        "::1:8234", "[127.0.0.1]:8234", "127.0.0.1:+80", ":8234", "0x7f000001:8234", "127.0.0.1:")) {
      assertThat(new UpstreamOptions.Sds(refused, Optional.of("c"), Optional.empty()).agent()).as(refused).isEmpty();
    }
    assertThat(problems("tls: {sds: {certificateSecretName: cert, cluster: x}}"))
        .extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
            tuple("spec.tls.sds.address", Reasons.MISSING_FIELD),
            tuple("spec.tls.sds.cluster", Reasons.UNKNOWN_FIELD));
  }

  @Test
  void trustedCaAndClientCertificateComeFromASecretOrFiles() {
    UpstreamOptions.Tls secrets = options("""
        tls:
          trustedCa: {secretRef: {name: backend-ca, namespace: pki}}
          clientCertificate: {secretRef: {name: proxy-client}}
        """).tls().orElseThrow();
    assertThat(secrets.trustedCa()).contains(new SslConfig.CaSource.SecretRef(new ObjectRef("backend-ca",
        Optional.of("pki"))));
    assertThat(secrets.effectiveVerify()).isEqualTo(UpstreamOptions.TlsVerify.CA);
    assertThat(secrets.materialKeys("shop")).containsExactly(TlsSecretData.secretKey("pki", "backend-ca"),
        TlsSecretData.secretKey("shop", "proxy-client"));

    UpstreamOptions.Tls files = options("""
        tls:
          trustedCa: {file: tls/ca.crt}
          clientCertificate: {files: {certChain: tls/client.crt, privateKey: tls/client.key}}
        """).tls().orElseThrow();
    assertThat(files.trustedCa()).contains(new SslConfig.CaSource.File("tls/ca.crt"));
    assertThat(files.clientCertificate()).contains(
        new SslConfig.CertificateSource.Files("tls/client.crt", "tls/client.key"));
    assertThat(options("tls: {sni: api.test}").tls().orElseThrow().effectiveVerify())
        .isEqualTo(UpstreamOptions.TlsVerify.SYSTEM);
  }

  @Test
  void trustedCaAndClientCertificateTakeExactlyOneSource() {
    assertThat(problems("""
        tls:
          trustedCa: {secretRef: {name: ca}, file: ca.crt}
          clientCertificate: {}
        """)).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.tls.trustedCa", Reasons.CONFLICTING_FIELDS),
        tuple("spec.tls.clientCertificate", Reasons.MISSING_FIELD));
    assertThat(problems("tls: {clientCertificate: {files: {certChain: c.crt}}}"))
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls.clientCertificate.files.privateKey", Reasons.MISSING_FIELD));
  }

  @Test
  void unknownEnumValuesNameTheAllowedOnes() {
    assertThat(problems("dns: {resolution: EAGER, lookupFamily: V5}")).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.dns.resolution", Reasons.INVALID_VALUE),
            tuple("spec.dns.lookupFamily", Reasons.INVALID_VALUE));
    assertThat(problems("dns: {resolution: EAGER}").get(0).message()).contains("STRICT, LOGICAL");
  }

  @Test
  void wrongTypesAndUnknownFieldsHaveTheirPaths() {
    assertThat(problems("""
        circuitBreakers: {maxRequests: many, maxStreams: 3}
        outlierDetection: {successRate: {stdevFactor: high}, interval: 5}
        """)).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.circuitBreakers.maxRequests", Reasons.WRONG_TYPE),
        tuple("spec.circuitBreakers.maxStreams", Reasons.UNKNOWN_FIELD),
        tuple("spec.outlierDetection.successRate.stdevFactor", Reasons.WRONG_TYPE),
        tuple("spec.outlierDetection.interval", Reasons.WRONG_TYPE));
  }

  @Test
  void aHealthCheckNeedsExactlyOneProbeATimeoutAndAnInterval() {
    assertThat(problems("healthChecks: [{interval: 5s}]")).extracting(Problem::field, Problem::reason)
        .containsExactlyInAnyOrder(tuple("spec.healthChecks[0].timeout", Reasons.MISSING_FIELD),
            tuple("spec.healthChecks[0]", Reasons.MISSING_FIELD));
    assertThat(problems("healthChecks: [{tcp: {}, grpc: {}, timeout: 1s, interval: 5s}]"))
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.healthChecks[0]", Reasons.CONFLICTING_FIELDS));
    assertThat(problems("healthChecks: [{http: {host: a.test}, timeout: 1s, interval: 5s}]"))
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.healthChecks[0].http.path", Reasons.MISSING_FIELD));
    assertThat(problems("healthChecks: [{http: {path: /, expectedStatuses: [{start: 200}]}, timeout: 1s,"
        + " interval: 5s}]")).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.healthChecks[0].http.expectedStatuses[0].end", Reasons.MISSING_FIELD));
    assertThat(problems("healthChecks: [{tcp: {port: 80}, timeout: 1s, interval: 5s}]"))
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.healthChecks[0].tcp.port", Reasons.UNKNOWN_FIELD));
    assertThat(problems("healthChecks: [{tcp: {}, timeout: soon, interval: 5s}]"))
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.healthChecks[0].timeout", Reasons.INVALID_DURATION));
  }
}
