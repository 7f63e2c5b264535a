package io.holdfast.server.cli;

import io.holdfast.common.Durations;
import io.holdfast.xds.server.XdsLimits;
import java.time.Duration;
import java.util.Locale;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * What one xDS client may cost the server ({@link XdsLimits}, where each default's reason is given). Each is also
 * read from {@code HOLDFAST_<OPTION>} and from {@code --config-file}. Rapid-reset protection is fixed at its
 * default ({@value XdsLimits#DEFAULT_MAX_RESETS_PER_WINDOW} resets per 10 s per connection).
 */
final class XdsLimitOptions {

  @Option(names = "--xds-max-streams-per-connection", paramLabel = "N",
      defaultValue = "" + XdsLimits.DEFAULT_MAX_STREAMS_PER_CONNECTION,
      description = "Concurrent xDS streams on one connection; clients open another connection beyond it"
          + " (default: ${DEFAULT-VALUE}).")
  private String maxStreamsPerConnection;

  @Option(names = "--xds-max-message-size", paramLabel = "BYTES",
      defaultValue = "" + XdsLimits.DEFAULT_MAX_INBOUND_MESSAGE_BYTES,
      description = "Largest xDS request accepted, in bytes (default: ${DEFAULT-VALUE}, 4 MiB).")
  private String maxMessageSize;

  @Option(names = "--xds-max-node-id-length", paramLabel = "CHARS",
      defaultValue = "" + XdsLimits.DEFAULT_MAX_NODE_ID_LENGTH,
      description = "Longest proxy node id and node cluster; a longer one closes the stream with INVALID_ARGUMENT"
          + " (default: ${DEFAULT-VALUE}).")
  private String maxNodeIdLength;

  @Option(names = "--xds-max-names-per-stream", paramLabel = "N",
      defaultValue = "" + XdsLimits.DEFAULT_MAX_NAMES_PER_STREAM,
      description = "Resource names one xDS stream may subscribe to, all types together; more closes the stream"
          + " with RESOURCE_EXHAUSTED (default: ${DEFAULT-VALUE}).")
  private String maxNamesPerStream;

  @Option(names = "--xds-max-connection-age", paramLabel = "DURATION", defaultValue = "1h",
      description = "After this (+-10%%) an xDS connection is asked to reconnect; 0s for never"
          + " (default: ${DEFAULT-VALUE}).")
  private String maxConnectionAge;

  @Option(names = "--xds-max-connection-age-grace", paramLabel = "DURATION", defaultValue = "1m",
      description = "How long an aged connection's streams go on before they are cut (default: ${DEFAULT-VALUE}).")
  private String maxConnectionAgeGrace;

  /**
   * The limits given.
   *
   * @param origin how to name a setting in an error (the flag, or the variable or file entry it came from)
   * @throws IllegalArgumentException naming the setting, if a value is out of range
   */
  XdsLimits limits(UnaryOperator<String> origin) {
    Duration grace = duration(origin.apply("xds-max-connection-age-grace"), maxConnectionAgeGrace);
    if (grace.isZero()) {
      throw new IllegalArgumentException(origin.apply("xds-max-connection-age-grace") + " must be more than 0s");
    }
    return XdsLimits.DEFAULTS
        .withMaxStreamsPerConnection(LimitOptions.positive(origin.apply("xds-max-streams-per-connection"),
            maxStreamsPerConnection))
        .withMaxInboundMessageBytes(LimitOptions.positive(origin.apply("xds-max-message-size"), maxMessageSize))
        .withMaxNodeIdLength(LimitOptions.positive(origin.apply("xds-max-node-id-length"), maxNodeIdLength))
        .withMaxNamesPerStream(LimitOptions.positive(origin.apply("xds-max-names-per-stream"), maxNamesPerStream))
        .withMaxConnectionAge(duration(origin.apply("xds-max-connection-age"), maxConnectionAge), grace);
  }

  private static Duration duration(String name, String value) {
    return Durations.parse(name, value.trim().toLowerCase(Locale.ROOT));
  }
}
