package io.holdfast.server.fleet;

import static io.holdfast.server.fleet.StateFixtures.V0;
import static io.holdfast.server.fleet.StateFixtures.V1;
import static io.holdfast.server.fleet.StateFixtures.answer;
import static io.holdfast.server.fleet.StateFixtures.kube;
import static io.holdfast.server.fleet.StateFixtures.proxy;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetReportTest {

  private static String proxies(String... proxies) {
    return "[" + String.join(",", proxies) + "]";
  }

  @Test
  void aHealthyFleetIsSafeWithOneLeaderAgreedAndExitsZero() {
    FleetReport report = FleetReport.of(List.of(
        answer("h1:9091", kube("r1", "leader", "r1", true, proxies(proxy("envoy-a", V1, "null")))),
        answer("h2:9091", kube("r2", "follower", "r1", true, proxies(proxy("envoy-b", V1, "null")))),
        answer("h3:9091", kube("r3", "follower", "r1", true, proxies()))));

    assertThat(report.findings()).isEmpty();
    assertThat(report.verdict()).contains(Verdict.SAFE);
    assertThat(report.exitCode()).isZero();
    assertThat(report.leadership().leader()).contains("r1");
    assertThat(report.leadership().agreed()).isTrue();
    assertThat(report.currentVersion()).contains(V1);
  }

  @Test
  void duringAnApiOutageTheLastSeenLeaderStalenessAndProxiesAreReportedAtRisk() {
    FleetReport report = FleetReport.of(List.of(
        answer("h1:9091", kube("r1", "follower", "r1", false, proxies(proxy("envoy-a", V1, "null")))),
        answer("h2:9091", kube("r2", "follower", "r1", false, proxies(proxy("envoy-b", V1, "null")))),
        answer("h3:9091", kube("r3", "follower", "r1", false, proxies()))));

    assertThat(report.verdict()).contains(Verdict.AT_RISK);
    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.leadership().claimants()).isEmpty();
    assertThat(report.leadership().leader()).contains("r1");
    assertThat(report.leadership().agreed()).isTrue();
    assertThat(report.findings()).extracting(FleetReport.Finding::text)
        .contains("no replica leads now (lease holder last seen: r1); proxies are still served, status writes"
            + " wait for a leader")
        .anySatisfy(t -> assertThat(t).startsWith("the Kubernetes API does not answer it (last contact 1m ago)"))
        .anySatisfy(t -> assertThat(t).isEqualTo("its config is unconfirmed by its source for 1m"));
    ReplicaState r1 = report.replicas().get(0).state().orElseThrow();
    assertThat(r1.staleFor()).contains(Duration.ofMinutes(1));
    assertThat(r1.proxies().get(0).inSync()).contains(true);
  }

  @Test
  void aProxyRejectingWhatItWasSentIsBroken() {
    String nack = """
        {"type": "Listener", "version": "%s", "error": "duplicate listener", "at": "2026-12-04T17:00:30Z"}
        """.formatted(V1);
    String stuck = """
        {"nodeId": "envoy-a", "streams": 1, "ackedVersions": {"Cluster": "%s", "Listener": "%s"},
         "sentVersions": {"Cluster": "%s", "Listener": "%s"}, "lastNack": %s}
        """.formatted(V1, V0, V1, V1, nack);
    FleetReport report = FleetReport.of(List.of(answer("h1:9091", kube("r1", "leader", "r1", true,
        proxies(stuck)))));

    assertThat(report.verdict()).contains(Verdict.BROKEN);
    assertThat(report.exitCode()).isEqualTo(2);
    assertThat(report.findings()).singleElement().extracting(FleetReport.Finding::text)
        .isEqualTo("proxy envoy-a rejects Listener version " + V1 + " (it runs " + V0 + "): duplicate listener");
  }

  @Test
  void aProxyNotYetAckingItsLastResponseIsAtRisk() {
    FleetReport report = FleetReport.of(List.of(
        answer("h1:9091", kube("r1", "leader", "r1", true, proxies(proxy("envoy-a", V1, V0, "null"))))));

    assertThat(report.verdict()).contains(Verdict.AT_RISK);
    assertThat(report.findings()).singleElement().extracting(FleetReport.Finding::text).asString()
        .startsWith("proxy envoy-a has not ACKed the last response of Cluster " + V1 + " (ACKed " + V0 + ")");
  }

  /**
   * A type whose content did not change is not sent again (its ACK keeps an older version), and under
   * proxy-identity authorisation versions are the proxy's own view's: neither is "behind".
   */
  @Test
  void aProxyIsJudgedByWhatItWasSentNeverByTheSnapshotsVersion() {
    String view = "77ee77ee77ee77ee";
    String mixed = """
        {"nodeId": "envoy-a", "streams": 1, "ackedVersions": {"Cluster": "%s", "Listener": "%s"},
         "sentVersions": {"Cluster": "%s", "Listener": "%s"}, "lastNack": null}
        """.formatted(V0, view, V0, view);
    FleetReport report = FleetReport.of(List.of(answer("h1:9091", kube("r1", "leader", "r1", true,
        proxies(mixed)))));

    assertThat(report.findings()).isEmpty();
    assertThat(report.replicas().get(0).state().orElseThrow().proxies().get(0).inSync()).contains(true);
  }

  @Test
  void fromAReplicaThatDoesNotSayWhatItSentOnlyANackOfTheServedVersionCounts() {
    String older = """
        {"nodeId": "envoy-a", "streams": 1, "ackedVersions": {"Cluster": "%s", "Listener": "%s"},
         "lastNack": {"type": "Listener", "version": "%s", "error": "bad", "at": "2026-12-04T17:00:30Z"}}
        """.formatted(V0, V0, V1);
    String quiet = """
        {"nodeId": "envoy-b", "streams": 1, "ackedVersions": {"Cluster": "%s"}, "lastNack": null}
        """.formatted(V0);
    FleetReport report = FleetReport.of(List.of(answer("h1:9091", kube("r1", "leader", "r1", true,
        proxies(older, quiet)))));

    assertThat(report.findings()).singleElement().satisfies(f -> {
      assertThat(f.severity()).isEqualTo(Verdict.BROKEN);
      assertThat(f.text()).startsWith("proxy envoy-a rejects Listener version " + V1);
    });
    assertThat(report.replicas().get(0).state().orElseThrow().proxies().get(1).inSync()).isEmpty();
  }

  @Test
  void anUnansweringReplicaIsAtRiskAndNoneAnsweringIsExitThree() {
    FleetReport some = FleetReport.of(List.of(
        answer("h1:9091", kube("r1", "leader", "r1", true, proxies())),
        ReplicaAnswer.failed("h2:9091", "connection refused")));
    FleetReport none = FleetReport.of(List.of(ReplicaAnswer.failed("h1:9091", "connection refused"),
        ReplicaAnswer.failed("h2:9091", "no answer within 3000 ms")));

    assertThat(some.exitCode()).isEqualTo(1);
    assertThat(some.findings()).singleElement().satisfies(f -> {
      assertThat(f.replica()).isEqualTo("h2:9091");
      assertThat(f.text()).isEqualTo("does not answer: connection refused");
    });
    assertThat(none.verdict()).isEmpty();
    assertThat(none.exitCode()).isEqualTo(FleetReport.EXIT_NO_ANSWER);
  }

  @Test
  void replicasNamingDifferentHoldersOrServingDifferentVersionsDisagree() {
    String older = kube("r3", "follower", "r2", true, proxies()).replace("\"snapshotVersion\": \"" + V1,
        "\"snapshotVersion\": \"" + V0);
    FleetReport report = FleetReport.of(List.of(
        answer("h1:9091", kube("r1", "leader", "r1", true, proxies())),
        answer("h2:9091", kube("r2", "follower", "r1", true, proxies())),
        answer("h3:9091", older)));

    assertThat(report.leadership().agreed()).isFalse();
    assertThat(report.leadership().leader()).contains("r1");
    assertThat(report.currentVersion()).contains(V1); // the leader's
    assertThat(report.findings()).extracting(FleetReport.Finding::text).contains(
        "replicas disagree on the lease holder: r1 (seen by r1, r2); r2 (seen by r3)",
        "replicas serve different versions: " + V0 + ", " + V1);
  }

  @Test
  void aReplicasOwnVerdictIsTakenAtItsWordReasonByReason() {
    String ownBroken = kube("r1", "leader", "r1", true, proxies()).replaceFirst("\\{", """
        {"verdict": {"level": "broken", "headline": "Broken: envoy-a rejects the config", "reasons": [
          {"level": "broken", "code": "ProxiesNacking", "message": "1 connected proxy rejects version V"},
          {"level": "at-risk", "code": "ManifestUnreadable", "message": "a.yaml:3: bad"}]},""");
    String ownSafe = kube("r2", "follower", "r1", false, proxies()).replaceFirst("\\{", """
        {"verdict": {"level": "safe", "headline": "Safe", "reasons": []},""");
    FleetReport report = FleetReport.of(List.of(answer("h1:9091", ownBroken), answer("h2:9091", ownSafe)));

    assertThat(report.verdict()).contains(Verdict.BROKEN);
    assertThat(report.findings()).extracting(f -> f.severity().label() + " " + f.replica() + ": " + f.text())
        .containsExactly("broken r1: 1 connected proxy rejects version V", "at risk r1: a.yaml:3: bad");
  }

  @Test
  void theCapturedFileModeStateReadsAsOneSafeSingleReplica() {
    FleetReport report = FleetReport.of(List.of(answer("127.0.0.1:9091", StateFixtures.fileMode())));

    ReplicaState s = report.replicas().get(0).state().orElseThrow();
    assertThat(s.identity()).isEqualTo("holdfast");
    assertThat(s.electionMode()).isEqualTo("single-replica");
    assertThat(s.snapshotVersion()).contains(V1);
    assertThat(s.apiAnswered()).isEmpty();
    assertThat(s.rejected()).isEmpty();
    assertThat(report.leadership().leaseElection()).isFalse();
    assertThat(report.verdict()).contains(Verdict.SAFE);
  }

  @Test
  void missingAndMistypedFieldsReadAsUnknownNeverFail() {
    FleetReport report = FleetReport.of(List.of(
        answer("h1:9091", "{}"),
        answer("h2:9091", """
            {"identity": 7, "role": ["x"], "proxies": "none", "config": {"resources": [1, 2]},
             "snapshotAgeSeconds": "soon", "staleSince": "yesterday", "election": {"holder": {"a": 1}},
             "kube": {"apiAnswered": "no"}}
            """)));

    assertThat(report.findings()).extracting(f -> f.replica() + ": " + f.text())
        .contains("h1:9091: serves no config", "7: serves no config");
    ReplicaState odd = report.replicas().get(1).state().orElseThrow();
    assertThat(odd.role()).isEmpty();
    assertThat(odd.proxies()).isEmpty();
    assertThat(odd.staleFor()).isEmpty();
    assertThat(odd.apiAnswered()).isEmpty();
    assertThat(report.exitCode()).isEqualTo(2);
  }

  @Test
  void rejectedResourcesAndProblemObjectsAreListed() {
    String json = kube("r1", "leader", "r1", true, proxies()).replace(
        "\"Upstream/demo/a\": {\"state\": \"ACCEPTED\", \"observedGeneration\": 1, \"problems\": []}",
        "\"Upstream/demo/a\": {\"state\": \"REJECTED\", \"file\": \"u.yaml\", \"line\": 7, \"problems\": [{\"file\": \"u.yaml\", \"line\": 7,"
            + " \"field\": \"spec.static\", \"reason\": \"UnknownField\", \"message\": \"no such field\"}]}");
    FleetReport report = FleetReport.of(List.of(answer("h1:9091", json)));

    ReplicaState s = report.replicas().get(0).state().orElseThrow();
    assertThat(s.rejected()).singleElement().satisfies(r -> {
      assertThat(r.resource()).isEqualTo("Upstream/demo/a (u.yaml:7)");
      assertThat(r.problems()).containsExactly("u.yaml:7: spec.static: UnknownField: no such field");
    });
    assertThat(report.verdict()).contains(Verdict.AT_RISK);
  }
}
