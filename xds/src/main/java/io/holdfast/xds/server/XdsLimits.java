package io.holdfast.xds.server;

import java.time.Duration;
import java.util.Objects;

/**
 * What one xDS client may cost this server. Every limit has a reason; the defaults are meant to be far above what
 * a real Envoy (or grpc-java proxyless client) does, and far below what exhausts the server.
 *
 * @param maxStreamsPerConnection concurrent streams on one HTTP/2 connection; one more is closed with
 *                                RESOURCE_EXHAUSTED (HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS, announced at twice
 *                                this, stops a client that ignores the status); >= 1
 * @param maxInboundMessageBytes  largest request message, bytes; >= 1
 * @param maxNodeIdLength         longest node id, and longest node cluster, in chars; a longer one closes the
 *                                stream with INVALID_ARGUMENT and nothing of it is kept; >= 1
 * @param maxNamesPerStream       resource names one stream may subscribe to, all types together (SotW: the names
 *                                of each type's latest request; delta: the subscribed names plus those of
 *                                {@code initial_resource_versions}); more closes the stream with
 *                                RESOURCE_EXHAUSTED; >= 1
 * @param maxConnectionAge        after this (plus or minus 10%, gRPC's jitter) a connection is sent GOAWAY; zero
 *                                for no limit
 * @param maxConnectionAgeGrace   how long a connection's open streams may go on after its GOAWAY; > 0
 * @param maxResetsPerWindow      RST_STREAM frames a client may send per {@code resetWindow} before its
 *                                connection is closed (HTTP/2 rapid reset, CVE-2023-44487); >= 1
 * @param resetWindow             the window of {@code maxResetsPerWindow}, whole seconds, >= 1 s
 */
