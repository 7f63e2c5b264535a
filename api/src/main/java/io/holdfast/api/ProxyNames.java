package io.holdfast.api;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * {@code spec.proxyNames} of a Gateway or TcpGateway: the proxies that serve it, by the name their xDS client
 * certificate authenticates (a SPIFFE URI SAN {@code spiffe://<trust-domain>/proxy/<name>}, or the subject CN). A
 * proxy is served only the Gateways that name it. Default {@link #DEFAULT}, Gloo Edge's default proxy name.
 */
public final class ProxyNames {

  /** The proxy names of a Gateway that gives none. */
  public static final List<String> DEFAULT = List.of("gateway-proxy");

  /**
   * Proxy names per Gateway. Reason: each name is a scope the xDS server may index, and a Gateway is served by a
   * handful of proxy deployments at most.
   */
  public static final int MAX_NAMES = 16;

  /** Longest proxy name, as a Kubernetes object name (DNS subdomain). */
  public static final int MAX_LENGTH = 253;

  private ProxyNames() {
  }

  /** {@code proxyNames} of {@code spec}, or the default; empty (with problems) if any name is invalid. */
  static Optional<List<String>> parse(Fields spec) {
    if (!spec.has("proxyNames")) {
      return Optional.of(DEFAULT);
    }
    return spec.stringList("proxyNames", true).flatMap(names -> {
      String path = spec.path("proxyNames");
      if (names.isEmpty()) {
        spec.problem(path, Reasons.INVALID_VALUE, "proxyNames needs at least one name (or leave it out for the"
            + " default " + DEFAULT.get(0) + ")");
        return Optional.empty();
      }
      if (names.size() > MAX_NAMES) {
        spec.problem(path, Reasons.INVALID_VALUE, names.size() + " proxy names, more than the " + MAX_NAMES
            + " a Gateway may name");
        return Optional.empty();
      }
      boolean ok = true;
      for (int i = 0; i < names.size(); i++) {
        Optional<String> problem = problem(names.get(i));
        if (problem.isPresent()) {
          spec.problem(Fields.index(path, i), Reasons.INVALID_VALUE, problem.get());
          ok = false;
        }
      }
      return ok ? Optional.of(List.copyOf(new LinkedHashSet<>(names))) : Optional.empty();
    });
  }

  /** What is wrong with {@code name} as a proxy name, if anything. */
  public static Optional<String> problem(String name) {
    if (name.isEmpty()) {
      return Optional.of("a proxy name is not empty");
    }
    if (name.length() > MAX_LENGTH) {
      return Optional.of("proxy name of " + name.length() + " chars, longer than " + MAX_LENGTH);
    }
    if (name.chars().anyMatch(c -> c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))) {
      return Optional.of("a proxy name has no control characters");
    }
    return Optional.empty();
  }
}
