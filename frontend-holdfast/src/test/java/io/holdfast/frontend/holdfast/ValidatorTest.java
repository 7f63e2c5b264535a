package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static io.holdfast.api.TestManifests.virtualService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValidatorTest {

  private static final ResourceKey UP_A = ResourceKey.upstream("default", "a");
  private static final ResourceKey UP_B = ResourceKey.upstream("default", "b");
  private static final ResourceKey VS_WEB = ResourceKey.virtualService("default", "web");
  private static final ResourceKey VS_API = ResourceKey.virtualService("default", "api");
  private static final ResourceKey GW = ResourceKey.gateway("default", "gw");

  private final Validator validator = new Validator();

  @Test
  void consistentConfigIsAcceptedWholeAndSelectionsAreResolved() {
    ValidationResult result = validator.validate(config(upstream("a", 9101), virtualService("web", "web.test", "a"),
        gateway("gw", 10080)));
    assertThat(result.statuses().values()).extracting(ResourceStatus::state).containsOnly(State.ACCEPTED);
    assertThat(result.statuses()).containsOnlyKeys(UP_A, VS_WEB, GW);
    Gateway gateway = result.accepted().gateways().get(0);
    assertThat(gateway.selection()).isEqualTo(new VirtualServiceSelection.Named(List.of(ObjectRef.of("default", "web"))));
    assertThat(result.accepted().upstreams()).hasSize(1);
    assertThat(result.accepted().virtualServices()).hasSize(1);
  }

  @Test
  void rejectionCascadesFromUpstreamThroughVirtualServiceToGatewayWarning() {
    ValidationResult result = validator.validate(config(upstream("a", 0), upstream("b", 9102),
        virtualService("web", "web.test", "a"), gateway("gw", 10080)));
    assertThat(result.status(UP_A).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(UP_B).state()).isEqualTo(State.ACCEPTED);
    ResourceStatus vs = result.status(VS_WEB);
    assertThat(vs.state()).isEqualTo(State.REJECTED);
    assertThat(vs.problems()).containsExactly(new Problem("spec.routes[0].route.upstream", Reasons.UPSTREAM_REJECTED,
        "Upstream/default/a is rejected; see its status"));
    ResourceStatus gw = result.status(GW);
    assertThat(gw.state()).isEqualTo(State.WARNING);
    assertThat(gw.problems()).extracting(Problem::reason)
        .containsExactly(Reasons.VIRTUAL_SERVICE_REJECTED, Reasons.NO_VIRTUAL_SERVICES);
    GatewayConfig accepted = result.accepted();
    assertThat(accepted.upstreams()).extracting(u -> u.key()).containsExactly(UP_B);
    assertThat(accepted.virtualServices()).isEmpty();
    assertThat(accepted.gateways()).singleElement()
        .satisfies(g -> assertThat(g.selection()).isEqualTo(new VirtualServiceSelection.Named(List.of())));
  }

  @Test
  void unparsedUpstreamCountsAsRejectedNotMissing() {
    ValidationResult result = validator.validate(config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: a, generation: 4}
        spec: {static: {hosts: []}, colour: blue}
        """, virtualService("web", "web.test", "a")));
    assertThat(result.status(UP_A)).satisfies(s -> {
      assertThat(s.state()).isEqualTo(State.REJECTED);
      assertThat(s.observedGeneration()).isEqualTo(4);
      assertThat(s.problems()).extracting(Problem::field, Problem::reason)
          .containsExactly(tuple("spec.colour", Reasons.UNKNOWN_FIELD));
    });
    assertThat(result.status(VS_WEB).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.UPSTREAM_REJECTED);
  }

  @Test
  void partlyServedGatewayWarnsAndServesTheRest() {
    ValidationResult result = validator.validate(config(upstream("a", 9101),
        virtualService("web", "web.test", "a"), virtualService("api", "api.test", "missing"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw}
        spec: {port: 8080, virtualServices: [{name: web}, {name: api}, {name: ghost}]}
        """));
    assertThat(result.status(VS_API).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.UPSTREAM_NOT_FOUND);
    ResourceStatus gw = result.status(GW);
    assertThat(gw.state()).isEqualTo(State.WARNING);
    assertThat(gw.problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.virtualServices[1]", Reasons.VIRTUAL_SERVICE_REJECTED),
        tuple("spec.virtualServices[2]", Reasons.VIRTUAL_SERVICE_NOT_FOUND));
    assertThat(result.accepted().gateways().get(0).selection())
        .isEqualTo(new VirtualServiceSelection.Named(List.of(ObjectRef.of("default", "web"))));
  }

  @Test
  void labelSelectorServesOnlyMatchingVirtualServicesOfItsNamespace() {
    String labelled = """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: %s, labels: {expose: "yes"}}
        spec:
          domains: [%s]
          routes: [{match: {prefix: /}, route: {upstream: a, namespace: default}}]
        """;
    ValidationResult result = validator.validate(config(upstream("a", 9101), virtualService("web", "web.test", "a"),
        labelled.formatted("api", "default", "api.test"), labelled.formatted("other", "team", "other.test"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw}
        spec: {port: 8080, selector: {matchLabels: {expose: "yes"}}}
        """));
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.accepted().gateways().get(0).selection())
        .isEqualTo(new VirtualServiceSelection.Named(List.of(ObjectRef.of("default", "api"))));
  }

  @Test
  void gatewayWithNothingToServeWarns() {
    ResourceStatus gw = validator.validate(config(gateway("gw", 8080))).status(GW);
    assertThat(gw.state()).isEqualTo(State.WARNING);
    assertThat(gw.problems()).extracting(Problem::reason).containsExactly(Reasons.NO_VIRTUAL_SERVICES);
  }

  @Test
  void duplicateDomainGoesToTheOldestWhateverTheInputOrder() {
    String older = virtualServiceCreated("zeta", "2026-01-01T00:00:00Z", "shared.test, zeta.test");
    String newer = virtualServiceCreated("alpha", "2026-02-01T00:00:00Z", "alpha.test, shared.test");
    String gw = gateway("gw", 8080);
    for (GatewayConfig config : List.of(config(upstream("a", 1), older, newer, gw),
        config(newer, gw, upstream("a", 1), older))) {
      ValidationResult result = validator.validate(config);
      assertThat(result.status(ResourceKey.virtualService("default", "zeta")).state()).isEqualTo(State.ACCEPTED);
      assertThat(result.status(ResourceKey.virtualService("default", "alpha")).problems()).containsExactly(
          new Problem("spec.domains[1]", Reasons.DUPLICATE_DOMAIN,
              "domain \"shared.test\" is already served by VirtualService/default/zeta, which is older, on"
              + " Gateway/default/gw (one route configuration holds a domain once)"));
      assertThat(result.accepted().virtualServices()).extracting(VirtualService::key)
          .containsExactly(ResourceKey.virtualService("default", "zeta"));
    }
  }

  @Test
  void withoutTimestampsNamespaceThenNameDecides() {
    ValidationResult result = validator.validate(config(upstream("a", 1),
        virtualService("b", "shared.test", "a"), virtualService("a", "shared.test", "a"), gateway("gw", 8080)));
    assertThat(result.status(ResourceKey.virtualService("default", "a")).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(ResourceKey.virtualService("default", "b")).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.DUPLICATE_DOMAIN);
    assertThat(result.status(ResourceKey.virtualService("default", "b")).state()).isEqualTo(State.REJECTED);
  }

  @Test
  void rejectedOwnerDoesNotBlockTheDomain() {
    ValidationResult result = validator.validate(config(upstream("a", 1),
        virtualService("a", "shared.test", "missing"), virtualService("b", "shared.test", "a")));
    assertThat(result.status(ResourceKey.virtualService("default", "a")).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.UPSTREAM_NOT_FOUND);
    assertThat(result.status(ResourceKey.virtualService("default", "b")).state()).isEqualTo(State.ACCEPTED);
  }

  @Test
  void loserOfADomainClaimsNothingSoAThirdCanHaveItsOtherDomain() {
    ValidationResult result = validator.validate(config(upstream("a", 1),
        virtualServiceCreated("first", "2026-01-01T00:00:00Z", "x.test"),
        virtualServiceCreated("second", "2026-01-02T00:00:00Z", "x.test, y.test"),
        virtualServiceCreated("third", "2026-01-03T00:00:00Z", "y.test"), gateway("gw", 8080)));
    assertThat(result.status(ResourceKey.virtualService("default", "second")).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(ResourceKey.virtualService("default", "third")).state()).isEqualTo(State.ACCEPTED);
  }

  @Test
  void overlappingListenersGoToTheOldest() {
    String wildcard = """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: %s, creationTimestamp: "%s"}
        spec: {port: 8080, bindAddress: %s}
        """;
    ValidationResult result = validator.validate(config(
        wildcard.formatted("new", "2026-03-01T00:00:00Z", "127.0.0.1"),
        wildcard.formatted("old", "2026-01-01T00:00:00Z", "0.0.0.0"),
        wildcard.formatted("other-port", "2026-04-01T00:00:00Z", "127.0.0.1").replace("8080", "8081")));
    assertThat(result.status(ResourceKey.gateway("default", "new")).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.DUPLICATE_LISTENER);
    assertThat(result.status(ResourceKey.gateway("default", "new")).problems().get(0).message())
        .contains("Gateway/default/old");
    assertThat(result.accepted().gateways()).extracting(Gateway::key).containsExactly(
        ResourceKey.gateway("default", "old"), ResourceKey.gateway("default", "other-port"));
  }

  @Test
  void duplicateKeysRejectEveryCopy() {
    ValidationResult result = validator.validate(config(upstream("a", 1), upstream("a", 2),
        virtualService("web", "web.test", "a")));
    assertThat(result.status(UP_A).problems()).containsExactly(new Problem("metadata.name",
        Reasons.DUPLICATE_RESOURCE, "Upstream/default/a is defined 2 times; keep exactly one definition"));
    assertThat(result.status(VS_WEB).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.UPSTREAM_REJECTED);
    assertThat(result.accepted().upstreams()).isEmpty();
  }

  @Test
  void warningsKeepTheResourceServed() {
    ValidationResult result = validator.validate(config("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: a}
        spec: {static: {hosts: []}, loadBalancing: RANDOM}
        ""","""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes:
            - {match: {prefix: /old}, redirect: {path: /new}, timeout: 1s}
            - {match: {prefix: /}, route: {upstream: a}}
        """));
    assertThat(result.status(UP_A).state()).isEqualTo(State.WARNING);
    assertThat(result.status(UP_A).problems()).extracting(Problem::reason).containsExactly(Reasons.GRPC_INCOMPATIBLE);
    ResourceStatus vs = result.status(VS_WEB);
    assertThat(vs.state()).isEqualTo(State.WARNING);
    assertThat(vs.problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.routes[0].timeout", Reasons.FIELD_IGNORED),
            tuple("spec.routes[0].redirect", Reasons.GRPC_NON_FORWARDING_ROUTE));
    assertThat(result.accepted().virtualServices()).hasSize(1);
    assertThat(result.accepted().upstreams()).hasSize(1);
  }

  @Test
  void observedGenerationFollowsMetadata() {
    ValidationResult result = validator.validate(config(upstream("a", 1).replace("{name: a}", "{name: a, generation: 9}")));
    assertThat(result.status(UP_A).observedGeneration()).isEqualTo(9);
  }

  private static String virtualServiceCreated(String name, String created, String domains) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, creationTimestamp: "%s"}
        spec:
          domains: [%s]
          routes: [{match: {prefix: /}, route: {upstream: a}}]
        """.formatted(name, created, domains);
  }
}
