package io.holdfast.frontend.gatewayapi;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Gateway API's hostname rules. A hostname is a DNS name, or {@code *.} followed by one: the wildcard stands
 * for one or more labels ({@code *.example.test} matches {@code a.example.test} and {@code a.b.example.test}, not
 * {@code example.test}). A listener without a hostname takes every hostname. Pure.
 */
final class Hostnames {

  /** The domain of a virtual host serving every hostname. */
  static final String ANY = "*";

  private static final Pattern NAME =
      Pattern.compile("^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

  private Hostnames() {
  }

  /** Why {@code hostname} is not a valid listener or route hostname; empty if it is. */
  static Optional<String> problem(String hostname) {
    if (hostname.length() > 253 || !NAME.matcher(hostname).matches()) {
      return Optional.of("hostname \"" + hostname + "\" is not a lower-case DNS name, optionally prefixed by *.");
    }
    if (!hostname.startsWith("*") && hostname.chars().allMatch(c -> c == '.' || Character.isDigit(c))) {
      return Optional.of("hostname \"" + hostname + "\" is an IP address, which a hostname may not be");
    }
    return Optional.empty();
  }

  static boolean isWildcard(String hostname) {
    return hostname.startsWith("*.");
  }

  /** Whether {@code pattern} (a listener's hostname, possibly a wildcard) takes every name {@code name} stands for. */
  static boolean covers(String pattern, String name) {
    if (pattern.equals(name)) {
      return true;
    }
    String suffix = pattern.substring(1);
    return isWildcard(pattern) && name.endsWith(suffix) && name.length() > suffix.length()
        && !name.substring(0, name.length() - suffix.length()).equals("*");
  }

  /**
   * The hostnames a route serves on a listener: the intersection of the listener's hostname and the route's
   * hostnames. Each route hostname the listener covers is kept; a route wildcard that covers the listener's exact
   * hostname (or a narrower wildcard) gives the listener's. Empty when nothing intersects, so the route does not
   * attach; {@link #ANY} when neither side names a hostname.
   */
  static List<String> intersect(Optional<String> listener, List<String> route) {
    if (listener.isEmpty()) {
      return route.isEmpty() ? List.of(ANY) : List.copyOf(new LinkedHashSet<>(route));
    }
    if (route.isEmpty()) {
      return List.of(listener.get());
    }
    LinkedHashSet<String> out = new LinkedHashSet<>();
    for (String hostname : route) {
      if (covers(listener.get(), hostname)) {
        out.add(hostname);
      } else if (covers(hostname, listener.get())) {
        out.add(listener.get());
      }
    }
    return new ArrayList<>(out);
  }

  /**
   * How closely a listener's hostname matches {@code name} (higher is closer; -1: not at all). A request is
   * handled by the listener that matches its host most closely: an exact hostname, then the longest wildcard,
   * then a listener without hostname.
   */
  static int closeness(Optional<String> listener, String name) {
    if (listener.isEmpty()) {
      return 0;
    }
    if (listener.get().equals(name)) {
      return Integer.MAX_VALUE;
    }
    return covers(listener.get(), name) ? listener.get().length() : -1;
  }
}
