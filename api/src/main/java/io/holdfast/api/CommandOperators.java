package io.holdfast.api;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Envoy's access-log command operators ({@code %RESPONSE_CODE%}, {@code %REQ(:PATH)%}, {@code %START_TIME(%s)%},
 * {@code %REQ(user-agent):64%}): a format is checked against the operators Envoy documents, so a misspelt one is
 * refused here with {@link TrafficReasons#UNKNOWN_COMMAND_OPERATOR} instead of by every proxy (Envoy refuses the
 * whole listener). {@code %%} is a literal percent sign. Linear in the format's length, which the caller bounds.
 */
public final class CommandOperators {

  /** Operators that take no argument (some also accept one: see {@link #OPTIONAL_ARGUMENT}). */
  static final Set<String> PLAIN = Set.of(
      "START_TIME", "EMIT_TIME", "REQUEST_HEADERS_BYTES",
      "BYTES_RECEIVED", "BYTES_SENT", "BYTES_RETRANSMITTED", "PACKETS_RETRANSMITTED", "PROTOCOL",
      "UPSTREAM_PROTOCOL", "RESPONSE_CODE", "RESPONSE_CODE_DETAILS", "CONNECTION_TERMINATION_DETAILS",
      "RESPONSE_HEADERS_BYTES", "RESPONSE_TRAILERS_BYTES",
      "DURATION", "REQUEST_DURATION", "REQUEST_TX_DURATION", "RESPONSE_DURATION", "RESPONSE_TX_DURATION",
      "DOWNSTREAM_HANDSHAKE_DURATION", "ROUNDTRIP_DURATION", "UPSTREAM_REQUEST_ATTEMPT_COUNT",
      "UPSTREAM_CONNECTION_POOL_READY_DURATION", "RESPONSE_FLAGS", "RESPONSE_FLAGS_LONG", "UPSTREAM_HOST",
      "UPSTREAM_HOST_NAME", "UPSTREAM_HOST_NAME_WITHOUT_PORT", "UPSTREAM_CLUSTER", "UPSTREAM_CLUSTER_RAW",
      "UPSTREAM_LOCAL_ADDRESS", "UPSTREAM_LOCAL_ADDRESS_WITHOUT_PORT", "UPSTREAM_LOCAL_PORT",
      "UPSTREAM_REMOTE_ADDRESS", "UPSTREAM_REMOTE_ADDRESS_WITHOUT_PORT", "UPSTREAM_REMOTE_PORT",
      "UPSTREAM_TRANSPORT_FAILURE_REASON",
      "UPSTREAM_WIRE_BYTES_SENT", "UPSTREAM_WIRE_BYTES_RECEIVED", "UPSTREAM_HEADER_BYTES_SENT",
      "UPSTREAM_HEADER_BYTES_RECEIVED", "DOWNSTREAM_WIRE_BYTES_SENT", "DOWNSTREAM_WIRE_BYTES_RECEIVED",
      "DOWNSTREAM_HEADER_BYTES_SENT", "DOWNSTREAM_HEADER_BYTES_RECEIVED", "DOWNSTREAM_REMOTE_ADDRESS",
      "DOWNSTREAM_REMOTE_ADDRESS_WITHOUT_PORT", "DOWNSTREAM_REMOTE_PORT", "DOWNSTREAM_DIRECT_REMOTE_ADDRESS",
      "DOWNSTREAM_DIRECT_REMOTE_ADDRESS_WITHOUT_PORT", "DOWNSTREAM_DIRECT_REMOTE_PORT",
      "DOWNSTREAM_LOCAL_ADDRESS", "DOWNSTREAM_LOCAL_ADDRESS_WITHOUT_PORT", "DOWNSTREAM_LOCAL_PORT",
      "DOWNSTREAM_DIRECT_LOCAL_ADDRESS", "DOWNSTREAM_DIRECT_LOCAL_ADDRESS_WITHOUT_PORT",
      "DOWNSTREAM_DIRECT_LOCAL_PORT", "DOWNSTREAM_LOCAL_URI_SAN", "DOWNSTREAM_PEER_URI_SAN",
      "DOWNSTREAM_LOCAL_DNS_SAN", "DOWNSTREAM_PEER_DNS_SAN", "DOWNSTREAM_LOCAL_IP_SAN", "DOWNSTREAM_PEER_IP_SAN",
      "DOWNSTREAM_LOCAL_SUBJECT", "DOWNSTREAM_PEER_SUBJECT", "DOWNSTREAM_PEER_ISSUER", "DOWNSTREAM_TLS_SESSION_ID",
      "DOWNSTREAM_TLS_CIPHER", "DOWNSTREAM_TLS_VERSION", "DOWNSTREAM_PEER_FINGERPRINT_256",
      "DOWNSTREAM_PEER_FINGERPRINT_1", "DOWNSTREAM_PEER_SERIAL", "DOWNSTREAM_PEER_CERT",
      "DOWNSTREAM_PEER_CERT_V_START", "DOWNSTREAM_PEER_CERT_V_END", "DOWNSTREAM_TRANSPORT_FAILURE_REASON",
      "UPSTREAM_PEER_SUBJECT", "UPSTREAM_PEER_ISSUER", "UPSTREAM_TLS_SESSION_ID", "UPSTREAM_TLS_CIPHER",
      "UPSTREAM_TLS_VERSION", "UPSTREAM_PEER_CERT_V_START", "UPSTREAM_PEER_CERT_V_END", "UPSTREAM_PEER_CERT",
      "UPSTREAM_PEER_URI_SAN", "UPSTREAM_LOCAL_URI_SAN", "CONNECTION_ID", "UPSTREAM_CONNECTION_ID",
      "REQUESTED_SERVER_NAME", "ROUTE_NAME", "VIRTUAL_CLUSTER_NAME", "STREAM_ID", "HOSTNAME", "LOCAL_REPLY_BODY",
      "FILTER_CHAIN_NAME", "ACCESS_LOG_TYPE", "UNIQUE_ID", "TRACE_ID", "UPSTREAM_FILTER_STATE", "PATH",
      "DOWNSTREAM_LOCAL_CLOSE_REASON", "DOWNSTREAM_DETECTED_CLOSE_TYPE", "UPSTREAM_DETECTED_CLOSE_TYPE");

