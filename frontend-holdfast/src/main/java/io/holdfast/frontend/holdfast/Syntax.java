package io.holdfast.frontend.holdfast;

import com.google.common.net.InetAddresses;
import java.util.regex.Pattern;

/** Syntax rules for names, domains, addresses and header names. Pure functions. */
final class Syntax {

  private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern HOST_CHARS = Pattern.compile("[a-z0-9]([-a-z0-9.]*[a-z0-9])?");
  /**
   * A TLS server name's characters: a host name's, and '_', which clients send (Gloo's SNI cluster names are
   * {@code <upstream>_<namespace>}) and Envoy's {@code server_names} match as any other character.
   */
  private static final Pattern SERVER_NAME_CHARS = Pattern.compile("[a-z0-9_]([-a-z0-9._]*[a-z0-9_])?");
  private static final Pattern HOST_LABEL = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?");
  private static final Pattern PORT_SUFFIX = Pattern.compile(":[0-9]{1,5}$");
  /** RFC 9110 token characters; pseudo-headers (":authority") are allowed too. */
  private static final Pattern HEADER_NAME = Pattern.compile(":?[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private Syntax() {
  }

  /**
   * Kubernetes object names (DNS-1123 subdomain: {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} labels joined by dots).
   * Checked by hand rather than by a regex: every reference of every route is checked, on every config change.
   */
  static boolean isObjectName(String name) {
    if (name.length() > 253) {
      return false;
    }
    int start = 0;
    for (int dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', start)) {
      if (!isDnsLabel(name, start, dot)) {
        return false;
      }
      start = dot + 1;
    }
    return isDnsLabel(name, start, name.length());
  }

  /** Kubernetes namespaces (DNS-1123 label). */
  static boolean isNamespace(String namespace) {
    return namespace.length() <= 63 && isDnsLabel(namespace, 0, namespace.length());
  }

  /** Whether {@code text[from, to)} is {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}. */
  private static boolean isDnsLabel(String text, int from, int to) {
    if (from >= to || text.charAt(from) == '-' || text.charAt(to - 1) == '-') {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /** Kubernetes Service names (DNS-1035 label). */
  static boolean isServiceName(String name) {
    return name.length() <= 63 && DNS_1035_LABEL.matcher(name).matches();
  }

  static boolean isPort(int port) {
    return port >= 1 && port <= 65535;
  }

  /** IP literal (v4 or v6): EDS endpoints and listener addresses must not need DNS. */
  static boolean isIpAddress(String address) {
    return InetAddresses.isInetAddress(address);
  }

  /**
   * A DNS host name (RFC 1123 labels of up to 63 characters, any case, an optional final dot, at most 253
   * characters). The last label must not be all digits, so a malformed IPv4 address such as 10.0.0.256 is not
   * taken for a name.
   */
  static boolean isHostName(String name) {
    String bare = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    if (bare.isEmpty() || bare.length() > 253) {
      return false;
    }
    String[] labels = bare.split("\\.", -1);
    for (String label : labels) {
      if (!HOST_LABEL.matcher(label).matches()) {
        return false;
      }
    }
    return !labels[labels.length - 1].chars().allMatch(Character::isDigit);
  }

  /** True for the IPv4 or IPv6 any-address. */
  static boolean isWildcardAddress(String address) {
    return isIpAddress(address) && InetAddresses.forString(address).isAnyLocalAddress();
  }

  static boolean isHeaderName(String name) {
    return HEADER_NAME.matcher(name).matches();
  }

  /**
   * Why {@code name} is not a TLS server name Envoy can match in {@code filter_chain_match.server_names}, or null
   * if it is: a lower case host name (which may also hold '_'), or {@code *.} followed by one ({@code *.example.com},
   * which matches any name ending in {@code .example.com}). No port, no bare {@code *}: a host without SNI names
   * takes the rest.
   */
  static String serverNameError(String name) {
    if (name.isEmpty()) {
      return "empty name";
    }
    if (!name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
      return "must be lower case";
    }
    String host = name.startsWith("*.") ? name.substring(2) : name;
    if (host.contains("*")) {
      return "a wildcard must be a leading *. (as in *.example.com); leave sniDomains out to take every name";
    }
    if (host.length() > 253 || !SERVER_NAME_CHARS.matcher(host).matches() || host.contains("..")) {
      return "not a valid host name";
    }
    return null;
  }

  /**
   * Why {@code domain} is not a valid Envoy virtual-host domain, or null if it is. Accepted: {@code *}, a lower
   * case host name with at most one {@code *} as its first or last character ({@code *.example.com},
   * {@code api.*}), optionally followed by {@code :port}.
   */
  static String domainError(String domain) {
    if (domain.equals("*")) {
      return null;
    }
    String host = domain;
    var port = PORT_SUFFIX.matcher(domain);
    if (port.find()) {
      int value = Integer.parseInt(domain.substring(port.start() + 1));
      if (!isPort(value)) {
        return "port " + value + " is out of range 1-65535";
      }
      host = domain.substring(0, port.start());
    }
    if (host.isEmpty()) {
      return "empty host";
    }
    if (!host.equals(host.toLowerCase(java.util.Locale.ROOT))) {
      return "must be lower case";
    }
    int stars = host.length() - host.replace("*", "").length();
    if (stars > 1 || (stars == 1 && !host.startsWith("*") && !host.endsWith("*"))) {
      return "a wildcard must be a single * at the start or end";
    }
    String bare = host.startsWith("*") ? host.substring(1) : host.endsWith("*")
        ? host.substring(0, host.length() - 1) : host;
    if (stars == 1 && bare.isEmpty()) {
      return null;
    }
    if (stars == 1) {
      // "*.example.com" and "*-bar.example.com" keep their separator next to the star.
      bare = bare.replaceAll("^[.-]|[.-]$", "");
    }
    if (bare.length() > 253 || !HOST_CHARS.matcher(bare).matches() || bare.contains("..")) {
      return "not a valid host name";
    }
    return null;
  }
}
