package io.holdfast.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({"15s,15000000000", "1m,60000000000", "500ms,500000000", "1m30s,90000000000", "1.5s,1500000000",
      "2h,7200000000000", "0,0", "0s,0", "250000us,250000000", "1500µs,1500000", "1.5ns,1", "7ns,7"})
  void goSyntax(String text, long nanos) {
    assertThat(Durations.parse("x", text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "5", "10", "-1s", "1 s", " 1s", "s", "1d", "1.s", ".5s", "2S", "fifteen", "1s2"})
  void everythingElseIsAnErrorNamingTheSettingAndTheRule(String text) {
    assertThatThrownBy(() -> Durations.parse("LEADER_ELECTION_LEASE_DURATION", text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LEADER_ELECTION_LEASE_DURATION: '" + text + "' is not a duration; use a number with a unit"
            + " (ns, us, ms, s, m, h), e.g. 15s, 1m30s, 500ms");
  }

  @Test
  void nullIsNotADuration() {
    assertThatThrownBy(() -> Durations.parse("x", null)).hasMessageStartingWith("x: 'null' is not a duration");
  }

  /** Regression (election): 3000000h threw ArithmeticException instead of an error naming the setting. */
  @Test
  void tooLongForNanosecondsIsAnErrorNamingTheSetting() {
    assertThatThrownBy(() -> Durations.parse("LEADER_ELECTION_LEASE_DURATION", "3000000h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("LEADER_ELECTION_LEASE_DURATION: '3000000h' is too long; a duration must be at most 2562047h"
            + " (about 292 years)");
    assertThatThrownBy(() -> Durations.parse("r", "99999999999999999999s"))
        .hasMessageStartingWith("r: '99999999999999999999s' is too long");
    assertThat(Durations.parse("x", "2562047h")).isEqualTo(Duration.ofHours(2562047));
  }

  @Test
  void aCallersBoundIsInclusiveAndNamedInTheMessage() {
    Duration year = Duration.ofDays(365);
    assertThat(Durations.parse("timeout", "8760h", year)).isEqualTo(year);
    assertThatThrownBy(() -> Durations.parse("timeout", "8760h1ns", year))
        .hasMessage("timeout: '8760h1ns' is too long; a duration must be at most 31536000s");
    assertThatThrownBy(() -> Durations.parse("timeout", "9999h", year)).hasMessageContaining("too long");
  }

  @Test
  void hostileLengthIsRefusedWithoutWork() {
    String longText = "1s".repeat(40);
    assertThatThrownBy(() -> Durations.parse("x", longText)).hasMessageContaining("is not a duration");
  }

  @Test
  void formatsForMessages() {
    assertThat(Durations.format(Duration.ofMillis(300))).isEqualTo("300ms");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(Durations.format(Duration.ofSeconds(15))).isEqualTo("15s");
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0ms");
    assertThat(Durations.format(Duration.ofSeconds(Long.MAX_VALUE))).endsWith("s");
  }
}
