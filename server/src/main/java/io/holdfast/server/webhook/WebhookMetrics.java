package io.holdfast.server.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code holdfast_webhook_reviews_total{outcome}}: every outcome's counter exists from the webhook's start at 0,
 * so alerts on denials or timeouts need no {@code absent()}.
 */
final class WebhookMetrics {

  enum Outcome {
    ALLOWED, DENIED, MALFORMED, TOO_LARGE, UNAVAILABLE, TIMED_OUT, ERROR,
    /** Denied because the check went over its wall-clock or CPU budget, or no checker was free. */
    OVER_BUDGET
  }

  private final Map<Outcome, Counter> counters = new EnumMap<>(Outcome.class);

  WebhookMetrics(MeterRegistry registry) {
    for (Outcome outcome : Outcome.values()) {
      counters.put(outcome, Counter.builder("holdfast.webhook.reviews")
          .description("Admission requests answered by the validating webhook, by outcome")
          .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
          .register(registry));
    }
  }

  void outcome(Outcome outcome) {
    counters.get(outcome).increment();
  }
}
