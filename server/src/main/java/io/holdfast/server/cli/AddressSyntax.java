package io.holdfast.server.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Syntax checks for bind addresses. Deliberately never resolves a name: validating flags must not wait on DNS.
 */
final class AddressSyntax {
  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");
  private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

  private AddressSyntax() {
  }

  /** True for an IPv4 literal, an IPv6 literal (optionally in brackets) or an RFC 1123 host name. */
  static boolean isValid(String address) {
    if (address == null || address.isEmpty() || address.length() > 253) {
      return false;
    }
    String bare = stripBrackets(address);
    if (bare.contains(":")) {
      return isIpv6Literal(bare);
    }
    if (!bare.equals(address)) {
      return false; // brackets are only for IPv6
    }
    String[] labels = bare.split("\\.", -1);
    boolean allNumeric = true;
    for (String label : labels) {
      if (!LABEL.matcher(label).matches()) {
        return false;
      }
      allNumeric &= DIGITS.matcher(label).matches();
    }
    // "999.1.1.1" or "10.1" look like addresses, not names: insist they are well-formed IPv4.
    return !allNumeric || isIpv4Literal(labels);
  }

  /** The address without IPv6 brackets, as {@link java.net.InetSocketAddress} expects it. */
  static String stripBrackets(String address) {
    if (address.length() > 2 && address.startsWith("[") && address.endsWith("]")) {
      return address.substring(1, address.length() - 1);
    }
    return address;
  }

  private static boolean isIpv4Literal(String[] labels) {
    if (labels.length != 4) {
      return false;
    }
    for (String label : labels) {
      if (label.length() > 3 || Integer.parseInt(label) > 255) {
        return false;
      }
    }
    return true;
  }

  private static boolean isIpv6Literal(String bare) {
    if (!IPV6_CHARS.matcher(bare).matches()) {
      return false;
    }
    try {
      // In brackets the JDK parses a literal and throws rather than falling back to a DNS lookup.
      InetAddress.getByName("[" + bare + "]");
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
