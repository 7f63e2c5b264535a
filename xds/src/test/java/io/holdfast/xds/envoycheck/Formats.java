package io.holdfast.xds.envoycheck;

import com.google.common.net.InetAddresses;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.envoyproxy.pgv.validate.Validate.KnownRegex;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The string formats PGV knows, with the semantics of its C++ validators (what Envoy links): patterns must match
 * the whole value (RE2 FullMatch), IP literals are what inet_pton accepts (no zone, no brackets, no leading zeros
 * in IPv4), hostnames are dot-separated labels of 1-63 letters, digits and inner hyphens, 253 bytes at most.
 */
final class Formats {

  // validate.proto's well-known regexes; the non-strict form of both header kinds only bans NUL, CR and LF.
  private static final String HEADER_NAME = "^:?[0-9a-zA-Z!#$%&'*+-.^_|~`]+$";
  private static final String HEADER_VALUE = "^[^\\x00-\\x08\\x0A-\\x1F\\x7F]*$";
  private static final String HEADER_STRING = "^[^\\x00\\x0A\\x0D]*$";
  private static final String UUID = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

  private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

  private Formats() {
  }

  /** Whether {@code value} fully matches the RE2 {@code pattern}; throws if the pattern itself is not RE2. */
  static boolean fullMatch(String pattern, String value) {
    return COMPILED.computeIfAbsent(pattern, Formats::compile).matches(value);
  }

  /** The pattern PGV substitutes for a well-known regex, or null for {@code UNKNOWN}. */
  static String wellKnownPattern(KnownRegex regex, boolean strict) {
    return switch (regex) {
      case HTTP_HEADER_NAME -> strict ? HEADER_NAME : HEADER_STRING;
      case HTTP_HEADER_VALUE -> strict ? HEADER_VALUE : HEADER_STRING;
      default -> null;
    };
  }

  static boolean uuid(String value) {
    return fullMatch(UUID, value);
  }

  static boolean ip(String value) {
    return ipv4(value) || ipv6(value);
  }

  static boolean ipv4(String value) {
    return !value.contains(":") && !value.contains("%") && InetAddresses.isInetAddress(value);
  }

  static boolean ipv6(String value) {
    return value.contains(":") && !value.contains("%") && InetAddresses.isInetAddress(value);
  }

  /** An IP literal or a hostname, PGV's {@code address}. */
  static boolean address(String value) {
    return hostname(value) || ip(value);
  }

  static boolean hostname(String value) {
    String host = value.endsWith(".") ? value.substring(0, value.length() - 1) : value;
    if (value.length() > 253 || host.isEmpty()) {
      return false;
    }
    for (String label : host.split("\\.", -1)) {
      if (label.isEmpty() || label.length() > 63 || label.startsWith("-") || label.endsWith("-")
          || !label.chars().allMatch(c -> c < 0x80 && (Character.isLetterOrDigit(c) || c == '-'))) {
        return false;
      }
    }
    return true;
  }

  /** An absolute URI (PGV's {@code uri}); {@code uri_ref} also allows relative references. */
  static boolean uri(String value, boolean mustBeAbsolute) {
    try {
      URI uri = new URI(value);
      return !mustBeAbsolute || uri.isAbsolute();
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static Pattern compile(String pattern) {
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw new IllegalStateException("validate pattern is not RE2: " + pattern, e);
    }
  }
}
