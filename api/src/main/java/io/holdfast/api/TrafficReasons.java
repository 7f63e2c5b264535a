package io.holdfast.api;

/**
 * The reasons traffic options are refused or warned about (beside the general ones of {@link Reasons}), shared by
 * both front ends and their policy kinds.
 */
public final class TrafficReasons {

  /** perConnectionBufferLimitBytes outside 1 to {@link TrafficChecks#MAX_BUFFER_BYTES}. */
  public static final String INVALID_BUFFER_LIMIT = "InvalidBufferLimit";
  /** xffNumTrustedHops outside 0 to {@link TrafficChecks#MAX_TRUSTED_HOPS}. */
  public static final String INVALID_TRUSTED_HOPS = "InvalidTrustedHops";
  /** maxRequestHeadersKb outside Envoy's 1-8192. */
  public static final String INVALID_HEADER_LIMIT = "InvalidHeaderLimit";
  /** An HTTP/2 setting outside Envoy's range. */
  public static final String INVALID_HTTP2_SETTING = "InvalidHttp2Setting";
  /** serverHeader: an unknown mode, a name where the mode takes none, or a name that is not a header value. */
  public static final String INVALID_SERVER_HEADER = "InvalidServerHeader";
  /** A health check path that is not an absolute path of at most {@link TrafficChecks#MAX_HEALTH_CHECK_PATH}. */
  public static final String INVALID_HEALTH_CHECK = "InvalidHealthCheck";
  /** More access logs than {@link TrafficChecks#MAX_ACCESS_LOGS}. */
  public static final String TOO_MANY_ACCESS_LOGS = "TooManyAccessLogs";
  /** A file access log path that is not absolute, or a log name that is empty. */
  public static final String INVALID_ACCESS_LOG = "InvalidAccessLog";
  /** A {@code %OPERATOR%} Envoy does not know. */
  public static final String UNKNOWN_COMMAND_OPERATOR = "UnknownCommandOperator";
  /** A {@code %} that starts no well-formed command operator, or an operator missing its required argument. */
  public static final String MALFORMED_COMMAND_OPERATOR = "MalformedCommandOperator";
  /** A format longer than {@link TrafficChecks#MAX_FORMAT_LENGTH}. */
  public static final String FORMAT_TOO_LONG = "FormatTooLong";
  /** Status bounds outside 100-599 or inverted, or a negative duration. */
  public static final String INVALID_ACCESS_LOG_FILTER = "InvalidAccessLogFilter";
  /** An access log's Upstream does not exist. */
  public static final String ACCESS_LOG_UPSTREAM_NOT_FOUND = "AccessLogUpstreamNotFound";
  /** The Upstream of the tracing collector does not exist. */
  public static final String TRACING_UPSTREAM_NOT_FOUND = "TracingUpstreamNotFound";
  /** A tracing setting Envoy would refuse: a sampling percentage outside 0-100, a bad tag header, an empty name. */
  public static final String INVALID_TRACING = "InvalidTracing";
  /** The rate-limit service's Upstream does not exist. */
  public static final String RATE_LIMIT_SERVICE_NOT_FOUND = "RateLimitServiceNotFound";
  /** An access log service or rate-limit service Upstream without {@code http2: true}: gRPC needs HTTP/2. */
  public static final String GRPC_SERVICE_WITHOUT_HTTP2 = "GrpcServiceWithoutHttp2";
  /** Routes send rate-limit descriptors, but their Gateway names no rate-limit service (a warning). */
  public static final String RATE_LIMIT_SERVICE_MISSING = "RateLimitServiceMissing";
  /** An empty rate-limit domain or a timeout that is not positive. */
  public static final String INVALID_RATE_LIMIT_SERVICE = "InvalidRateLimitService";
  /** A token bucket with no tokens or no tokens per fill: it would refuse every request. */
  public static final String ZERO_RATE = "ZeroRate";
  /** A fill interval under Envoy's 50 ms minimum. */
  public static final String FILL_INTERVAL_TOO_SHORT = "FillIntervalTooShort";
  /** Tokens beyond {@link TrafficChecks#MAX_TOKENS}. */
  public static final String INVALID_RATE_LIMIT = "InvalidRateLimit";
  /** More descriptors or entries than {@link TrafficChecks#MAX_DESCRIPTORS} / {@link TrafficChecks#MAX_ENTRIES}. */
  public static final String TOO_MANY_DESCRIPTORS = "TooManyDescriptors";
  /** A descriptor without entries, or an entry with an empty or malformed key, header or claim. */
  public static final String INVALID_DESCRIPTOR = "InvalidDescriptor";
  /** A compression algorithm Envoy's java-control-plane 1.0.49 protos do not have (gzip, brotli, zstd do). */
  public static final String UNSUPPORTED_COMPRESSION = "UnsupportedCompression";
  /** An algorithm listed twice. */
  public static final String DUPLICATE_COMPRESSION = "DuplicateCompression";
  /** OpenTelemetry attribute values nested deeper than {@link TrafficOptions#MAX_OTEL_DEPTH}. */
  public static final String OTEL_ATTRIBUTES_TOO_DEEP = "OtelAttributesTooDeep";
  /** An empty or multi-line CSRF origin, one with a path, or more than {@link TrafficChecks#MAX_CSRF_ORIGINS}. */
  public static final String INVALID_CSRF_ORIGIN = "InvalidCsrfOrigin";
  /** A CSRF origin written with a scheme ({@code https://...}), which Envoy's host[:port] comparison never matches. */
  public static final String CSRF_ORIGIN_WITH_SCHEME = "CsrfOriginWithScheme";
  /** maxRequestBodyBytes outside 1 to {@link TrafficChecks#MAX_BODY_BYTES}. */
  public static final String INVALID_BODY_LIMIT = "InvalidBodyLimit";

  private TrafficReasons() {
  }

  /** A Gateway's {@code extProc.upstream} names no Upstream. */
  public static final String EXT_PROC_SERVICE_NOT_FOUND = "ExtProcServiceNotFound";
  /** An {@code extProc} value Envoy cannot take (a processing mode, the message timeout). */
  public static final String INVALID_EXT_PROC = "InvalidExtProc";
}
