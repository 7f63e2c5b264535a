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

  /**
   * Where the chain's ext_proc filter runs among its other HTTP filters (the chain: CORS; authentication and
   * external authorisation; RBAC; the health check; the rate limits; CSRF, buffer, fault, compressors; Router).
   * The request passes the filters in this order and the response the other way round, so the earlier the place,
   * the more requests the service sees and the more of what the later filters did to the response.
   */
  public enum Position {
    /** Before every other filter, CORS included: the service sees every request, CORS preflights too. */
    FIRST,
    /** After CORS (a preflight is answered without the service), before any authentication. */
    AFTER_CORS,
    /**
     * After authentication and external authorisation (OAuth2, JWT, basic auth, ext_authz, and the JWT check that
     * follows ext_authz), before the RBAC rules: the service sees authenticated requests and may add what RBAC
     * reads.
     */
    BEFORE_RBAC,
    /** After RBAC and the health check, before the rate limits: only requests that were allowed in (the default). */
    AFTER_AUTHORIZATION,
    /** After the local and global rate limits, before CSRF and the buffer: requests under the limits only. */
    AFTER_RATE_LIMITS,
    /** Last before the Router: after every other filter, fault injection and the compressors included. */
    LAST
  }

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
   * @param position       where the filter runs in the chain
   */
  public record Service(ResourceKey cluster, Mode mode, boolean failOpen, Duration messageTimeout,
      Position position) {
    public Service {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(messageTimeout, "messageTimeout");
      Objects.requireNonNull(position, "position");
      if (messageTimeout.isZero() || messageTimeout.isNegative() || messageTimeout.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException("ext_proc message timeout " + messageTimeout + " is not in (0, 1h]");
      }
    }

    public Service withPosition(Position value) {
      return new Service(cluster, mode, failOpen, messageTimeout, value);
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