public record XdsLimits(int maxStreamsPerConnection, int maxInboundMessageBytes, int maxNodeIdLength,
    int maxNamesPerStream, Duration maxConnectionAge, Duration maxConnectionAgeGrace, int maxResetsPerWindow,
    Duration resetWindow) {

  /**
   * 100: RFC 9113 advises a limit of at least 100 so as not to hold back parallelism. An Envoy opens one ADS
   * stream, or one per type and one per SDS secret without ADS (raise the limit for an Envoy with more than 100
   * secrets and no ADS). Without a limit one connection held 10,000 streams.
   */
  public static final int DEFAULT_MAX_STREAMS_PER_CONNECTION = 100;
  /**
   * 4 MiB, gRPC's own default: an Envoy's largest request is its first, whose node lists every compiled-in
   * extension (tens of KB), plus the names it subscribes to; tens of thousands of names fit.
   */
  public static final int DEFAULT_MAX_INBOUND_MESSAGE_BYTES = 4 * 1024 * 1024;
  /**
   * 1 KiB: node ids are pod-derived names (a Kubernetes name is at most 253 chars; Istio-style ids with an IP
   * and a namespace stay under 300), and an id is kept per stream and becomes a metric label. Without a limit
   * 3.5 MB ids were kept for 10 minutes.
   */
  public static final int DEFAULT_MAX_NODE_ID_LENGTH = 1024;
  /**
   * 100,000: a name costs about 95 bytes of heap on a delta stream (2 million names held 190 MB), so this bounds
   * one stream near 10 MB, while an Envoy asks one EDS name per cluster, one RDS name per route configuration and
   * one SDS name per secret: thousands in the largest meshes.
   */
  public static final int DEFAULT_MAX_NAMES_PER_STREAM = 100_000;
  /**
   * 1 hour: re-handshakes TLS (a rotated CA or revoked client certificate takes effect) and spreads proxies over
   * replicas added since they connected, while a reconnect an hour costs an Envoy one re-sync of its config (no
   * traffic is affected: Envoy keeps its config while its xDS stream reconnects).
   */
  public static final Duration DEFAULT_MAX_CONNECTION_AGE = Duration.ofHours(1);
  /**
   * 1 minute: xDS streams never end by themselves, so the grace only lets responses in flight be delivered and
   * the proxy open its new stream on a new connection before the old one is cut.
   */
  public static final Duration DEFAULT_MAX_CONNECTION_AGE_GRACE = Duration.ofMinutes(1);
  /**
   * 200 per 10 s: a proxy resets an xDS stream rarely (a reconnect, a cancelled fetch); 20,000 open-and-reset
   * streams in 5 s were never cut off before this.
   */
  public static final int DEFAULT_MAX_RESETS_PER_WINDOW = 200;
  public static final Duration DEFAULT_RESET_WINDOW = Duration.ofSeconds(10);

  public static final XdsLimits DEFAULTS = new XdsLimits(DEFAULT_MAX_STREAMS_PER_CONNECTION,
      DEFAULT_MAX_INBOUND_MESSAGE_BYTES, DEFAULT_MAX_NODE_ID_LENGTH, DEFAULT_MAX_NAMES_PER_STREAM,
      DEFAULT_MAX_CONNECTION_AGE, DEFAULT_MAX_CONNECTION_AGE_GRACE, DEFAULT_MAX_RESETS_PER_WINDOW,
      DEFAULT_RESET_WINDOW);

  public XdsLimits {
    atLeastOne("maxStreamsPerConnection", maxStreamsPerConnection);
    atLeastOne("maxInboundMessageBytes", maxInboundMessageBytes);
    atLeastOne("maxNodeIdLength", maxNodeIdLength);
    atLeastOne("maxNamesPerStream", maxNamesPerStream);
    atLeastOne("maxResetsPerWindow", maxResetsPerWindow);
    Objects.requireNonNull(maxConnectionAge, "maxConnectionAge");
    if (maxConnectionAge.isNegative()) {
      throw new IllegalArgumentException("maxConnectionAge must be >= 0 (0: no limit), was " + maxConnectionAge);
    }
    Objects.requireNonNull(maxConnectionAgeGrace, "maxConnectionAgeGrace");
    if (maxConnectionAgeGrace.isNegative() || maxConnectionAgeGrace.isZero()) {
      throw new IllegalArgumentException("maxConnectionAgeGrace must be > 0, was " + maxConnectionAgeGrace);
    }
    Objects.requireNonNull(resetWindow, "resetWindow");
    if (resetWindow.getSeconds() < 1 || resetWindow.getNano() != 0) {
      throw new IllegalArgumentException("resetWindow must be whole seconds, at least 1 s, was " + resetWindow);
    }
  }

  public XdsLimits withMaxStreamsPerConnection(int n) {
    return new XdsLimits(n, maxInboundMessageBytes, maxNodeIdLength, maxNamesPerStream, maxConnectionAge,
        maxConnectionAgeGrace, maxResetsPerWindow, resetWindow);
  }

  public XdsLimits withMaxInboundMessageBytes(int n) {
    return new XdsLimits(maxStreamsPerConnection, n, maxNodeIdLength, maxNamesPerStream, maxConnectionAge,
        maxConnectionAgeGrace, maxResetsPerWindow, resetWindow);
  }

  public XdsLimits withMaxNodeIdLength(int n) {
    return new XdsLimits(maxStreamsPerConnection, maxInboundMessageBytes, n, maxNamesPerStream, maxConnectionAge,
        maxConnectionAgeGrace, maxResetsPerWindow, resetWindow);
  }

  public XdsLimits withMaxNamesPerStream(int n) {
    return new XdsLimits(maxStreamsPerConnection, maxInboundMessageBytes, maxNodeIdLength, n, maxConnectionAge,
        maxConnectionAgeGrace, maxResetsPerWindow, resetWindow);
  }

  /** {@code age} zero for no limit. */
  public XdsLimits withMaxConnectionAge(Duration age, Duration grace) {
    return new XdsLimits(maxStreamsPerConnection, maxInboundMessageBytes, maxNodeIdLength, maxNamesPerStream, age,
        grace, maxResetsPerWindow, resetWindow);
  }

  public XdsLimits withMaxResets(int resets, Duration window) {
    return new XdsLimits(maxStreamsPerConnection, maxInboundMessageBytes, maxNodeIdLength, maxNamesPerStream,
        maxConnectionAge, maxConnectionAgeGrace, resets, window);
  }

  private static void atLeastOne(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + " must be >= 1, was " + value);
    }
  }
}
