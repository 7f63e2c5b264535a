package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Metadata;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Origin;
import io.holdfast.ir.RouteAction;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Failures of Holdfast itself inside a build cost only what they involve, and are counted and shown. */
class ConfigContainmentTest {
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private static final ResourceKey ECHO = new ResourceKey("Upstream", "demo", "echo");
  private static final ResourceKey OTHER = new ResourceKey("Other", "demo", "thing");

  private static GatewayConfig config() {
    return GatewayConfig.builder()
        .add(Upstream.ofHosts(Metadata.of("demo", "echo"), List.of(UpstreamTarget.Host.of("127.0.0.1", 8080))))
        .build();
  }

  /** Another API's front end, lowering one object (a cluster of its own), that fails while {@code fail} holds. */
  private static FrontEnd<GatewayConfig> other(AtomicBoolean fail) {
    return (config, builder) -> {
      builder.status(ObjectStatus.of(OTHER, 1, List.of()), Optional.empty());
      builder.add(new Cluster(Origin.of(OTHER), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
          List.of()));
      if (fail.get()) {
        throw new IllegalStateException("injected front end bug");
      }
    };
  }

  /** ECHO and OTHER are both "present": OTHER stands for an object of another API the config holds. */
  private static GatewayConfig withOther(GatewayConfig config) {
    return config.toBuilder().add(new io.holdfast.api.ApiObject(OTHER, 1,
        tools.jackson.databind.node.JsonNodeFactory.instance.objectNode())).build();
  }

  @Test
  void aFrontEndThatThrowsCostsOnlyItsOwnObjectsWhichKeepTheirLastGoodBuild() {
    AtomicBoolean fail = new AtomicBoolean();
    ConfigCheck check = new ConfigCheck(List.of(new HoldfastFrontEnd(), other(fail)));
    GatewayConfig config = withOther(config());
    assertThat(check.run(config).problems()).isEmpty();

    fail.set(true);
    ConfigCheck.Result result = check.run(config);

    assertThat(result.problems()).singleElement().satisfies(p -> {
      assertThat(p.stage()).isEqualTo(BuildProblem.Stage.FRONTEND);
      assertThat(p.message()).contains("injected front end bug").contains("last good build stands in");
    });
    assertThat(result.statuses().get(ECHO).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(result.statuses().get(OTHER).state()).isEqualTo(ResourceStatus.State.WARNING);
    assertThat(result.statuses().get(OTHER).problems()).extracting(p -> p.reason())
        .containsExactly(ConfigCheck.FRONT_END_FAILED);
    assertThat(result.built().ir().clusters()).extracting(c -> c.origin().object()).containsExactlyInAnyOrder(ECHO, OTHER);
  }

  @Test
  void aFrontEndThatThrowsOnTheFirstBuildLeavesTheOtherFrontEndServed() {
    ConfigCheck check = new ConfigCheck(List.of(other(new AtomicBoolean(true)), new HoldfastFrontEnd()));

    ConfigCheck.Result result = check.run(withOther(config()));

    assertThat(result.problems()).singleElement().satisfies(p ->
        assertThat(p.message()).contains("none of its objects is served until it succeeds"));
    assertThat(result.statuses()).containsOnlyKeys(ECHO);
    assertThat(result.built().ir().clusters()).extracting(c -> c.origin().object()).containsExactly(ECHO);
  }

  @Test
  void anErrorThatLeavesTheJvmUnsoundIsNotContainedHere() {
    ConfigCheck check = new ConfigCheck(List.of((config, builder) -> {
      throw new OutOfMemoryError("injected");
    }));
    assertThatThrownBy(() -> check.run(config())).isInstanceOf(OutOfMemoryError.class);
  }

  @Test
  void anInvariantBreachIsCountedShownAndCostsOnlyItsObject() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    StatusBoard board = new StatusBoard();
    // A route-less TCP listener forwarding to a cluster nobody added: the IR refuses it.
    AtomicBoolean bug = new AtomicBoolean(true);
    FrontEnd<GatewayConfig> broken = (config, builder) -> {
      builder.status(ObjectStatus.of(OTHER, 1, List.of()), Optional.empty());
      if (!bug.get()) {
        return;
      }
      builder.add(new Listener.Socket(Origin.of(OTHER), "0.0.0.0", 9000, List.of(new Listener.FilterChain.Tcp(
          Origin.of(OTHER), "tcp", Listener.ChainMatch.ANY, Optional.empty(),
          List.of(new RouteAction.WeightedCluster(new ResourceKey("Upstream", "demo", "missing"), 1))))));
    };
    ConfigPipeline pipeline = new ConfigPipeline(snapshot -> true, board, Clock.fixed(NOW, ZoneOffset.UTC),
        registry, translation -> { }, new ConfigCheck(List.of(new HoldfastFrontEnd(), broken)));
    for (BuildProblem.Stage stage : BuildProblem.Stage.values()) {
      assertThat(registry.get(ConfigPipeline.BUILD_FAILURES).tag("stage", stage.label()).counter().count())
          .as("registered at 0: " + stage).isZero();
    }

    pipeline.apply(withOther(config()), List.of());

    assertThat(registry.get(ConfigPipeline.BUILD_FAILURES).tag("stage", "ir").counter().count()).isEqualTo(1);
    StatusBoard.Build build = board.current().orElseThrow();
    assertThat(build.statuses().get(ECHO).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(build.statuses().get(OTHER).problems()).extracting(p -> p.reason())
        .containsExactly(IrBuilder.INTERNAL_ERROR);
    assertThat(build.translation().snapshot().ofType("type.googleapis.com/envoy.config.cluster.v3.Cluster"))
        .hasSize(1);
    BuildOutcome outcome = board.lastOutcome().orElseThrow();
    assertThat(outcome.verdict()).isEqualTo(BuildOutcome.Verdict.DEGRADED);
    assertThat(outcome.failedStage()).contains(BuildProblem.Stage.IR);
    assertThat(board.toState()).extractingByKey("lastBuild").asString().contains("degraded").contains("missing");

    bug.set(false);
    pipeline.apply(withOther(config()), List.of());
    assertThat(board.lastOutcome().orElseThrow().verdict()).isEqualTo(BuildOutcome.Verdict.OK);
  }

  /** A front end that contained a failure on one object (rejected it with InternalError) has it counted too. */
  @Test
  void anObjectAFrontEndRejectedForItsOwnFailureIsABuildProblem() {
    ConfigCheck check = new ConfigCheck(List.of(new HoldfastFrontEnd(), (config, builder) ->
        builder.status(ObjectStatus.of(OTHER, 1, List.of(new io.holdfast.ir.Finding(
            io.holdfast.ir.Finding.Severity.ERROR, "", io.holdfast.api.Reasons.INTERNAL_ERROR, "rule bug"))),
            Optional.empty())));

    ConfigCheck.Result result = check.run(withOther(config()));

    assertThat(result.problems()).singleElement().satisfies(p -> {
      assertThat(p.stage()).isEqualTo(BuildProblem.Stage.FRONTEND);
      assertThat(p.objects()).containsExactly(OTHER);
    });
    assertThat(result.statuses().get(ECHO).state()).isEqualTo(ResourceStatus.State.ACCEPTED);
  }

  /** ConfigCheck tells the IR's contained breaches from the front ends' by this one reason. */
  @Test
  void theIrAndTheFrontEndsNameAnInternalErrorAlike() {
    assertThat(IrBuilder.INTERNAL_ERROR).isEqualTo(io.holdfast.api.Reasons.INTERNAL_ERROR);
  }
}
