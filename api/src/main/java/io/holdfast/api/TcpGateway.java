package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A listening socket that forwards whole connections ({@code kind: TcpGateway}), as Gloo's {@code tcpGateway}:
 * hosts with {@code sniDomains} take TLS connections whose SNI names one of them and forward them still encrypted
 * (TLS passthrough), or, with an {@code sslConfig}, terminate TLS with its certificate and forward plain TCP; at
 * most one host without {@code sniDomains} takes every other connection (plain TCP proxy, or TLS termination).
 * Becomes one Envoy listener with one {@code tcp_proxy} filter chain per host.
 *
 * @param bindAddress IP literal, default {@code 0.0.0.0}
 * @param hosts       in written order
 * @param proxyNames  the proxies that serve this gateway ({@link ProxyNames}); default {@code [gateway-proxy]}
 */
public record TcpGateway(Metadata metadata, String bindAddress, int port, List<Host> hosts, List<String> proxyNames)
    implements GatewayResource {

  public TcpGateway {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(bindAddress, "bindAddress");
    hosts = List.copyOf(hosts);
    proxyNames = List.copyOf(proxyNames);
  }

  /** Served by the default proxy ({@link ProxyNames#DEFAULT}). */
  public TcpGateway(Metadata metadata, String bindAddress, int port, List<Host> hosts) {
    this(metadata, bindAddress, port, hosts, ProxyNames.DEFAULT);
  }

  /**
   * One way of handling connections.
   *
   * @param name        unique within the gateway; names the Envoy filter chain
   * @param sniDomains  TLS server names this host takes (exact, or {@code *.suffix}); empty: the default host
   * @param destination a {@link RouteAction.Forward} ({@code upstream}) or a {@link RouteAction.Split}
   *                    ({@code split}), never another action
   * @param sslConfig   when present, the host terminates TLS with this certificate (and client CA) and forwards
   *                    the decrypted bytes; its own {@code sniDomains} are not used (the host's select it)
   * @param sourcePrefixRanges client networks (CIDR text, checked by the rules) the host takes; empty: every client.
   *                    Hosts with different source ranges may share SNI domains or both be default hosts
   */
  public record Host(String name, List<String> sniDomains, RouteAction destination, Optional<SslConfig> sslConfig,
      List<String> sourcePrefixRanges) {
    public Host {
      Objects.requireNonNull(name, "name");
      sniDomains = List.copyOf(sniDomains);
      sourcePrefixRanges = List.copyOf(sourcePrefixRanges);
      Objects.requireNonNull(destination, "destination");
      Objects.requireNonNull(sslConfig, "sslConfig");
      if (!(destination instanceof RouteAction.Forward) && !(destination instanceof RouteAction.Split)) {
        throw new IllegalArgumentException("a TCP host forwards or splits, got " + destination);
      }
    }

    /** A host that does not terminate TLS. */
    public Host(String name, List<String> sniDomains, RouteAction destination) {
      this(name, sniDomains, destination, Optional.empty());
    }

    /** A host taking every client. */
    public Host(String name, List<String> sniDomains, RouteAction destination, Optional<SslConfig> sslConfig) {
      this(name, sniDomains, destination, sslConfig, List.of());
    }

    /** The same host terminating TLS with {@code value} (or not, when empty). */
    public Host withSslConfig(Optional<SslConfig> value) {
      return new Host(name, sniDomains, destination, value, sourcePrefixRanges);
    }

    /** The same host selected by the server names {@code value} (the default host when empty). */
    public Host withSniDomains(List<String> value) {
      return new Host(name, value, destination, sslConfig, sourcePrefixRanges);
    }

    /** The same host taking only clients in {@code value} (every client when empty). */
    public Host withSourcePrefixRanges(List<String> value) {
      return new Host(name, sniDomains, destination, sslConfig, value);
    }

    /** True for the host without SNI domains, which takes every connection no SNI host takes. */
    public boolean isDefault() {
      return sniDomains.isEmpty();
    }
  }

  /**
   * The secret-data keys of the TLS material the hosts' {@code sslConfig}s name (certificates, then client CAs),
   * resolved against this gateway's namespace; empty when no host terminates TLS.
   */
  public List<ResourceKey> materialKeys() {
    List<ResourceKey> keys = new java.util.ArrayList<>();
    for (Host host : hosts) {
      host.sslConfig().ifPresent(ssl -> {
        keys.addAll(ssl.certificateKeys(metadata.namespace()));
        keys.addAll(ssl.clientCaKeys(metadata.namespace()));
      });
    }
    return List.copyOf(keys);
  }

  @Override
  public String kind() {
    return ResourceKey.TCP_GATEWAY;
  }

  @Override
  public TcpGateway withMetadata(Metadata value) {
    return new TcpGateway(value, bindAddress, port, hosts, proxyNames);
  }
}
