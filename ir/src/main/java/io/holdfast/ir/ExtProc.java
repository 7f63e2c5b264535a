package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * External processing (Envoy's {@code ext_proc} filter): a chain's service ({@link Service}, in
 * {@link HttpListenerOptions#extProc()}) and a route's setting for it ({@link PerRoute}, in
 * {@link RouteTraffic#extProc()}).
 */
public final class ExtProc {

  private ExtProc() {
  }

  /** How headers or trailers are sent; DEFAULT is Envoy's default for that part (headers sent, trailers not). */
  public enum HeaderMode { DEFAULT, SEND, SKIP }

  /** How a body is sent. */
  public enum BodyMode { NONE, STREAMED, BUFFERED, BUFFERED_PARTIAL }

  /** What is sent to the service; each absent part keeps Envoy's default. */
  public record Mode(Optional<HeaderMode> requestHeaders, Optional<HeaderMode> responseHeaders,
      Optional<BodyMode> requestBody, Optional<BodyMode> responseBody, Optional<HeaderMode> requestTrailers,
      Optional<HeaderMode> responseTrailers) {
    public static final Mode DEFAULT = new Mode(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty());

    public Mode {
      Objects.requireNonNull(requestHeaders, "requestHeaders");
      Objects.requireNonNull(responseHeaders, "responseHeaders");
      Objects.requireNonNull(requestBody, "requestBody");
      Objects.requireNonNull(responseBody, "responseBody");
      Objects.requireNonNull(requestTrailers, "requestTrailers");
      Objects.requireNonNull(responseTrailers, "responseTrailers");
    }
  }

  /**
   * A gRPC external processing service on {@code cluster}, asked about every request of the chain.
   *
   * @param failOpen       true: a request whose processing fails passes unprocessed; false: it gets 500
   * @param messageTimeout how long one message waits for the service's answer (Envoy: positive, at most 1h)
   */
  public record Service(ResourceKey cluster, Mode mode, boolean failOpen, Duration messageTimeout) {
    public Service {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(messageTimeout, "messageTimeout");
      if (messageTimeout.isZero() || messageTimeout.isNegative() || messageTimeout.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException("ext_proc message timeout " + messageTimeout + " is not in (0, 1h]");
      }
    }
  }

  /** A route's setting for its chain's service. */
  public sealed interface PerRoute {
    /** The route's requests are not processed. */
    record Disabled() implements PerRoute {
    }

    /** The route's requests are processed with {@code mode} instead of the service's. */
    record Override(Mode mode) implements PerRoute {
      public Override {
        Objects.requireNonNull(mode, "mode");
      }
    }
  }
}
