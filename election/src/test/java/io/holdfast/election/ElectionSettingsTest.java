package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ElectionSettingsTest {
  private static ElectionSettings build(UnaryOperator<ElectionSettings.Builder> edit) {
    return edit.apply(ElectionSettings.builder().identity("a")).build();
  }

  @Test
  void defaultsAreClientGoAndGlooTimings() {
    ElectionSettings s = build(b -> b);
    assertThat(s.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(s.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThat(s.lockTimeout()).isEqualTo(Duration.ofSeconds(1));
    assertThat(s.recovery()).isEqualTo(RecoveryPolicy.RECOVER);
    assertThat(s.enabled()).isTrue();
  }

  @Test
  void defaultIdentityIsHostnameAndARandomSuffixFixedPerBuilder() {
    String id = ElectionSettings.builder().build().identity();
    assertThat(id).matches(".+_[0-9a-f]{8}");
  }

  @Test
  void eachBadCombinationNamesTheSetting() {
    assertThatThrownBy(() -> build(b -> b.leaseDuration(Duration.ZERO)))
        .hasMessage("leaseDuration must be greater than 0, was 0ms");
    assertThatThrownBy(() -> build(b -> b.retryPeriod(Duration.ofSeconds(-1))))
        .hasMessageStartingWith("retryPeriod must be greater than 0");
    assertThatThrownBy(() -> build(b -> b.renewDeadline(Duration.ofSeconds(15))))
        .hasMessage("leaseDuration (15s) must be greater than renewDeadline (15s)");
    assertThatThrownBy(() -> build(b -> b.retryPeriod(Duration.ofMillis(8500))))
        .hasMessage("renewDeadline (10s) must be greater than 1.2 x retryPeriod (8.5s)");
    assertThatThrownBy(() -> build(b -> b.lockTimeout(Duration.ofSeconds(10))))
        .hasMessage("lockTimeout (10s) must be less than renewDeadline (10s)");
    assertThatThrownBy(() -> build(b -> b.leaseDuration(Duration.ofMillis(15500))))
        .hasMessageStartingWith("leaseDuration must be a whole number of seconds");
    assertThatThrownBy(() -> build(b -> b.identity(" ")))
        .hasMessage("identity must not be empty");
    assertThatThrownBy(() -> RecoveryPolicy.recoverWithin(Duration.ZERO))
        .hasMessage("maxRecovery must be > 0, was 0ms");
  }

  /** Issue 10's example: a fence with no margin for the write it let through. */
  @Test
  void aLeaseBarelyLongerThanTheRenewDeadlineIsRefusedNamingTheFencingRule() {
    assertThatThrownBy(() -> build(b -> b.leaseDuration(Duration.ofSeconds(15)).renewDeadline(Duration.ofMillis(14_999))
        .lockTimeout(Duration.ofSeconds(14))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaseDuration (15s) - renewDeadline (14.999s) must be greater than leaderRequestTimeout (2s)"
            + " + fenceSlack (1s): a leader-only write sent just before the fence expires must land before a"
            + " successor can take the lease");
    // Equal is not enough: the write could land the instant a successor takes over.
    assertThatThrownBy(() -> build(b -> b.leaseDuration(Duration.ofSeconds(13))))
        .hasMessageStartingWith("leaseDuration (13s) - renewDeadline (10s) must be greater than leaderRequestTimeout (2s)");
    assertThat(build(b -> b.leaseDuration(Duration.ofSeconds(14))).leaseDuration()).isEqualTo(Duration.ofSeconds(14));
  }

  @Test
  void aLockTimeoutThatLeavesNoRoomForAnotherRenewalIsRefused() {
    assertThatThrownBy(() -> build(b -> b.lockTimeout(Duration.ofSeconds(8)).retryPeriod(Duration.ofSeconds(2))))
        .hasMessage("lockTimeout (8s) + retryPeriod (2s) must be less than renewDeadline (10s): a renewal that"
            + " times out must leave time for another attempt before the fence closes");
    assertThat(build(b -> b.lockTimeout(Duration.ofMillis(7_999))).lockTimeout()).isEqualTo(Duration.ofMillis(7_999));
  }

  /** Regression: a lease of 1000000h passed validation and wrapped negative at the int cast (follower forever). */
  @Test
  void everyTimingIsBoundedAtOneHour() {
    assertThatThrownBy(() -> build(b -> b.leaseDuration(Duration.ofHours(1_000_000))))
        .hasMessage("leaseDuration must be at most 1h, was 3600000000s");
    assertThatThrownBy(() -> build(b -> b.retryPeriod(Duration.ofDays(365L * 1_000_000_000))))
        .hasMessageStartingWith("retryPeriod must be at most 1h, was ");
    for (String name : new String[] {"renewDeadline", "lockTimeout", "leaderRequestTimeout", "fenceSlack"}) {
      assertThatThrownBy(() -> build(b -> switch (name) {
        case "renewDeadline" -> b.renewDeadline(Duration.ofHours(2));
        case "lockTimeout" -> b.lockTimeout(Duration.ofHours(2));
        case "leaderRequestTimeout" -> b.leaderRequestTimeout(Duration.ofHours(2));
        default -> b.fenceSlack(Duration.ofHours(2));
      })).hasMessage(name + " must be at most 1h, was 7200s");
    }
    assertThatThrownBy(() -> RecoveryPolicy.recoverWithin(Duration.ofHours(25)))
        .hasMessage("maxRecovery must be at most 24h, was 90000s");
    ElectionSettings longest = build(b -> b.leaseDuration(Duration.ofHours(1)).renewDeadline(Duration.ofMinutes(50)));
    assertThat(longest.leaseDuration()).isEqualTo(ElectionSettings.MAX_TIMING);
  }

  @Test
  void maxCloseTimeIsRenewDeadlinePlusFenceSlackPlusTwoLockTimeoutsPlusTwoSeconds() {
    assertThat(build(b -> b).maxCloseTime()).isEqualTo(Duration.ofSeconds(15));
  }
}
