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

  @Test
  void glooEnvironmentVariablesApply() {
    ElectionSettings s = ElectionSettings.fromEnvironment(Map.of(
        "LEADER_ELECTION_LEASE_DURATION", "4s",
        "LEADER_ELECTION_RENEW_PERIOD", "3s",
        "LEADER_ELECTION_RETRY_PERIOD", "500ms",
        "MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER", "1m",
        "POD_NAME", "holdfast-7d9f",
        "POD_NAMESPACE", "gateways"), ElectionSettings.builder()
        .leaderRequestTimeout(Duration.ofMillis(500)).fenceSlack(Duration.ofMillis(250))).build();
    assertThat(s.leaseDuration()).isEqualTo(Duration.ofSeconds(4));
    assertThat(s.renewDeadline()).isEqualTo(Duration.ofSeconds(3));
    assertThat(s.retryPeriod()).isEqualTo(Duration.ofMillis(500));
    assertThat(s.recovery()).isEqualTo(RecoveryPolicy.recoverWithin(Duration.ofMinutes(1)));
    assertThat(s.identity()).isEqualTo("holdfast-7d9f");
    assertThat(s.leaseNamespace()).isEqualTo("gateways");
  }

  @Test
  void disableLeaderElectionMeansSingleReplicaMode() {
    assertThat(ElectionSettings.fromEnvironment(Map.of("DISABLE_LEADER_ELECTION", "TRUE"), ElectionSettings.builder())
        .build().enabled()).isFalse();
    assertThat(ElectionSettings.fromEnvironment(Map.of("DISABLE_LEADER_ELECTION", "false"), ElectionSettings.builder())
        .build().enabled()).isTrue();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "LEADER_ELECTION_LEASE_DURATION|fifteen|LEADER_ELECTION_LEASE_DURATION: 'fifteen' is not a duration",
      "LEADER_ELECTION_RENEW_PERIOD|10|LEADER_ELECTION_RENEW_PERIOD: '10' is not a duration",
      "LEADER_ELECTION_RETRY_PERIOD|2 s|LEADER_ELECTION_RETRY_PERIOD: '2 s' is not a duration",
      "MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER|-5s|MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER: '-5s' is not a duration",
      "MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER|0s|MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER: '0s' must be greater than 0",
      "DISABLE_LEADER_ELECTION|yes|DISABLE_LEADER_ELECTION: 'yes' is not a boolean; use true or false",
  })
  void unparsableEnvironmentValuesAreErrorsNamingTheVariableAndValue(String name, String value, String message) {
    assertThatThrownBy(() -> ElectionSettings.fromEnvironment(Map.of(name, value), ElectionSettings.builder()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void environmentValuesThatParseButBreakTheTimingRuleAreRejectedAtBuild() {
    ElectionSettings.Builder b = ElectionSettings.fromEnvironment(
        Map.of("LEADER_ELECTION_RETRY_PERIOD", "9s"), ElectionSettings.builder().identity("a"));
    assertThatThrownBy(b::build).hasMessage("renewDeadline (10s) must be greater than 1.2 x retryPeriod (9s)");
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

  /** Regression: 3000000h threw ArithmeticException (a stack trace) instead of an error naming the setting. */
  @Test
  void aDurationTooLongForNanosecondsIsAnErrorNamingTheSetting() {
    assertThatThrownBy(() -> Durations.parse("LEADER_ELECTION_LEASE_DURATION", "3000000h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LEADER_ELECTION_LEASE_DURATION: '3000000h' is too long; a duration must be at most 2562047h"
            + " (about 292 years)");
    assertThatThrownBy(() -> ElectionSettings.fromEnvironment(
        Map.of("LEADER_ELECTION_RETRY_PERIOD", "99999999999999999999s"), ElectionSettings.builder()))
        .hasMessageStartingWith("LEADER_ELECTION_RETRY_PERIOD: '99999999999999999999s' is too long");
    assertThat(Durations.parse("x", "2562047h")).isEqualTo(Duration.ofHours(2562047));
    assertThat(Durations.parse("x", "1.5ns")).as("sub-nanosecond fractions dropped, as Go does")
        .isEqualTo(Duration.ofNanos(1));
  }

  @Test
  void maxCloseTimeIsRenewDeadlinePlusFenceSlackPlusTwoLockTimeoutsPlusTwoSeconds() {
    assertThat(build(b -> b).maxCloseTime()).isEqualTo(Duration.ofSeconds(15));
  }

  @ParameterizedTest
  @CsvSource({"15s,15000", "1m,60000", "500ms,500", "1m30s,90000", "1.5s,1500", "2h,7200000", "0,0", "250000us,250"})
  void goDurations(String text, long millis) {
    assertThat(Durations.parse("x", text)).isEqualTo(Duration.ofMillis(millis));
  }

  @Test
  void durationsFormatForMessages() {
    assertThat(Durations.format(Duration.ofMillis(300))).isEqualTo("300ms");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(Durations.format(Duration.ofSeconds(15))).isEqualTo("15s");
  }
}
