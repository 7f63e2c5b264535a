package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The status page's HTML without a browser: wording, escaping, empty states. */
@SuppressWarnings("unchecked")
class StatusPageTest {
  private static final String NOW = "2026-01-02T03:04:05Z";
  private static final String EVIL = "<script>alert(\"x\")</script> it's";
  private static final String EVIL_ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; it&#39;s";

  /** A follower during an outage: stale view, API not answering, one proxy that NACKed, one rejected resource. */
  private static Map<String, Object> outage() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("identity", "replica-2");
    s.put("role", "follower");
    s.put("electionMode", "lease");
    Map<String, Object> election = new HashMap<>();
    election.put("state", "follower");
    election.put("holder", "replica-1");
    election.put("holderSeenSecondsAgo", 195.0);
    election.put("term", null);
    election.put("leaseTransitions", 3);
    election.put("secondsSinceRenew", 192.4);
    election.put("watchHealthy", false);
    election.put("lastError", null);
    s.put("election", election);
    s.put("kube", Map.of("synced", true, "apiAnswered", false, "staleSince", "2026-01-02T03:00:53Z",
        "lastContact", "2026-01-02T03:00:50Z", "secondsSinceContact", 195.0));
    s.put("snapshotVersion", "v-abc123");
    s.put("staleSince", "2026-01-02T03:00:53Z");
    s.put("snapshotAgeSeconds", 7322.0);
    s.put("xdsStreams", Map.of(EVIL, 2));
    Map<String, Object> nack = new LinkedHashMap<>();
    nack.put("type", "Listener");
    nack.put("version", "v-abc123");
    nack.put("error", EVIL);
    nack.put("at", "2026-01-02T03:03:05Z");
    Map<String, Object> proxy = new LinkedHashMap<>();
    proxy.put("nodeId", EVIL);
    proxy.put("streams", 2);
    proxy.put("ackedVersions", Map.of("Cluster", "v-abc123", "Listener", "v-old999"));
    proxy.put("lastNack", nack);
    s.put("proxies", List.of(proxy));
    s.put("config", Map.of("version", "v-abc123", "builtAt", "2026-01-02T01:02:03Z",
        "manifestErrors", List.of(), "unattributedNacks", List.of(),
        "resources", new java.util.TreeMap<>(Map.of(
            "VirtualService/demo/echo", Map.of("state", "ACCEPTED", "observedGeneration", 1, "problems", List.of()),
            "VirtualService/demo/broken", Map.of("state", "REJECTED", "observedGeneration", 2,
                "problems", List.of(Map.of("severity", "ERROR", "field", "spec.routes[0].route.upstream",
                    "reason", "UpstreamNotFound", "message", "upstream " + EVIL + " not found")))))));
    s.put("verdict", Map.of("level", "broken", "headline", "Broken: whatever", "reasons", List.of(
        Map.of("level", "broken", "code", "ProxiesNacking", "message", "1 connected proxy rejects version v-abc123"),
        Map.of("level", "at-risk", "code", "ApiUnreachable", "message", "The Kubernetes API does not answer " + EVIL))));
    s.put("timeline", List.of(
        Map.of("at", "2026-01-02T03:00:53Z", "kind", "outage",
            "text", "Config view went stale: the API does not answer"),
        Map.of("at", "2026-01-02T02:00:00Z", "kind", "leadership", "text", "Lease holder is now replica-1")));
    s.put("generatedAt", NOW);
    return s;
  }

  @Test
  void anOutageReadsAsOneAtAGlance() {
    String html = StatusPage.render(outage());

    assertThat(html).contains("<meta http-equiv=\"refresh\" content=\"5\">")
        .contains("<td id=\"role\">Follower</td>")
        .contains("<td id=\"lease-holder\">replica-1 as last seen 3m 15s ago</td>")
        .contains("<td id=\"term\">not leading</td>")
        .contains("<td id=\"since-renew\">3m 12s ago</td>")
        .contains("<td id=\"api\" class=\"bad\">Unreachable</td>")
        .contains("<td id=\"stale-for\" class=\"warn\">stale for 3m 12s (since 2026-01-02 03:00:53 UTC)</td>")
        .contains("<td id=\"snapshot-version\">v-abc123</td>")
        .contains("<td id=\"snapshot-age\">2h 2m ago</td>")
        .contains("<p id=\"summary\" class=\"summary bad\" data-level=\"broken\">Broken: 1 connected proxy rejects "
            + "version v-abc123. The Kubernetes API does not answer " + EVIL_ESCAPED + ".</p>")
        .contains("<th>Clusters ACKed</th>", "<th>Listeners ACKed</th>", "v-old999")
        .contains("Listeners version v-abc123 rejected, 1m ago (2026-01-02 03:03:05 UTC): " + EVIL_ESCAPED)
        .contains("<td class=\"bad verdict\">Rejected</td>", "<td class=\"ok verdict\">Accepted</td>")
        .contains("<td class=\"kind\">API outage</td>", "3m 12s ago (2026-01-02 03:00:53 UTC)")
        .contains("not watching (polling)");
  }

  @Test
  void everythingShownIsEscaped() {
    String html = StatusPage.render(outage());

    assertThat(html).doesNotContain("<script").doesNotContain("alert(\"x\")")
        .contains("<td class=\"node\">" + EVIL_ESCAPED + "</td>")
        .contains("upstream " + EVIL_ESCAPED + " not found");
    Map<String, Object> evilKeys = new LinkedHashMap<>(outage());
    evilKeys.put("identity", EVIL);
    evilKeys.put("certificate<b>Expiry", EVIL);
    assertThat(StatusPage.render(evilKeys)).doesNotContain("<script").doesNotContain("<b>")
        .contains("<title>Holdfast " + EVIL_ESCAPED + "</title>");
  }

  @Test
  void labelsAreForPeopleNotRawKeysOrLists() {
    Map<String, Object> state = new LinkedHashMap<>(outage());
    state.put("certificateExpirySeconds", 86400);
    state.put("tlsFiles", List.of());
    String html = StatusPage.render(state);

    assertThat(html).doesNotContain("[]").doesNotContain("secondsSinceRenew").doesNotContain("snapshotVersion")
        .doesNotContain(">ACCEPTED<").doesNotContain(">follower<")
        .contains("<th>Certificate expiry seconds</th><td>86400</td>", "<th>Tls files</th><td>none</td>");
  }

  @Test
  void anEmptyStartReadsAsSuchAndSaysWhatIsMissing() {
    String html = StatusPage.render(Map.of("identity", "holdfast", "role", "leader",
        "electionMode", "single-replica", "xdsStreams", Map.of(), "proxies", List.of(),
        "config", new HashMap<>(Map.of()), "timeline", List.of(), "generatedAt", NOW));

    assertThat(html).contains("<p id=\"summary\" class=\"summary warn\" data-level=\"unknown\">Verdict unknown: "
            + "this replica&#39;s state has none</p>")
        .contains("<td id=\"role\" class=\"ok\">Leader</td>")
        .contains("Single replica (always leader)")
        .contains("<td id=\"source\">Files in the config directory</td>")
        .contains("<td id=\"stale-for\" class=\"ok\">current</td>")
        .contains("<p id=\"proxies\" class=\"muted\">No proxy is connected to this replica.</p>")
        .contains("<p id=\"resources\" class=\"muted\">No config has been built yet.</p>")
        .contains("<p id=\"timeline\" class=\"muted\">Nothing has happened yet.</p>")
        .doesNotContain("[]").doesNotContain("null");
  }

  @Test
  void aHealthyReplicaSaysSo() {
    Map<String, Object> state = new LinkedHashMap<>(outage());
    state.put("role", "leader");
    state.put("kube", Map.of("synced", true, "apiAnswered", true, "lastContact", "2026-01-02T03:04:04Z"));
    state.remove("staleSince");
    state.put("proxies", List.of());
    state.put("config", Map.of("version", "v-abc123", "resources", Map.of("Upstream/demo/a",
        Map.of("state", "ACCEPTED", "problems", List.of()))));
    state.put("verdict", DataPlaneVerdict.judge(DataPlaneVerdict.Facts.healthy("v-abc123", List.of())).toState());
    String html = StatusPage.render(state);

    assertThat(html).contains("<p id=\"summary\" class=\"summary ok\" data-level=\"safe\">Safe: serving version "
            + "v-abc123; no proxy is connected to this replica</p>")
        .contains("<td id=\"api\" class=\"ok\">Reachable</td>")
        .contains("<td id=\"last-contact\">1s ago (2026-01-02 03:04:04 UTC)</td>");
  }

  @Test
  void certificatesShowTheirExpiryAndOneAboutToExpireIsFlagged() {
    Map<String, Object> state = new LinkedHashMap<>(outage());
    state.put("certificates", List.of(
        Map.of("secret", "demo/" + EVIL, "notAfter", "2026-01-05T00:00:00Z", "daysLeft", 2),
        Map.of("secret", "demo/long", "notAfter", "2027-01-05T00:00:00Z", "daysLeft", 367)));
    String html = StatusPage.render(state);

    assertThat(html).contains("<td>demo/long</td><td>2027-01-05 00:00:00 UTC</td><td class=\"ok\">expires in 367 days</td>")
        .contains("<td class=\"warn\">expires in 2 days</td>")
        .doesNotContain("<th>Other</th>").doesNotContain("daysLeft");
  }

  /** Regression: a follower showed "Lease holder: replica-2 (this replica)" from its stale record. */
  @Test
  void aFollowersOwnStaleRecordIsNotCalledThisReplica() {
    Map<String, Object> state = new LinkedHashMap<>(outage());
    Map<String, Object> election = new HashMap<>((Map<String, Object>) state.get("election"));
    election.put("holder", "replica-2");
    election.put("holderSeenSecondsAgo", 12.0);
    state.put("election", election);

    assertThat(StatusPage.render(state)).contains("<td id=\"lease-holder\">replica-2 as last seen 12s ago (this "
        + "replica&#39;s own record; it no longer leads)</td>").doesNotContain("(this replica)");
    state.put("role", "leader");
    assertThat(StatusPage.render(state)).contains("<td id=\"lease-holder\">replica-2 (this replica)</td>");
  }

  @Test
  void problemsComeFirstAndFileProblemsReadAsFileLineColumn() {
    Map<String, Object> state = new LinkedHashMap<>(outage());
    Map<String, Object> config = new LinkedHashMap<>((Map<String, Object>) state.get("config"));
    config.put("manifestErrors", List.of(Map.of("file", "web.yaml", "line", 4, "column", 7, "message", "bad")));
    state.put("config", config);
    String html = StatusPage.render(state);

    assertThat(html.indexOf("VirtualService/demo/broken")).isLessThan(html.indexOf("VirtualService/demo/echo"));
    assertThat(html).contains("<li>web.yaml:4:7: bad</li>");
  }

  @Test
  void durationsAreHumanised() {
    assertThat(StatusPage.humanDuration(Duration.ofMillis(400))).isEqualTo("0.4s");
    assertThat(StatusPage.humanDuration(Duration.ofSeconds(2))).isEqualTo("2s");
    assertThat(StatusPage.humanDuration(Duration.ofSeconds(42))).isEqualTo("42s");
    assertThat(StatusPage.humanDuration(Duration.ofSeconds(192))).isEqualTo("3m 12s");
    assertThat(StatusPage.humanDuration(Duration.ofSeconds(60))).isEqualTo("1m");
    assertThat(StatusPage.humanDuration(Duration.ofMinutes(125))).isEqualTo("2h 5m");
    assertThat(StatusPage.humanDuration(Duration.ofHours(76))).isEqualTo("3d 4h");
    assertThat(StatusPage.humanDuration(Duration.ofSeconds(-5))).isEqualTo("0s");
    assertThat(StatusPage.humanKey("secondsSinceRenew")).isEqualTo("Seconds since renew");
    assertThat(StatusPage.typeLabel("type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment"))
        .isEqualTo("Endpoints");
  }
}
