package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.server.admin.DataPlaneVerdict.Api;
import io.holdfast.server.admin.DataPlaneVerdict.Facts;
import io.holdfast.server.admin.DataPlaneVerdict.Leadership;
import io.holdfast.server.admin.DataPlaneVerdict.Level;
import io.holdfast.server.admin.DataPlaneVerdict.Reason;
import io.holdfast.server.admin.DataPlaneVerdict.Verdict;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The verdict table, one state at a time, then combinations (worst first) and the headline. */
class DataPlaneVerdictTest {
  private static final Facts HEALTHY = Facts.healthy("v1", List.of("envoy-a", "envoy-b"));

  /** Each state alone on an otherwise healthy replica: its level, its code, and a sentence that says why. */
  static Stream<Arguments> singleStates() {
    Facts h = HEALTHY;
    return Stream.of(
        Arguments.of("no snapshot", new Facts(Optional.empty(), h.proxies(), List.of(), List.of(), List.of(),
            List.of(), Optional.empty(), Api.NOT_USED, Optional.empty(), true, Leadership.LEADING, Optional.empty(),
            List.of(), List.of(), List.of()), Level.BROKEN, "NoSnapshot", "No config is served: a proxy that connects gets nothing"),
        Arguments.of("a connected proxy NACKs the current version", with(h, "nacking", List.of("envoy-a")),
            Level.BROKEN, "ProxiesNacking",
            "1 connected proxy rejects version v1 and keeps running the last version accepted: envoy-a"),
        Arguments.of("an expired certificate", with(h, "expired", List.of("demo/web-tls (-2 days left)")),
            Level.BROKEN, "CertificateExpired", "1 served certificate has expired: demo/web-tls (-2 days left)"),
        Arguments.of("the last build failed", with(h, "build", "failed, so the previous snapshot is still served: "
            + "translate: boom"), Level.AT_RISK, "BuildFailing",
            "The last config build failed, so the previous snapshot is still served: translate: boom"),
        Arguments.of("an unreadable manifest", with(h, "manifest", List.of("web.yaml:4:7: bad indentation")),
            Level.AT_RISK, "ManifestUnreadable",
            "1 manifest problem (each file's last good version is served): web.yaml:4:7: bad indentation"),
        Arguments.of("a rejected object", with(h, "rejected", List.of("VirtualService/demo/web (web.yaml:1)")),
            Level.AT_RISK, "ObjectsRejected",
            "1 object is rejected and not served: VirtualService/demo/web (web.yaml:1)"),
        Arguments.of("a proxy NACKed the current version and left", with(h, "gone", List.of("envoy-c")),
            Level.AT_RISK, "NackedThenGone",
            "1 proxy rejected version v1 and disconnected, so the next proxy may reject it too: envoy-c"),
        Arguments.of("a proxy leaves what was sent unconfirmed", with(h, "behind", List.of("envoy-b")),
            Level.AT_RISK, "ProxiesBehind", "1 connected proxy has not confirmed the config last sent to it for over "
                + "30s, so it runs an older version: envoy-b"),
        Arguments.of("API down, leading", with(with(h, "api", Api.UNREACHABLE), "stale", Duration.ofSeconds(75)),
            Level.AT_RISK, "ApiUnreachable", "The Kubernetes API does not answer: serving the cached config, "
                + "unconfirmed for 1m 15s; this replica leads but cannot write statuses"),
        Arguments.of("config from disk, unconfirmed", with(h, "stale", Duration.ofSeconds(12)), Level.AT_RISK,
            "ServingSavedSnapshot", "Serving the snapshot saved on disk, unconfirmed by the config source for 12s"),
        Arguments.of("first listing unfinished", with(with(h, "api", Api.ANSWERING), "synced", false), Level.AT_RISK,
            "NotSynced", "Not every kind has been listed from the Kubernetes API yet"),
        Arguments.of("no leader confirmed", with(h, "leadership", Leadership.UNCONFIRMED), Level.AT_RISK, "NoLeader",
            "No replica is confirmed as leader, so no status is written to Kubernetes (nobody holds the lease)"),
        Arguments.of("a certificate close to its end", with(h, "expiring", List.of("demo/web-tls (3 days left)")),
            Level.AT_RISK, "CertificateExpiring", "1 served certificate expires soon: demo/web-tls (3 days left)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("singleStates")
  void eachStateAloneGivesItsLevelAndSaysWhy(String state, Facts facts, Level level, String code, String message) {
    Verdict verdict = DataPlaneVerdict.judge(facts);

    assertThat(verdict.level()).isEqualTo(level);
    assertThat(verdict.reasons()).containsExactly(new Reason(level, code, message));
    assertThat(verdict.headline()).isEqualTo(level.label() + ": " + message);
  }

  @Test
  void everyRuleOfTheTableIsCoveredByASingleState() {
    List<String> covered = singleStates().map(a -> (String) a.get()[3]).toList();
    assertThat(covered).containsExactlyInAnyOrderElementsOf(DataPlaneVerdict.RULES.stream().map(
        DataPlaneVerdict.Rule::code).toList());
  }

  @Test
  void safeSaysWhatIsFine() {
    assertThat(DataPlaneVerdict.judge(HEALTHY)).isEqualTo(new Verdict(Level.SAFE, List.of(),
        "Safe: all 2 connected proxies run the current version v1"));
    assertThat(DataPlaneVerdict.judge(Facts.healthy("v1", List.of())).headline())
        .isEqualTo("Safe: serving version v1; no proxy is connected to this replica");
    Facts following = with(with(HEALTHY, "leadership", Leadership.FOLLOWING), "api", Api.ANSWERING);
    assertThat(DataPlaneVerdict.judge(following).level()).as("a follower of a live leader is fine")
        .isEqualTo(Level.SAFE);
  }

  @Test
  void problemsComeWorstFirstAndTheHeadlineCountsTheRest() {
    Facts facts = with(with(with(HEALTHY, "rejected", List.of("Upstream/demo/a")), "api", Api.UNREACHABLE),
        "nacking", List.of("envoy-b"));

    Verdict verdict = DataPlaneVerdict.judge(facts);

    assertThat(verdict.level()).isEqualTo(Level.BROKEN);
    assertThat(verdict.reasons()).extracting(Reason::code)
        .containsExactly("ProxiesNacking", "ObjectsRejected", "ApiUnreachable");
    assertThat(verdict.headline()).startsWith("Broken: 1 connected proxy rejects version v1")
        .endsWith("(and 2 more problems)");
  }

  @Test
  void aFollowerCutOffFromTheApiSaysSoAndNamesTheHolderAsLastSeen() {
    Facts facts = with(with(with(with(HEALTHY, "api", Api.UNREACHABLE), "stale", Duration.ofSeconds(4)),
        "leadership", Leadership.UNCONFIRMED), "holder", "replica-1, seen 9s ago");

    assertThat(DataPlaneVerdict.judge(facts).reasons()).extracting(Reason::message).containsExactly(
        "The Kubernetes API does not answer: serving the cached config, unconfirmed for 4s; changes are not picked up",
        "No replica is confirmed as leader, so no status is written to Kubernetes (lease holder as last seen: "
            + "replica-1, seen 9s ago)");
  }

  @Test
  void longListsNameTheFirstFewAndCountTheRest() {
    Facts facts = with(HEALTHY, "rejected", List.of("a", "b", "c", "d", "e"));

    assertThat(DataPlaneVerdict.judge(facts).reasons().get(0).message())
        .isEqualTo("5 objects are rejected and not served: a; b; c; and 2 more");
  }

  @Test
  void theStateDocumentCarriesLevelHeadlineAndReasons() {
    assertThat(DataPlaneVerdict.judge(with(HEALTHY, "gone", List.of("envoy-c"))).toState()).isEqualTo(
        java.util.Map.of("level", "at-risk", "headline",
            "At risk: 1 proxy rejected version v1 and disconnected, so the next proxy may reject it too: envoy-c",
            "reasons", List.of(java.util.Map.of("level", "at-risk", "code", "NackedThenGone", "message",
                "1 proxy rejected version v1 and disconnected, so the next proxy may reject it too: envoy-c"))));
  }

  /** {@code facts} with one field changed, named as in the table. */
  @SuppressWarnings("unchecked")
  private static Facts with(Facts f, String field, Object value) {
    return new Facts(f.currentVersion(), f.proxies(),
        field.equals("nacking") ? (List<String>) value : f.nacking(),
        field.equals("gone") ? (List<String>) value : f.nackedThenGone(),
        field.equals("rejected") ? (List<String>) value : f.rejected(),
        field.equals("manifest") ? (List<String>) value : f.manifestErrors(),
        field.equals("build") ? Optional.of((String) value) : f.buildProblem(),
        field.equals("api") ? (Api) value : f.api(),
        field.equals("stale") ? Optional.of((Duration) value) : f.staleFor(),
        field.equals("synced") ? (Boolean) value : f.synced(),
        field.equals("leadership") ? (Leadership) value : f.leadership(),
        field.equals("holder") ? Optional.of((String) value) : f.leaseHolder(),
        field.equals("expired") ? (List<String>) value : f.expired(),
        field.equals("expiring") ? (List<String>) value : f.expiring(),
        field.equals("behind") ? (List<String>) value : f.behind());
  }
}
