package io.holdfast.api;

import java.util.List;
import java.util.Objects;

/**
 * Routes for a set of domains ({@code kind: VirtualService}); becomes one Envoy virtual host on each Gateway
 * that selects it, and one proxyless-gRPC API listener per non-wildcard domain.
 *
 * @param routes  evaluated in order; the first match wins
 * @param options defaults for every route ({@code spec.options})
 */
public record VirtualService(Metadata metadata, List<String> domains, List<Route> routes,
    VirtualHostOptions options) implements GatewayResource {

  public VirtualService {
    Objects.requireNonNull(metadata, "metadata");
    domains = List.copyOf(domains);
    routes = List.copyOf(routes);
    Objects.requireNonNull(options, "options");
  }

  /** A VirtualService without {@code spec.options}. */
  public VirtualService(Metadata metadata, List<String> domains, List<Route> routes) {
    this(metadata, domains, routes, VirtualHostOptions.NONE);
  }

  /**
   * The domains served to proxyless gRPC clients: each non-wildcard domain gets an API listener named after it
   * (the name a channel to {@code xds:///domain} asks for); a wildcard cannot be such a name.
   */
  public List<String> grpcDomains() {
    return domains.stream().filter(d -> !d.contains("*")).toList();
  }

  @Override
  public String kind() {
    return ResourceKey.VIRTUAL_SERVICE;
  }
}
