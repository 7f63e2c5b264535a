package io.holdfast.server.cli;

import io.holdfast.api.InputLimits;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * The bounds {@code serve} and {@code validate} share ({@link InputLimits}), so that {@code validate} refuses
 * exactly what a server with the same options would. Each is also read from {@code HOLDFAST_<OPTION>} (and, for
 * serve, from {@code --config-file}).
 */
final class LimitOptions {

  @Option(names = "--max-regex-length", paramLabel = "CHARS",
      defaultValue = "${env:HOLDFAST_MAX_REGEX_LENGTH:-" + InputLimits.DEFAULT_MAX_REGEX_LENGTH + "}",
      description = "Longest regex accepted; longer is RegexTooComplex (default: ${DEFAULT-VALUE}).")
  private String maxRegexLength;

  @Option(names = "--max-regex-program-size", paramLabel = "N",
      defaultValue = "${env:HOLDFAST_MAX_REGEX_PROGRAM_SIZE:-" + InputLimits.DEFAULT_MAX_REGEX_PROGRAM_SIZE + "}",
      description = "Largest RE2 program of a regex; larger is RegexTooComplex. Envoy refuses more than its runtime"
          + " re2.max_program_size.error_level (100 unless set): raise both (default: ${DEFAULT-VALUE}).")
  private String maxRegexProgramSize;

  @Option(names = "--max-delegation-depth", paramLabel = "N",
      defaultValue = "${env:HOLDFAST_MAX_DELEGATION_DEPTH:-" + InputLimits.DEFAULT_MAX_DELEGATION_DEPTH + "}",
      description = "Most RouteTables on one delegation path; a deeper RouteTable is DelegationTooDeep"
          + " (default: ${DEFAULT-VALUE}).")
  private String maxDelegationDepth;

  @Option(names = "--max-routes-per-virtual-host", paramLabel = "N",
      defaultValue = "${env:HOLDFAST_MAX_ROUTES_PER_VIRTUAL_HOST:-"
          + InputLimits.DEFAULT_MAX_ROUTES_PER_VIRTUAL_HOST + "}",
      description = "Most routes of a VirtualService after delegation is flattened (delegating routes count);"
          + " more is TooManyRoutes (default: ${DEFAULT-VALUE}).")
  private String maxRoutesPerVirtualHost;

  /**
   * The limits given, webhook budgets at their defaults.
   *
   * @param origin how to name a setting in an error (the flag, or the variable or file entry it came from)
   * @throws IllegalArgumentException naming the setting, if a value is not a positive integer
   */
  InputLimits limits(UnaryOperator<String> origin) {
    return InputLimits.DEFAULTS
        .withMaxRegexLength(positive(origin.apply("max-regex-length"), maxRegexLength))
        .withMaxRegexProgramSize(positive(origin.apply("max-regex-program-size"), maxRegexProgramSize))
        .withMaxDelegationDepth(positive(origin.apply("max-delegation-depth"), maxDelegationDepth))
        .withMaxRoutesPerVirtualHost(positive(origin.apply("max-routes-per-virtual-host"), maxRoutesPerVirtualHost));
  }

  /** {@code value} as a whole number of at least 1; the error names the setting {@code name}. */
  static int positive(String name, String value) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(name + " must be a whole number of at least 1, got '" + value + "'");
  }
}
