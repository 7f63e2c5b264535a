package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.UpstreamTls;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An Upstream's TLS secrets from an SDS agent beside the proxy ({@code spec.tls.sds}). */
class UpstreamSdsTest {

  private static final ResourceKey BACKEND = ResourceKey.upstream("default", "backend");

  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC));

  private static String upstream(String tls) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: backend}
        spec:
          static:
            hosts: [{address: 192.0.2.10, port: 8443}]
          tls:
        """ + tls.indent(4);
  }

  private IrBuilder.Result lower(String upstream) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(TestManifests.config(upstream, TestManifests.virtualService("web", "web.example", "backend"),
        TestManifests.gateway("public", 10080)), builder);
    return builder.build();
  }

  /** Its problems but the warning every TLS upstream reached by gRPC clients gets, which is not about SDS. */
  private static List<Problem> problems(IrBuilder.Result result) {
    return ResourceStatus.of(result.statuses().get(BACKEND)).problems().stream()
        .filter(p -> !p.reason().equals(Reasons.GRPC_INCOMPATIBLE)).toList();
  }

  private static Optional<Cluster> cluster(IrBuilder.Result result) {
    return result.ir().clusters().stream().filter(c -> c.origin().object().equals(BACKEND)).findFirst();
  }

  @Test
  void loopbackAgentSecretsReachTheClusterTlsAndVerifyAgainstTheAgentsCa() {
    IrBuilder.Result result = lower(upstream("""
        sni: backend.example
        sds: {address: 127.0.0.1:8234, certificateSecretName: cert, validationContextName: ca}
        """));

    assertThat(problems(result)).isEmpty();
    UpstreamTls tls = cluster(result).orElseThrow().tls().orElseThrow();
    assertThat(tls.verify()).isEqualTo(UpstreamTls.Verify.TRUSTED_CA);
    assertThat(tls.trustedCa()).isEmpty();
    assertThat(tls.sds()).contains(new UpstreamTls.Sds("127.0.0.1", 8234, Optional.of("cert"), Optional.of("ca")));
  }

  @Test
  void anAgentOffLoopbackOrByNameIsRefused() {
    for (String address : List.of("192.0.2.1:8234", "localhost:8234", "sds.example:8234", "127.0.0.1")) {
      IrBuilder.Result result = lower(upstream("sni: backend.example\nsds: {address: '" + address
          + "', certificateSecretName: cert, validationContextName: ca}"));
      assertThat(problems(result)).as(address).extracting(Problem::field, Problem::reason)
          .containsExactly(tuple("spec.tls.sds.address", Reasons.INVALID_UPSTREAM_SDS));
      assertThat(cluster(result)).as(address).isEmpty();
    }
  }

  @Test
  void sdsDoesNotMixWithTheUpstreamsOwnSecretsAndMustNameOne() {
    assertThat(problems(lower(upstream("""
        sni: backend.example
        trustedCa: {secretRef: {name: backend-ca}}
        sds: {address: 127.0.0.1:8234, certificateSecretName: cert}
        """)))).extracting(Problem::field, Problem::reason)
        .contains(tuple("spec.tls.sds", Reasons.INVALID_UPSTREAM_SDS));
    assertThat(problems(lower(upstream("""
        sni: backend.example
        sds: {address: 127.0.0.1:8234}
        """)))).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls.sds", Reasons.INVALID_UPSTREAM_SDS));
  }

  @Test
  void verifyMustAgreeWithTheAgentsValidationContext() {
    assertThat(problems(lower(upstream("""
        sni: backend.example
        verify: NONE
        sds: {address: 127.0.0.1:8234, validationContextName: ca}
        """)))).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls.verify", Reasons.INVALID_UPSTREAM_SDS));
    assertThat(problems(lower(upstream("""
        sni: backend.example
        verify: CA
        sds: {address: 127.0.0.1:8234, certificateSecretName: cert}
        """)))).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls.verify", Reasons.INVALID_UPSTREAM_SDS));
    IrBuilder.Result certOnly = lower(upstream("""
        verify: NONE
        sds: {address: '[::1]:8234', certificateSecretName: cert}
        """));
    assertThat(problems(certOnly)).isEmpty();
    assertThat(cluster(certOnly).orElseThrow().tls().orElseThrow().sds())
        .contains(new UpstreamTls.Sds("::1", 8234, Optional.of("cert"), Optional.empty()));
  }

  @Test
  void inKubernetesModeTheAgentNeedsLoopbackAllowedSinceItLendsTheProxysIdentity() {
    String sds = "sni: backend.example\nsds: {address: 127.0.0.1:8234, certificateSecretName: cert}";
    HoldfastFrontEnd kubernetes = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC),
        io.holdfast.api.InputLimits.DEFAULTS, io.holdfast.api.AccessPolicy.KUBERNETES_DEFAULTS);
    IrBuilder builder = new IrBuilder();
    kubernetes.lower(TestManifests.config(upstream(sds), TestManifests.virtualService("web", "web.example",
        "backend"), TestManifests.gateway("public", 10080)), builder);
    IrBuilder.Result refused = builder.build();
    assertThat(problems(refused)).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls.sds.address", Reasons.ADDRESS_NOT_PERMITTED));
    assertThat(cluster(refused)).isEmpty();

    HoldfastFrontEnd allowed = new HoldfastFrontEnd(Clock.fixed(Instant.now(), ZoneOffset.UTC),
        io.holdfast.api.InputLimits.DEFAULTS, io.holdfast.api.AccessPolicy.KUBERNETES_DEFAULTS
            .withDeniedUpstreamNetworks(io.holdfast.api.AccessPolicy.LINK_LOCAL_AND_UNSPECIFIED));
    IrBuilder again = new IrBuilder();
    allowed.lower(TestManifests.config(upstream(sds), TestManifests.virtualService("web", "web.example",
        "backend"), TestManifests.gateway("public", 10080)), again);
    assertThat(problems(again.build())).isEmpty();
  }
}
