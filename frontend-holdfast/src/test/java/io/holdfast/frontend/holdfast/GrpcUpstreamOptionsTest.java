package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import org.junit.jupiter.api.Test;

/** Warnings for the upstream options gRPC clients reject or ignore, only on upstreams gRPC clients reach. */
class GrpcUpstreamOptionsTest {

  private static final ResourceKey UP = ResourceKey.upstream("default", "up");

  private static ResourceStatus upstreamStatus(String domains, String spec) {
    return new Validator().validate(TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up}
        spec: %s
        """.formatted(spec), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: %s
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """.formatted(domains))).status(UP);
  }

  @Test
  void aStrictDnsUpstreamIsRejectedByGrpcClients() {
    ResourceStatus status = upstreamStatus("[web.test]",
        "{static: {hosts: [{address: backend.test, port: 80}, {address: 127.0.0.1, port: 80}]}}");
    assertThat(status.state()).isEqualTo(State.WARNING);
    assertThat(status.problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.static.hosts");
      assertThat(p.reason()).isEqualTo(Reasons.GRPC_INCOMPATIBLE);
      assertThat(p.message()).contains("web.test", "STRICT_DNS", "LOGICAL");
    });
  }

  /** grpc-java resolves a LOGICAL_DNS cluster's one name itself. */
  @Test
  void aLogicalDnsUpstreamWorksForGrpcClients() {
    assertThat(upstreamStatus("[web.test]",
        "{static: {hosts: [{address: backend.test, port: 80}]}, dns: {resolution: LOGICAL}}").state())
        .isEqualTo(State.ACCEPTED);
  }

  @Test
  void optionsGrpcClientsIgnoreAreNamedOneByOne() {
    ResourceStatus status = upstreamStatus("[web.test]", """
        {static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true,
         circuitBreakers: {maxConnections: 1, maxPendingRequests: 1, maxRequests: 1, maxRetries: 1},
         outlierDetection: {consecutive5xx: 1, consecutiveGatewayErrors: 1, successRate: {}, failurePercentage: {}},
         healthChecks: [{grpc: {}, timeout: 1s, interval: 5s}]}""");
    assertThat(status.problems()).extracting(Problem::field, Problem::reason).containsExactlyInAnyOrder(
        tuple("spec.circuitBreakers.maxRequests", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.circuitBreakers.maxConnections", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.circuitBreakers.maxPendingRequests", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.circuitBreakers.maxRetries", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.outlierDetection.consecutive5xx", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.outlierDetection.consecutiveGatewayErrors", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.healthChecks", Reasons.GRPC_IGNORED_OPTION));
    assertThat(status.problems()).allSatisfy(p -> assertThat(p.message()).contains("web.test"));
  }

  @Test
  void whatGrpcClientsHonourGetsNoWarning() {
    assertThat(upstreamStatus("[web.test]", """
        {static: {hosts: [{address: 127.0.0.1, port: 80}]},
         outlierDetection: {successRate: {}, failurePercentage: {threshold: 50}}}""").state())
        .isEqualTo(State.ACCEPTED);
  }

  /** GrpcXdsUpstreamPoliciesTest pins the grpc-java behaviour this warns about. */
  @Test
  void maxRequestsWarnsThatGrpcJavaEnforcesItOnlyWithLoadReporting() {
    ResourceStatus status = upstreamStatus("[web.test]",
        "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, circuitBreakers: {maxRequests: 10}}");
    assertThat(status.problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.circuitBreakers.maxRequests");
      assertThat(p.reason()).isEqualTo(Reasons.GRPC_IGNORED_OPTION);
      assertThat(p.message()).contains("grpc-java", "report load", "gRFC A32");
    });
  }

  @Test
  void anEnvoyOnlyVirtualServiceBringsNoGrpcWarnings() {
    assertThat(upstreamStatus("['*']", """
        {static: {hosts: [{address: backend.test, port: 80}]}, circuitBreakers: {maxConnections: 1},
         healthChecks: [{tcp: {}, timeout: 1s, interval: 5s}]}""").state()).isEqualTo(State.ACCEPTED);
  }

  @Test
  void dnsOptionsOnAddressesOrAServiceAreIgnoredWithAWarning() {
    ResourceStatus kube = upstreamStatus("['*']", "{kube: {name: svc, port: 80}, dns: {lookupFamily: V6_ONLY}}");
    assertThat(kube.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.dns", Reasons.FIELD_IGNORED));
    assertThat(kube.problems().get(0).message()).contains("Service");
  }

  @Test
  void upstreamTlsIsRejectedByGrpcClients() {
    ResourceStatus status = upstreamStatus("[web.test]",
        "{static: {hosts: [{address: 127.0.0.1, port: 443}]}, tls: {sni: api.test}}");
    assertThat(status.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.tls", Reasons.GRPC_INCOMPATIBLE));
    assertThat(status.problems().get(0).message()).contains("GRPC_EXPERIMENTAL_XDS_SYSTEM_ROOT_CERTS", "NONE");
  }
}
