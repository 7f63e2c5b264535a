package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.server.fleet.FleetReport;
import io.holdfast.server.fleet.StateFetcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code holdfast status} (the command, run as its own process) against three replicas on the emulated API,
 * before and while the API is cut off from all of them, then with one replica gone as well: it reports the leader
 * as last seen, each replica's staleness, its proxies and their versions, and exits by the verdict. One cluster
 * for every assertion: the status command is cheap, the cluster is not.
 */
@ExtendWith(ProcessCleanup.class)
class StatusDuringOutageIT {
  private static final Duration COMMAND_BOUND = Duration.ofSeconds(90);
  private static final Duration SETTLE = Duration.ofSeconds(60);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  record Run(int code, String out, String err) {
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void statusReportsTheLastSeenLeaderStalenessProxiesAndVersionsWithTheApiCutOff() throws IOException {
    try (OutageCluster c = OutageCluster.start("status-during-outage", 3, List.of())) {
      List<Replica> replicas = c.replicas();
      String leader = c.leader().identity();
      // Proxies on two replicas; the third has none, so the counts per replica differ.
      List<CallClient> proxies = List.of(c.client("proxy-r1", replicas.get(0)), c.client("proxy-r2",
          replicas.get(1)));
      c.awaitServed(proxies);
      List<String> addresses = replicas.stream().map(r -> "127.0.0.1:" + r.adminPort()).toList();
      StateFetcher fetcher = new StateFetcher(Duration.ofSeconds(3), 3);
      await("the fleet is safe: one leader, both proxies in sync").atMost(SETTLE)
          .pollInterval(Duration.ofMillis(200))
          .until(() -> FleetReport.of(fetcher.fetch(addresses)).exitCode() == 0);

      Run before = status(c.dir(), "before", addresses, "text");
      assertThat(before.code()).as(before.toString()).isZero();
      assertThat(before.out()).startsWith("Fleet: SAFE\n")
          .contains("Leader: " + leader + " (leading now; replicas agree)\n");

      c.cutAll();
      await("every replica sees the API gone, serves stale, and none leads").atMost(SETTLE)
          .pollInterval(Duration.ofMillis(200)).until(() -> {
            FleetReport r = FleetReport.of(fetcher.fetch(addresses));
            return r.answered().size() == 3 && r.leadership().claimants().isEmpty()
                && r.answered().stream().map(a -> a.state().orElseThrow()).allMatch(s ->
                s.apiAnswered().equals(Optional.of(false)) && s.staleFor().isPresent());
          });

      Run cut = status(c.dir(), "cut", addresses, "json");
      assertThat(cut.code()).as(cut.toString()).isEqualTo(1);
      JsonNode json = JSON.readTree(cut.out());
      assertThat(json.path("verdict").asString()).isEqualTo("at risk");
      assertThat(json.at("/leadership/leader").asString()).isEqualTo(leader);
      assertThat(json.at("/leadership/claimedBy").size()).isZero();
      assertThat(json.at("/leadership/agreed").asBoolean()).isTrue();
      String version = json.path("currentVersion").asString();
      assertThat(version).isNotEmpty();
      List<String> findings = new ArrayList<>();
      json.path("findings").forEach(f -> findings.add(f.path("text").asString()));
      assertThat(findings).contains("no replica leads now (lease holder last seen: " + leader
          + "); proxies are still served, status writes wait for a leader");
      for (int i = 0; i < 3; i++) {
        JsonNode r = json.path("replicas").get(i);
        assertThat(r.path("identity").asString()).isEqualTo(replicas.get(i).identity());
        assertThat(r.path("leaseHolder").asString()).isEqualTo(leader);
        assertThat(r.path("apiAnswered").asBoolean(true)).isFalse();
        assertThat(r.path("staleForSeconds").asDouble()).isPositive();
        assertThat(r.path("snapshotVersion").asString()).isEqualTo(version);
        JsonNode served = r.path("proxies");
        if (i < 2) {
          assertThat(served.size()).isEqualTo(1);
          assertThat(served.get(0).path("nodeId").asString()).isEqualTo("proxy-r" + (i + 1));
          // In sync: every type's last response ACKed (a type not changed since keeps its older version).
          assertThat(served.get(0).path("inSync").asBoolean()).isTrue();
          assertThat(served.get(0).path("ackedVersions")).isEqualTo(served.get(0).path("sentVersions"));
          assertThat(served.get(0).path("ackedVersions").size()).isPositive();
        } else {
          assertThat(served.size()).isZero();
        }
      }

      Replica gone = replicas.get(2);
      gone.stop();
      Run degraded = status(c.dir(), "one-gone", addresses, "text");
      assertThat(degraded.code()).as(degraded.toString()).isEqualTo(1);
      assertThat(degraded.out()).startsWith("Fleet: AT RISK\n")
          .contains("[at risk] " + addresses.get(2) + ": does not answer: ",
              "Leader: " + leader + " (lease holder last seen; no replica leads now; replicas agree)");
      assertThat(degraded.out().lines()).anySatisfy(l -> assertThat(l).matches(
          "r1\\s+" + addresses.get(0) + "\\s+follower\\s+" + leader + "\\s+" + version + "\\s+.*down\\s+1\\s+0"))
          .anySatisfy(l -> assertThat(l).matches("r1\\s+proxy-r1\\s+1\\s+in sync\\s+none"));
    }
  }

  /** {@code holdfast status --replica ... -o FORMAT} as its own process: exit status, stdout, stderr apart. */
  private static Run status(Path dir, String label, List<String> addresses, String format) {
    List<String> args = new ArrayList<>(List.of("status", "--output", format, "--timeout", "5s"));
    addresses.forEach(a -> args.addAll(List.of("--replica", a)));
    Path out = dir.resolve("status-" + label + ".out");
    Path err = dir.resolve("status-" + label + ".err");
    try {
      Process p = new ProcessBuilder(Launcher.holdfast(args)).redirectOutput(out.toFile())
          .redirectError(err.toFile()).start();
      if (!p.waitFor(COMMAND_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("holdfast status did not finish within " + COMMAND_BOUND);
      }
      return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}
