package io.holdfast.api;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;

/**
 * The address a host name makes the proxy connect to without asking DNS: IP literals, the names RFC 6761 reserves
 * for loopback ({@code localhost} and {@code *.localhost}, which resolvers answer without asking DNS), and host
 * names that C resolvers read as IPv4 numbers ({@code 0x7f000001}). Any other name is not an address here. Both
 * front ends judge upstream addresses with it ({@link AccessPolicy}). Pure.
 */
public final class HostLiterals {

  private HostLiterals() {
  }

  /** The address the proxy would connect to without asking DNS, if {@code host} names one. */
  public static Optional<InetAddress> literal(String host) {
    String bare = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    if (InetAddresses.isInetAddress(bare)) {
      return Optional.of(InetAddresses.forString(bare));
    }
    String lower = bare.toLowerCase(Locale.ROOT);
    if (lower.equals("localhost") || lower.endsWith(".localhost")) {
      return Optional.of(InetAddress.getLoopbackAddress());
    }
    return ipv4Number(lower).map(HostLiterals::ipv4);
  }

  /**
   * {@code inet_aton}'s forms: one to four parts, each decimal, octal (leading 0) or hexadecimal (0x), the last
   * filling the remaining bytes. At most 4 parts of at most 253 characters in all (a host name's bound).
   */
  private static Optional<Long> ipv4Number(String text) {
    String[] parts = text.split("\\.", -1);
    if (parts.length > 4 || text.length() > 253) {
      return Optional.empty();
    }
    long value = 0;
    for (int i = 0; i < parts.length; i++) {
      Optional<Long> part = number(parts[i]);
      long max = i == parts.length - 1 ? (1L << (8 * (4 - i))) - 1 : 255;
      if (part.isEmpty() || part.get() > max) {
        return Optional.empty();
      }
      value = i == parts.length - 1 ? value | part.get() : value | (part.get() << (8 * (3 - i)));
    }
    return Optional.of(value);
  }

  private static Optional<Long> number(String part) {
    if (!part.matches("[0-9a-fx]*")) {
      return Optional.empty();
    }
    try {
      if (part.startsWith("0x")) {
        return part.length() > 2 && part.length() <= 10 ? Optional.of(Long.parseLong(part.substring(2), 16))
            : Optional.empty();
      }
      if (part.isEmpty() || part.length() > 12) {
        return Optional.empty();
      }
      return Optional.of(part.length() > 1 && part.startsWith("0") ? Long.parseLong(part.substring(1), 8)
          : Long.parseLong(part));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static InetAddress ipv4(long value) {
    return InetAddresses.fromInteger((int) value);
  }
}