  /** Operators that need an argument in parentheses. */
  static final Set<String> ARGUMENT = Set.of("REQ", "RESP", "TRAILER", "REQ_WITHOUT_QUERY", "DYNAMIC_METADATA",
      "CLUSTER_METADATA", "UPSTREAM_METADATA", "METADATA", "FILTER_STATE", "UPSTREAM_FILTER_STATE", "ENVIRONMENT",
      "COMMON_DURATION", "CEL", "QUERY_PARAM", "CUSTOM_FLAGS");

  /** Plain operators that may also take an argument (a time format, path options). */
  static final Set<String> OPTIONAL_ARGUMENT = Set.of("START_TIME", "EMIT_TIME", "DOWNSTREAM_PEER_CERT_V_START",
      "DOWNSTREAM_PEER_CERT_V_END", "UPSTREAM_PEER_CERT_V_START", "UPSTREAM_PEER_CERT_V_END", "PATH");

  /**
   * {@code %NAME%}, {@code %NAME(ARG)%}, either with {@code :LENGTH} before the closing {@code %}. The argument may
   * hold anything but a closing parenthesis followed by {@code %} or {@code :digits%}, which ends it (START_TIME's
   * formats contain {@code %}).
   */
  private static final Pattern OPERATOR = Pattern.compile("%([A-Z0-9_]+)(?:\\((.*?)\\))?(?::\\d+)?%");

  private CommandOperators() {
  }

  /** The first problem of {@code format} at {@code field}, if any: an unknown or malformed operator. */
  public static Optional<Problem> check(String format, String field) {
    Matcher matcher = OPERATOR.matcher(format);
    int i = 0;
    while (i < format.length()) {
      int percent = format.indexOf('%', i);
      if (percent < 0) {
        break;
      }
      if (percent + 1 < format.length() && format.charAt(percent + 1) == '%') {
        i = percent + 2;
        continue;
      }
      matcher.region(percent, format.length());
      if (!matcher.lookingAt()) {
        return Optional.of(new Problem(field, TrafficReasons.MALFORMED_COMMAND_OPERATOR, "the % at position "
            + percent + " starts no command operator (%NAME%, %NAME(ARG)%, %NAME(ARG):LENGTH%; %% is a percent"
            + " sign)"));
      }
      String name = matcher.group(1);
      boolean argument = matcher.group(2) != null;
      boolean known = PLAIN.contains(name) || ARGUMENT.contains(name);
      if (!known) {
        return Optional.of(new Problem(field, TrafficReasons.UNKNOWN_COMMAND_OPERATOR, "%" + name
            + "% is not one of Envoy's command operators"));
      }
      if (ARGUMENT.contains(name) && (!argument || matcher.group(2).isEmpty())) {
        return Optional.of(new Problem(field, TrafficReasons.MALFORMED_COMMAND_OPERATOR, "%" + name
            + "% needs an argument, e.g. %" + name + "(...)%"));
      }
      if (argument && !ARGUMENT.contains(name) && !OPTIONAL_ARGUMENT.contains(name)) {
        return Optional.of(new Problem(field, TrafficReasons.MALFORMED_COMMAND_OPERATOR, "%" + name
            + "% takes no argument"));
      }
      i = matcher.end();
    }
    return Optional.empty();
  }
}
