package io.holdfast.api;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds on what one object may cost to check and serve, so that no object, however hostile, can pin a CPU,
 * exhaust the heap or overflow a stack of the server, {@code holdfast validate} or the admission webhook. Each
 * bound has a named reason when it is hit and a {@code serve}/{@code validate} option to raise it (README,
 * "Bounds"). One value for the whole process: the server, {@code validate} and the webhook are given the same.
 *
 * @param maxRegexLength          characters in one regex; longer is {@code RegexTooComplex}
 * @param maxRegexProgramSize     RE2 program size of one regex (Envoy's {@code re2.max_program_size.error_level},
 *                                100 unless its runtime raises it); larger is {@code RegexTooComplex}. Raise it
 *                                together with Envoy's runtime key, or Envoy refuses what Holdfast accepts
 * @param maxDelegationDepth      RouteTables on one delegation path from a VirtualService; a RouteTable deeper
 *                                is {@code DelegationTooDeep}
 * @param maxRoutesPerVirtualHost routes of one virtual host after delegation is flattened; more rejects the
 *                                VirtualService ({@code TooManyRoutes})
 * @param webhookCheckTime        wall-clock time one admission check may take; a check over it is denied
 * @param webhookCheckCpuTime     CPU time one admission check may take; a check over it is denied
 */
public record InputLimits(int maxRegexLength, int maxRegexProgramSize, int maxDelegationDepth,
    int maxRoutesPerVirtualHost, Duration webhookCheckTime, Duration webhookCheckCpuTime) {

  public static final int DEFAULT_MAX_REGEX_LENGTH = 4096;
  /** Envoy's default: the runtime key {@code re2.max_program_size.error_level} is 100 unless set. */
  public static final int DEFAULT_MAX_REGEX_PROGRAM_SIZE = 100;
  public static final int DEFAULT_MAX_DELEGATION_DEPTH = 32;
  public static final int DEFAULT_MAX_ROUTES_PER_VIRTUAL_HOST = 10_000;
  /**
   * Different inherited paths (Gloo's {@code inheritablePathMatchers}) one RouteTable is checked under; more
   * rejects it ({@code TooManyInheritedPaths}). Fixed: each costs a pass over the table's routes.
   */
  public static final int MAX_INHERITED_PATHS = 64;
  /** Under the API server's default webhook timeout of 10 s, so the denial arrives before the API server gives up. */
  public static final String DEFAULT_WEBHOOK_CHECK_TIME_TEXT = "5s";
  public static final Duration DEFAULT_WEBHOOK_CHECK_TIME = Duration.ofSeconds(5);
  /** A check of a config of thousands of objects takes well under a second of CPU. */
  public static final String DEFAULT_WEBHOOK_CHECK_CPU_TIME_TEXT = "2s";
  public static final Duration DEFAULT_WEBHOOK_CHECK_CPU_TIME = Duration.ofSeconds(2);

  /** The defaults above: what a server started without options uses. */
  public static final InputLimits DEFAULTS = new InputLimits(DEFAULT_MAX_REGEX_LENGTH, DEFAULT_MAX_REGEX_PROGRAM_SIZE,
      DEFAULT_MAX_DELEGATION_DEPTH, DEFAULT_MAX_ROUTES_PER_VIRTUAL_HOST, DEFAULT_WEBHOOK_CHECK_TIME,
      DEFAULT_WEBHOOK_CHECK_CPU_TIME);

  public InputLimits {
    positive(maxRegexLength, "maxRegexLength");
    positive(maxRegexProgramSize, "maxRegexProgramSize");
    positive(maxDelegationDepth, "maxDelegationDepth");
    positive(maxRoutesPerVirtualHost, "maxRoutesPerVirtualHost");
    positive(webhookCheckTime, "webhookCheckTime");
    positive(webhookCheckCpuTime, "webhookCheckCpuTime");
  }

  public InputLimits withMaxRegexLength(int value) {
    return new InputLimits(value, maxRegexProgramSize, maxDelegationDepth, maxRoutesPerVirtualHost,
        webhookCheckTime, webhookCheckCpuTime);
  }

  public InputLimits withMaxRegexProgramSize(int value) {
    return new InputLimits(maxRegexLength, value, maxDelegationDepth, maxRoutesPerVirtualHost, webhookCheckTime,
        webhookCheckCpuTime);
  }

  public InputLimits withMaxDelegationDepth(int value) {
    return new InputLimits(maxRegexLength, maxRegexProgramSize, value, maxRoutesPerVirtualHost, webhookCheckTime,
        webhookCheckCpuTime);
  }

  public InputLimits withMaxRoutesPerVirtualHost(int value) {
    return new InputLimits(maxRegexLength, maxRegexProgramSize, maxDelegationDepth, value, webhookCheckTime,
        webhookCheckCpuTime);
  }

  /** Both the wall-clock and the CPU budget of one admission check. */
  public InputLimits withWebhookCheckTimes(Duration wall, Duration cpu) {
    return new InputLimits(maxRegexLength, maxRegexProgramSize, maxDelegationDepth, maxRoutesPerVirtualHost, wall,
        cpu);
  }

  private static void positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  private static void positive(long value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be at least 1, got " + value);
    }
  }
}
