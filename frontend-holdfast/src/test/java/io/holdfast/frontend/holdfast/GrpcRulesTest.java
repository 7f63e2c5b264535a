package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import org.junit.jupiter.api.Test;

/** Warnings for what proxyless gRPC clients make of a resource, only where gRPC clients get it. */
class GrpcRulesTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final ResourceKey UP = ResourceKey.upstream("default", "up");

  private static ValidationResult validate(String domains, String routes, String loadBalancing) {
    return new Validator().validate(TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}, loadBalancing: %s}
        """.formatted(loadBalancing), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: %s
          routes: %s
        """.formatted(domains, routes)));
  }

  @Test
  void aMethodsMatchWithoutPostNeverMatchesGrpcCalls() {
    ValidationResult result = validate("[web.test]", """
        [{match: {prefix: /a, methods: [GET, PUT]}, route: {upstream: up}},
         {match: {prefix: /b, methods: [GET, POST]}, route: {upstream: up}}]""", "ROUND_ROBIN");
    assertThat(result.status(VS).state()).isEqualTo(State.WARNING);
    assertThat(result.status(VS).problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.routes[0].match.methods");
      assertThat(p.reason()).isEqualTo(Reasons.GRPC_UNMATCHABLE_ROUTE);
      assertThat(p.message()).contains("always POST", "web.test", "left out");
    });
  }

  @Test
  void aPseudoHeaderMatcherIsAbsentForGrpcClients() {
    ValidationResult result = validate("[web.test]",
        "[{match: {prefix: /, headers: [{name: x-a, exact: a}, {name: ':authority', exact: web.test}]},"
            + " route: {upstream: up}}]", "ROUND_ROBIN");
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.routes[0].match.headers[1].name", Reasons.GRPC_UNMATCHABLE_ROUTE));
  }

  @Test
  void redirectsAndDirectResponsesAreNonForwardingForGrpcClients() {
    ValidationResult result = validate("[web.test, '*.web.test']", """
        [{match: {prefix: /old}, redirect: {path: /new}},
         {match: {prefix: /gone}, directResponse: {status: 410}},
         {match: {prefix: /}, route: {upstream: up}}]""", "ROUND_ROBIN");
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.routes[0].redirect", Reasons.GRPC_NON_FORWARDING_ROUTE),
        tuple("spec.routes[1].directResponse", Reasons.GRPC_NON_FORWARDING_ROUTE));
    assertThat(result.status(VS).problems().get(0).message()).contains("non_forwarding_action", "UNAVAILABLE");
  }

  @Test
  void theOptionsADelegatingRouteHandsDownAreCheckedOnItForGrpcClients() {
    ValidationResult result = new Validator().validate(TestManifests.config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes: [{match: {prefix: /a/}, delegate: {ref: {name: a}}, options: {idleTimeout: 5s}}]
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: a}
        spec:
          routes: [{match: {prefix: /a/b}, route: {upstream: up}}]
        """));
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.routes[0].options.idleTimeout", Reasons.GRPC_IGNORED_OPTION));
  }

  /** The old text recommended LEAST_REQUEST, which some gRPC clients reject too. */
  @Test
  void randomIsRejectedByGrpcClientsAndTheAdviceIsAPolicyTheyAllSupport() {
    ResourceStatus up = validate("[web.test]", "[{match: {prefix: /}, route: {upstream: up}}]", "RANDOM").status(UP);
    assertThat(up.state()).isEqualTo(State.WARNING);
    assertThat(up.problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.loadBalancing");
      assertThat(p.reason()).isEqualTo(Reasons.GRPC_INCOMPATIBLE);
      assertThat(p.message()).contains("reject", "ROUND_ROBIN", "RING_HASH").doesNotContain("LEAST_REQUEST");
    });
  }

  @Test
  void leastRequestFallsBackToRoundRobinOnGrpcClientsWithoutIt() {
    ResourceStatus up = validate("[web.test]", "[{match: {prefix: /}, route: {upstream: up}}]", "LEAST_REQUEST")
        .status(UP);
    assertThat(up.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.loadBalancing", Reasons.GRPC_LOAD_BALANCING_FALLBACK));
  }

  @Test
  void nothingReachesGrpcClientsFromAVirtualServiceWithOnlyWildcardDomains() {
    ValidationResult result = validate("['*.web.test', '*']", """
        [{match: {prefix: /old, methods: [GET]}, redirect: {path: /new}},
         {match: {prefix: /}, route: {upstream: up}}]""", "RANDOM");
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(UP).state()).isEqualTo(State.ACCEPTED);
  }

  @Test
  void anUpstreamNoVirtualServiceUsesGetsNoGrpcWarning() {
    ValidationResult result = validate("[web.test]", "[{match: {prefix: /}, directResponse: {status: 200}}]",
        "RANDOM");
    assertThat(result.status(UP).state()).isEqualTo(State.ACCEPTED);
  }
}
