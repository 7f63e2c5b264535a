package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.InputLimits;
import io.holdfast.kube.source.KubeConfigSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The webhook's direct Secret lookups take at most half the check's wall-clock budget, and at most 2 s. */
class SecretLookupTimeTest {

  @Test
  void theLookupsLeaveTheCheckHalfItsBudget() {
    assertThat(KubernetesMode.secretLookupTime(InputLimits.DEFAULT_WEBHOOK_CHECK_TIME))
        .isEqualTo(KubeConfigSource.DEFAULT_SECRET_LOOKUP_TIME).isEqualTo(Duration.ofSeconds(2));
    assertThat(KubernetesMode.secretLookupTime(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(500));
    assertThat(KubernetesMode.secretLookupTime(Duration.ofMinutes(1))).isEqualTo(Duration.ofSeconds(2));
  }
}
