package io.holdfast.xds.server;

import io.grpc.Status;

/** Why a stream was closed for exceeding one of the {@link XdsLimits}: its status code and metric label. */
enum Refusal {
  /** The node id or node cluster is longer than {@link XdsLimits#maxNodeIdLength()}. */
  NODE_ID_TOO_LONG(Status.Code.INVALID_ARGUMENT),
  /** The node id contains control characters, which no real id has and which would forge log lines. */
  NODE_ID_INVALID(Status.Code.INVALID_ARGUMENT),
  /** A type URL longer than {@link ClientText#MAX_TOKEN_LENGTH}: real ones are under 100 chars. */
  TYPE_URL_TOO_LONG(Status.Code.INVALID_ARGUMENT),
  /** More types than {@link #MAX_TYPES_PER_STREAM} on one stream, each of which would keep state. */
  TOO_MANY_TYPES(Status.Code.RESOURCE_EXHAUSTED),
  /** More names than {@link XdsLimits#maxNamesPerStream()} on one stream. */
  TOO_MANY_NAMES(Status.Code.RESOURCE_EXHAUSTED),
  /** More concurrent streams on one connection than {@link XdsLimits#maxStreamsPerConnection()}. */
  TOO_MANY_STREAMS(Status.Code.RESOURCE_EXHAUSTED),
  /** Authorisation {@code proxy-identity}: the stream's TLS client certificate names no proxy. */
  NO_PROXY_IDENTITY(Status.Code.PERMISSION_DENIED);

  /**
   * Distinct type URLs one stream may ask for: Envoy knows about ten xDS types; each type asked keeps state on the
   * stream, supported or not, so without a bound a client could make a stream hold state for millions.
   */
  static final int MAX_TYPES_PER_STREAM = 32;

  private final Status.Code code;

  Refusal(Status.Code code) {
    this.code = code;
  }

  Status.Code code() {
    return code;
  }

  /** The metric label, e.g. {@code too_many_names}. */
  String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
