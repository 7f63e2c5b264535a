package io.holdfast.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.xds.server.ProxyStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A proxy is behind only when it leaves what was sent to it unconfirmed longer than the grace, without a break. */
class UnconfirmedProxiesTest {
  private static final String LISTENERS = "type.googleapis.com/envoy.config.listener.v3.Listener";
  private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");

  private static ProxyStatus proxy(String node, String acked, String sent) {
    TreeMap<String, String> ackedVersions = new TreeMap<>();
    if (acked != null) {
      ackedVersions.put(LISTENERS, acked);
    }
    TreeMap<String, String> sentVersions = new TreeMap<>();
    sentVersions.put(LISTENERS, sent);
    return new ProxyStatus(node, 1, ackedVersions, Optional.empty(), sentVersions);
  }

  @Test
  void anUpdateInFlightIsNotBehindButOneUnansweredPastTheGraceIs() {
    UnconfirmedProxies unconfirmed = new UnconfirmedProxies();
    List<ProxyStatus> inFlight = List.of(proxy("envoy-a", "v1", "v2"), proxy("envoy-b", "v2", "v2"));
    assertThat(unconfirmed.behind(inFlight, Set.of(), T0)).isEmpty();
    assertThat(unconfirmed.behind(inFlight, Set.of(), T0.plus(UnconfirmedProxies.GRACE))).as("at the grace").isEmpty();
    assertThat(unconfirmed.behind(inFlight, Set.of(), T0.plus(UnconfirmedProxies.GRACE).plusSeconds(1)))
        .containsExactly("envoy-a");
  }

  @Test
  void anAnswerResetsTheClock() {
    UnconfirmedProxies unconfirmed = new UnconfirmedProxies();
    unconfirmed.behind(List.of(proxy("envoy-a", "v1", "v2")), Set.of(), T0);
    // It ACKed v2, then the next update is in flight: a new wait, not the old one continued.
    unconfirmed.behind(List.of(proxy("envoy-a", "v2", "v2")), Set.of(), T0.plusSeconds(20));
    assertThat(unconfirmed.behind(List.of(proxy("envoy-a", "v2", "v3")), Set.of(), T0.plusSeconds(25))).isEmpty();
    assertThat(unconfirmed.behind(List.of(proxy("envoy-a", "v2", "v3")), Set.of(), T0.plusSeconds(40))).isEmpty();
    assertThat(unconfirmed.behind(List.of(proxy("envoy-a", "v2", "v3")), Set.of(), T0.plus(Duration.ofSeconds(56))))
        .containsExactly("envoy-a");
  }

  @Test
  void nackingProxiesAndProxiesNothingWasSentToAreLeftToOtherRules() {
    UnconfirmedProxies unconfirmed = new UnconfirmedProxies();
    ProxyStatus nacking = proxy("envoy-n", "v1", "v2");
    ProxyStatus fresh = new ProxyStatus("envoy-f", 1, new TreeMap<>(), Optional.empty(), new TreeMap<>());
    unconfirmed.behind(List.of(nacking, fresh), Set.of("envoy-n"), T0);
    assertThat(unconfirmed.behind(List.of(nacking, fresh), Set.of("envoy-n"), T0.plusSeconds(120))).isEmpty();
  }
}
