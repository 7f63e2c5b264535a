package io.holdfast.xds.server;

import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the xDS server listens.
 *
 * @param bindHost     host name or address to bind; empty means every local interface
 * @param port         TCP port, 0..65535; 0 picks a free one (see {@link XdsServer#port()})
 * @param drainTimeout how long {@link XdsServer#close()} lets open streams finish before cutting them; > 0
 * @param limits       what one client may cost the server
 * @param authorisation what a stream may see: everything ({@link XdsAuthorisation#NONE}, the default) or its
 *                     proxy's scope ({@link XdsAuthorisation#PROXY_IDENTITY}, which needs mutual TLS: without a
 *                     client certificate every stream is refused)
 */
public record XdsServerSettings(String bindHost, int port, Duration drainTimeout, XdsLimits limits,
    XdsAuthorisation authorisation) {

  /** Default drain on close: long enough for in-flight responses, short enough for a pod's grace period. */
  public static final Duration DEFAULT_DRAIN = Duration.ofSeconds(5);

  public XdsServerSettings {
    Objects.requireNonNull(bindHost, "bindHost");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, was " + port);
    }
    Objects.requireNonNull(drainTimeout, "drainTimeout");
    if (drainTimeout.isNegative() || drainTimeout.isZero()) {
      throw new IllegalArgumentException("drainTimeout must be > 0, was " + drainTimeout);
    }
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(authorisation, "authorisation");
  }

  /** Authorisation {@link XdsAuthorisation#NONE}. */
  public XdsServerSettings(String bindHost, int port, Duration drainTimeout, XdsLimits limits) {
    this(bindHost, port, drainTimeout, limits, XdsAuthorisation.NONE);
  }

  /** With the default limits, authorisation {@link XdsAuthorisation#NONE}. */
  public XdsServerSettings(String bindHost, int port, Duration drainTimeout) {
    this(bindHost, port, drainTimeout, XdsLimits.DEFAULTS);
  }

  /** Binds {@code port} on every interface, default drain. */
  public static XdsServerSettings allInterfaces(int port) {
    return new XdsServerSettings("", port, DEFAULT_DRAIN);
  }

  /** Binds {@code host:port}, default drain. */
  public static XdsServerSettings on(String host, int port) {
    return new XdsServerSettings(host, port, DEFAULT_DRAIN);
  }

  public XdsServerSettings withDrainTimeout(Duration drain) {
    return new XdsServerSettings(bindHost, port, drain, limits, authorisation);
  }

  public XdsServerSettings withLimits(XdsLimits newLimits) {
    return new XdsServerSettings(bindHost, port, drainTimeout, newLimits, authorisation);
  }

  public XdsServerSettings withAuthorisation(XdsAuthorisation mode) {
    return new XdsServerSettings(bindHost, port, drainTimeout, limits, mode);
  }
}
