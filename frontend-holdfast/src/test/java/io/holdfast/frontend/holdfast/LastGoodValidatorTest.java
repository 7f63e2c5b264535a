package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static io.holdfast.api.TestManifests.virtualService;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import org.junit.jupiter.api.Test;

class LastGoodValidatorTest {

  private static final ResourceKey WEB = ResourceKey.virtualService("default", "web");
  private static final String BROKEN_WEB = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web}
      spec:
        domains: [web.test]
        routes:
          - {match: {regex: "(a"}, route: {upstream: a}}
      """;

  private final LastGoodValidator validator = new LastGoodValidator();

  @Test
  void keepsServingTheLastAcceptedVersionAndSaysSoLast() {
    validator.validate(config(upstream("a", 1), virtualService("web", "web.test", "a"), gateway("gw", 8080)));
    ValidationResult broken = validator.validate(config(upstream("a", 1), BROKEN_WEB, gateway("gw", 8080)));

    ResourceStatus status = broken.status(WEB);
    assertThat(status.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(status.problems()).extracting(Problem::reason)
        .containsExactly(Reasons.INVALID_REGEX, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(broken.accepted().virtualServices()).extracting(vs -> vs.key()).containsExactly(WEB);
    assertThat(broken.accepted().virtualServices().get(0).domains()).containsExactly("web.test");
  }

  @Test
  void forgetsADeletedResource() {
    validator.validate(config(upstream("a", 1), virtualService("web", "web.test", "a")));
    validator.validate(config(upstream("a", 1)));
    ValidationResult broken = validator.validate(config(upstream("a", 1), BROKEN_WEB));
    assertThat(broken.status(WEB).problems()).extracting(Problem::reason).containsExactly(Reasons.INVALID_REGEX);
    assertThat(broken.accepted().virtualServices()).isEmpty();
  }

  /** A bad option value rejects the new version; the old one, options and all, is what is served. */
  @Test
  void aBadUpstreamOptionKeepsTheLastAcceptedUpstream() {
    String guarded = upstream("a", 1) + "  circuitBreakers: {maxRequests: %d}\n";
    validator.validate(config(guarded.formatted(10), virtualService("web", "web.test", "a")));
    ValidationResult broken = validator.validate(config(guarded.formatted(0), virtualService("web", "web.test", "a")));

    ResourceKey up = ResourceKey.upstream("default", "a");
    assertThat(broken.status(up).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.circuitBreakers.maxRequests", Reasons.INVALID_CIRCUIT_BREAKERS),
        org.assertj.core.groups.Tuple.tuple("", Reasons.SERVING_LAST_ACCEPTED));
    assertThat(broken.accepted().upstreams()).singleElement().satisfies(u ->
        assertThat(u.options().circuitBreakers().orElseThrow().maxRequests()).contains(10));
    // The VirtualService routing to it is rejected in turn (UpstreamRejected) and served as last accepted too.
    assertThat(broken.status(WEB).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.UPSTREAM_REJECTED, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(broken.accepted().virtualServices()).extracting(vs -> vs.key()).containsExactly(WEB);
  }
}
