package io.holdfast.ir;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Routes for a set of domains. Its name in Envoy comes from its origin object.
 *
 * @param domains host names, each optionally with {@code :port} and one {@code *} at the start or end; no
 *                duplicates
 * @param routes  evaluated in order; the first match wins
 */
public record VirtualHost(Origin origin, List<String> domains, List<Route> routes) {

  public VirtualHost {
    Objects.requireNonNull(origin, "origin");
    domains = List.copyOf(domains);
    routes = List.copyOf(routes);
    if (domains.isEmpty()) {
      throw new IllegalArgumentException(origin + ": a virtual host needs at least one domain");
    }
    Set<String> seen = new HashSet<>();
    for (String domain : domains) {
      if (!seen.add(domain)) {
        throw new IllegalArgumentException(origin + ": domain " + domain + " is listed twice");
      }
    }
  }

  /** The same routes for other domains (a client listener serves one domain of a virtual host). */
  public VirtualHost withDomains(List<String> newDomains) {
    return new VirtualHost(origin, newDomains, routes);
  }
}
