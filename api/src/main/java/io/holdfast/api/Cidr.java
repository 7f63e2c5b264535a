package io.holdfast.api;

import com.google.common.net.InetAddresses;
import java.net.InetAddress;
import java.util.Objects;

/**
 * An IP network in CIDR notation ({@code 169.254.0.0/16}, {@code fe80::/10}); a bare address is a network of one.
 * Parsed from literals only (Guava's {@code InetAddresses}, which never resolves a name). IPv4 and IPv6 networks
 * never contain each other's addresses; an IPv4-mapped IPv6 literal ({@code ::ffff:127.0.0.1}) is parsed as the
 * IPv4 address it maps, so it cannot slip past an IPv4 entry.
 *
 * @param text the notation as written (shown in messages)
 */
public record Cidr(String text, byte[] network, int prefixLength) {

  public Cidr {
    Objects.requireNonNull(text, "text");
    network = network.clone();
    if (prefixLength < 0 || prefixLength > network.length * 8) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " is out of range 0-" + network.length * 8);
    }
  }

  /**
   * @throws IllegalArgumentException naming {@code text} if it is not an IP literal with an optional /length
   */
  public static Cidr parse(String text) {
    String trimmed = text.trim();
    int slash = trimmed.indexOf('/');
    String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
    if (!InetAddresses.isInetAddress(address)) {
      throw new IllegalArgumentException("'" + text + "' is not a CIDR (an IP address, optionally /prefix-length)");
    }
    byte[] bytes = InetAddresses.forString(address).getAddress();
    int length = bytes.length * 8;
    if (slash >= 0) {
      try {
        length = Integer.parseInt(trimmed.substring(slash + 1));
      } catch (NumberFormatException e) {
        length = -1;
      }
      if (length < 0 || length > bytes.length * 8) {
        throw new IllegalArgumentException("'" + text + "': the prefix length must be 0-" + bytes.length * 8);
      }
    }
    return new Cidr(trimmed, mask(bytes, length), length);
  }

  /** Whether {@code address} lies in this network (false for the other address family). */
  public boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    return bytes.length == network.length && java.util.Arrays.equals(mask(bytes, prefixLength), network);
  }

  private static byte[] mask(byte[] bytes, int length) {
    byte[] out = bytes.clone();
    for (int i = 0; i < out.length; i++) {
      int bits = Math.max(0, Math.min(8, length - i * 8));
      out[i] = (byte) (out[i] & (0xff << (8 - bits)));
    }
    return out;
  }

  @Override
  public byte[] network() {
    return network.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Cidr c && c.prefixLength == prefixLength && java.util.Arrays.equals(c.network, network);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(network) + prefixLength;
  }

  @Override
  public String toString() {
    return text;
  }
}
