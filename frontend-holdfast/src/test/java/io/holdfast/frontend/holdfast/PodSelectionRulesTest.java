package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Cluster;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A kube Upstream's selector in validation and lowering: its cluster gets the narrowed endpoints, never the whole
 * Service's; a source that has the Service but not the pods' labels leaves it without endpoints and says so
 * ({@code PodLabelsUnavailable}); a selector past the bound rejects the Upstream (issue 27).
 */
class PodSelectionRulesTest {

  private static final ResourceKey UP = ResourceKey.upstream("default", "canary");
  private static final ServiceRef WHOLE = new ServiceRef("default", "echo", 80);
  private static final ServiceRef CANARY = ServiceRef.selecting("default", "echo", 80, Map.of("track", "canary"));
  private static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: canary}
      spec: {kube: {name: echo, port: 80, selector: {track: canary}}}
      """;

  private final Validator validator = new Validator();

  private static List<String> clusterEndpoints(GatewayConfig accepted) {
    Cluster cluster = HoldfastFrontEnd.lowerAccepted(accepted).clusters().stream()
        .filter(c -> c.origin().object().equals(UP)).findFirst().orElseThrow();
    return cluster.endpoints().stream().map(Cluster.WeightedEndpoint::address).toList();
  }

  @Test
  void theClusterGetsTheNarrowedEndpointsOnly() {
    ValidationResult result = validator.validate(config(Map.of(
        WHOLE, List.of(new Endpoint("127.0.0.1", 8080), new Endpoint("127.0.0.2", 8080)),
        CANARY, List.of(new Endpoint("127.0.0.1", 8080))), UPSTREAM));

    assertThat(result.status(UP).state()).isEqualTo(State.ACCEPTED);
    assertThat(clusterEndpoints(result.accepted())).containsExactly("127.0.0.1");
  }

  @Test
  void aServiceWhosePodsLabelsTheSourceCannotReadLeavesTheUpstreamEmptyWithAWarning() {
    ValidationResult result = validator.validate(config(Map.of(
        WHOLE, List.of(new Endpoint("127.0.0.1", 8080), new Endpoint("127.0.0.2", 8080))), UPSTREAM));

    assertThat(result.status(UP).state()).isEqualTo(State.WARNING);
    assertThat(result.status(UP).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.kube.selector", Reasons.POD_LABELS_UNAVAILABLE));
    assertThat(clusterEndpoints(result.accepted())).isEmpty();
  }

  @Test
  void noServiceAtAllIsNotAPodLabelsProblem() {
    ValidationResult result = validator.validate(config(Map.of(), UPSTREAM));

    assertThat(result.status(UP).problems()).extracting(Problem::reason)
        .doesNotContain(Reasons.POD_LABELS_UNAVAILABLE);
  }

  @Test
  void aSelectorPastTheBoundRejectsTheUpstream() {
    String labels = IntStream.rangeClosed(0, UpstreamTarget.Kube.MAX_SELECTOR_LABELS)
        .mapToObj(i -> "k" + i + ": v").collect(Collectors.joining(", "));
    ValidationResult result = validator.validate(config(Map.of(), UPSTREAM.replace("{track: canary}",
        "{" + labels + "}")));

    assertThat(result.status(UP).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(UP).problems()).extracting(Problem::field, Problem::reason)
        .contains(org.assertj.core.groups.Tuple.tuple("spec.kube.selector", Reasons.INVALID_VALUE));
  }
}
