package io.holdfast.xds.envoycheck;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import io.envoyproxy.pgv.validate.Validate.AnyRules;
import io.envoyproxy.pgv.validate.Validate.DurationRules;
import io.envoyproxy.pgv.validate.Validate.TimestampRules;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/** Rules on the well-known message types PGV treats as values: Duration, Timestamp and Any (its type URL). */
final class TimeRules {

  // google/protobuf/duration.proto's range, which PGV's C++ checks before comparing.
  private static final long MAX_DURATION_SECONDS = 315_576_000_000L;
  private static final Comparator<Duration> DURATION_ORDER =
      Comparator.comparingLong(Duration::getSeconds).thenComparingInt(Duration::getNanos);
  private static final Comparator<Timestamp> TIMESTAMP_ORDER =
      Comparator.comparingLong(Timestamp::getSeconds).thenComparingInt(Timestamp::getNanos);

  private final Findings findings;

  TimeRules(Findings findings) {
    this.findings = findings;
  }

  /** {@code value} is null when the field is unset. */
  void duration(String path, Duration value, DurationRules rules) {
    findings.account("duration", rules);
    if (value == null) {
      check(path, rules.getRequired(), "duration.required", "unset");
      return;
    }
    boolean compares = rules.hasConst() || rules.hasLt() || rules.hasLte() || rules.hasGt() || rules.hasGte()
        || rules.getInCount() > 0 || rules.getNotInCount() > 0;
    if (!compares) {
      return;
    }
    String shown = show(value);
    if (Math.abs(value.getSeconds()) > MAX_DURATION_SECONDS || Math.abs(value.getNanos()) > 999_999_999) {
      findings.violation(path, "duration.valid", shown);
      return;
    }
    check(path, rules.hasConst() && !value.equals(rules.getConst()), "duration.const " + show(rules.getConst()), shown);
    Bounds<Duration> bounds = new Bounds<>(rules.hasLt() ? rules.getLt() : null, rules.hasLte() ? rules.getLte() : null,
        rules.hasGt() ? rules.getGt() : null, rules.hasGte() ? rules.getGte() : null);
    check(path, bounds.any() && !bounds.admits(value, DURATION_ORDER),
        "duration." + bounds.describe(TimeRules::show), shown);
    List<Duration> in = rules.getInList();
    check(path, !in.isEmpty() && in.stream().noneMatch(d -> DURATION_ORDER.compare(d, value) == 0),
        "duration.in " + in.stream().map(TimeRules::show).toList(), shown);
    check(path, rules.getNotInList().stream().anyMatch(d -> DURATION_ORDER.compare(d, value) == 0),
        "duration.not_in " + rules.getNotInList().stream().map(TimeRules::show).toList(), shown);
  }

  /** {@code value} is null when unset. {@code lt_now}, {@code gt_now} and {@code within} are not evaluated. */
  void timestamp(String path, Timestamp value, TimestampRules rules) {
    findings.account("timestamp", rules);
    if (value == null) {
      check(path, rules.getRequired(), "timestamp.required", "unset");
      return;
    }
    String shown = show(value);
    check(path, rules.hasConst() && TIMESTAMP_ORDER.compare(value, rules.getConst()) != 0,
        "timestamp.const " + show(rules.getConst()), shown);
    Bounds<Timestamp> bounds = new Bounds<>(rules.hasLt() ? rules.getLt() : null,
        rules.hasLte() ? rules.getLte() : null, rules.hasGt() ? rules.getGt() : null,
        rules.hasGte() ? rules.getGte() : null);
    check(path, bounds.any() && !bounds.admits(value, TIMESTAMP_ORDER),
        "timestamp." + bounds.describe(TimeRules::show), shown);
  }

  /** {@code value} is null when the field is unset. */
  void any(String path, Any value, AnyRules rules) {
    findings.account("any", rules);
    if (value == null) {
      check(path, rules.getRequired(), "any.required", "unset");
      return;
    }
    String url = value.getTypeUrl();
    check(path, rules.getInCount() > 0 && !rules.getInList().contains(url), "any.in " + rules.getInList(), url);
    check(path, rules.getNotInList().contains(url), "any.not_in " + rules.getNotInList(), url);
  }

  private void check(String path, boolean broken, String rule, String actual) {
    if (broken) {
      findings.violation(path, rule, actual);
    }
  }

  static String show(Duration duration) {
    return BigDecimal.valueOf(duration.getSeconds()).add(BigDecimal.valueOf(duration.getNanos(), 9))
        .stripTrailingZeros().toPlainString() + "s";
  }

  static String show(Timestamp timestamp) {
    try {
      return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos()).toString();
    } catch (DateTimeException e) {
      return timestamp.getSeconds() + "s " + timestamp.getNanos() + "ns since the epoch";
    }
  }
}
