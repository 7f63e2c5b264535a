package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({"2s,2000", "250ms,250", "1m30s,90000", "1.5s,1500", "1h,3600000", "0s,0", "1500us,1"})
  void parsesGoStyleDurations(String text, long millis) {
    assertThat(Durations.parse(text)).contains(Duration.ofMillis(millis).plusNanos(text.equals("1500us") ? 500_000 : 0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "5", "-1s", "1 s", "s", "1d", "1.s", "9999h", "2S"})
  void rejectsEverythingElse(String text) {
    assertThat(Durations.parse(text)).isEmpty();
  }
}
