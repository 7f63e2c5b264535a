package io.holdfast.it.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Order statistics of a sample, nearest-rank percentiles (p99 of fewer than 100 values is the maximum).
 *
 * @param n      sample size
 * @param min    smallest value
 * @param p50    median (nearest rank)
 * @param p90    90th percentile
 * @param p99    99th percentile
 * @param max    largest value
 */
public record Stats(int n, double min, double p50, double p90, double p99, double max) {

  public static final Stats EMPTY = new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  public static Stats of(Collection<? extends Number> values) {
    if (values.isEmpty()) {
      return EMPTY;
    }
    List<Double> sorted = new ArrayList<>(values.size());
    values.forEach(v -> sorted.add(v.doubleValue()));
    sorted.sort(null);
    return new Stats(sorted.size(), sorted.get(0), rank(sorted, 50), rank(sorted, 90), rank(sorted, 99),
        sorted.get(sorted.size() - 1));
  }

  /** Nearest rank: the smallest value with at least {@code p} percent of the sample at or below it. */
  static double rank(List<Double> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  /** {@code value} with a unit, e.g. "12 ms" or "4.7 s"; "-" when not a number. */
  public static String millis(double ms) {
    if (Double.isNaN(ms)) {
      return "-";
    }
    if (Math.abs(ms) >= 10_000) {
      return String.format(Locale.ROOT, "%.1f s", ms / 1000);
    }
    if (Math.abs(ms) >= 100) {
      return String.format(Locale.ROOT, "%.0f ms", ms);
    }
    return String.format(Locale.ROOT, "%.1f ms", ms);
  }

  /** "p50 / p90 / max (n=5)" in milliseconds. */
  public String millisSummary() {
    if (n == 0) {
      return "-";
    }
    return millis(p50) + " / " + millis(p90) + " / " + millis(max) + " (n=" + n + ")";
  }
}
