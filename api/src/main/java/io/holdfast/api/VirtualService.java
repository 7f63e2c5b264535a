package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Routes for a set of domains ({@code kind: VirtualService}); becomes one Envoy virtual host on each Gateway
 * that selects it, and one proxyless-gRPC API listener per non-wildcard domain.
 *
 * @param routes        evaluated in order; the first match wins
 * @param options       defaults for every route ({@code spec.options})
 * @param sslConfig     how it is served on HTTPS Gateways; a plain-HTTP Gateway ignores it
 * @param httpsRedirect on plain-HTTP Gateways, answer every request with a redirect to https instead of routing it
 */
public record VirtualService(Metadata metadata, List<String> domains, List<Route> routes,
    VirtualHostOptions options, Optional<SslConfig> sslConfig, boolean httpsRedirect) implements GatewayResource {

  public VirtualService {
    Objects.requireNonNull(metadata, "metadata");
    domains = List.copyOf(domains);
    routes = List.copyOf(routes);
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(sslConfig, "sslConfig");
  }

  /** A VirtualService without {@code spec.options} or TLS settings. */
  public VirtualService(Metadata metadata, List<String> domains, List<Route> routes) {
    this(metadata, domains, routes, VirtualHostOptions.NONE, Optional.empty(), false);
  }

  /** A VirtualService without TLS settings. */
  public VirtualService(Metadata metadata, List<String> domains, List<Route> routes, VirtualHostOptions options) {
    this(metadata, domains, routes, options, Optional.empty(), false);
  }

  /** A VirtualService without {@code spec.options}. */
  public VirtualService(Metadata metadata, List<String> domains, List<Route> routes, Optional<SslConfig> sslConfig,
      boolean httpsRedirect) {
    this(metadata, domains, routes, VirtualHostOptions.NONE, sslConfig, httpsRedirect);
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

  @Override
  public VirtualService withMetadata(Metadata value) {
    return new VirtualService(value, domains, routes, options, sslConfig, httpsRedirect);
  }
}
