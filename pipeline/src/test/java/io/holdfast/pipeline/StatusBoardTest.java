package io.holdfast.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.NackEvent;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which resources a NACK is pinned on, and for which version it stays on the board. */
class StatusBoardTest {

  private static final String CDS = "type.googleapis.com/envoy.config.cluster.v3.Cluster";
  private static final Instant AT = Instant.parse("2026-01-02T03:04:05Z");
  private static final ResourceKey ECHO = new ResourceKey("Upstream", "demo", "echo");
  private static final ResourceKey ECHO_V2 = new ResourceKey("Upstream", "demo", "echo-v2");
  private static final ResourceKey VS = new ResourceKey("VirtualService", "demo", "echo");

  private final StatusBoard board = new StatusBoard();

  private static StatusBoard.Build build(String version) {
    var translation = new Translation(XdsSnapshot.empty(), Map.of("demo/echo", ECHO, "demo/echo-v2", ECHO_V2,
        "echo.test", VS, "echo.test:10080", VS));
    return new StatusBoard.Build(version, AT, new TreeMap<>(), List.of(), translation);
  }

  private static NackEvent nack(String version, List<String> names, String error) {
    return new NackEvent("node-1", CDS, version, names, error, AT);
  }

  /** Regression: names were matched with contains, so a NACK of demo/echo-v2 was pinned on demo/echo too. */
  @Test
  void aNackIsPinnedOnTheResourceItsErrorNamesNotOnNamesThatArePrefixesOfIt() {
    board.publish(build("v1"));
    board.onNack(nack("v1", List.of("demo/echo", "demo/echo-v2"),
        "CDS response Cluster 'demo/echo-v2' validation error: Cluster demo/echo-v2: unsupported lb policy: RANDOM"));

    assertThat(board.nackOf(ECHO_V2)).isPresent();
    assertThat(board.nackOf(ECHO)).as("named neither alone nor as a whole word").isEmpty();
  }

  @Test
  void aNameFollowedByPunctuationStillCounts() {
    board.publish(build("v1"));
    board.onNack(nack("v1", List.of("demo/echo", "demo/echo-v2"), "Error adding cluster demo/echo: bad."));
    assertThat(board.nackOf(ECHO)).isPresent();
    assertThat(board.nackOf(ECHO_V2)).isEmpty();

    board.onNack(nack("v1", List.of("echo.test:10080"), "route config echo.test:10080 is invalid"));
    assertThat(board.nackOf(VS)).isPresent();
  }

  @Test
  void anErrorThatNamesNothingIsPinnedOnTheResourcesOfTheRejectedResponse() {
    board.publish(build("v1"));
    board.onNack(nack("v1", List.of("demo/echo"), "something is wrong"));
    assertThat(board.nackOf(ECHO)).isPresent();
    board.onNack(nack("v1", List.of("unknown"), "something else is wrong"));
    assertThat(board.toState().get("unattributedNacks")).asList().hasSize(1);
  }

  @Test
  void aNackOfTheNewVersionThatArrivesBeforeTheBoardLearnsItIsKept() {
    board.publish(build("v1"));
    // The cache already serves v2 and a proxy NACKed it; the pipeline has not told the board yet.
    board.onNack(nack("v2", List.of("demo/echo"), "Cluster demo/echo: bad"));
    assertThat(board.nackOf(ECHO)).as("not a NACK of the version the board shows").isEmpty();

    board.publish(build("v2"));
    assertThat(board.nackOf(ECHO)).get().extracting(NackEvent::rejectedVersion).isEqualTo("v2");
  }

  @Test
  void nacksOfOtherVersionsAreDroppedWhenTheVersionChanges() {
    board.publish(build("v1"));
    board.onNack(nack("v1", List.of("demo/echo"), "Cluster demo/echo: bad"));
    board.onNack(nack("v0", List.of("demo/echo-v2"), "Cluster demo/echo-v2: late NACK of an old version"));
    assertThat(board.nackOf(ECHO_V2)).isEmpty();

    board.publish(build("v1"));
    assertThat(board.nackOf(ECHO)).as("same version: still NACKed").isPresent();
    board.publish(build("v2"));
    assertThat(board.nackOf(ECHO)).isEmpty();
    board.publish(build("v0"));
    assertThat(board.nackOf(ECHO_V2)).as("an old version's NACK does not come back").isEmpty();
  }
}
