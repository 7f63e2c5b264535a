package io.holdfast.ir;

import com.google.common.net.InetAddresses;
import java.util.List;
import java.util.Objects;

/** Where requests come in, and the virtual hosts that take them. */
public sealed interface Listener {

  Origin origin();

  List<FilterChain> filterChains();

  /** Every virtual host of every filter chain, in order. */
  default List<VirtualHost> virtualHosts() {
    return filterChains().stream().flatMap(chain -> chain.virtualHosts().stream()).toList();
  }

  /** The protocol a socket listener speaks. */
  enum Protocol {
    HTTP
  }

  /**
   * A socket on {@code address:port}. Its identity is its origin object: one socket listener per object.
   *
   * @param address IP literal; the any-address ({@code 0.0.0.0}, {@code ::}) overlaps every address on the port
   */
  record Socket(Origin origin, String address, int port, Protocol protocol, List<FilterChain> filterChains)
      implements Listener {
    public Socket {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(protocol, "protocol");
      filterChains = List.copyOf(filterChains);
      if (!InetAddresses.isInetAddress(address)) {
        throw new IllegalArgumentException(origin + ": address " + address + " is not an IP literal");
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException(origin + ": port " + port + " is out of range 1-65535");
      }
      if (filterChains.size() != 1) {
        // TLS brings several chains (one per server name); until then a listener has exactly one.
        throw new IllegalArgumentException(origin + ": exactly one filter chain, got " + filterChains.size());
      }
    }
  }

  /**
   * What a proxyless gRPC client asks for by name when its channel targets {@code xds:///target}: no socket,
   * one virtual host. The client implements a subset of Envoy's routing, which the translator accounts for.
   * Its identity is {@code target}, unique across all front ends.
   */
  record ClientApi(Origin origin, String target, VirtualHost virtualHost) implements Listener {
    public ClientApi {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(virtualHost, "virtualHost");
      if (target.isEmpty() || target.contains("*")) {
        throw new IllegalArgumentException(origin + ": a client target is a name, not \"" + target + "\"");
      }
    }

    @Override
    public List<FilterChain> filterChains() {
      return List.of(new FilterChain(List.of(virtualHost)));
    }
  }

  /** One way of handling a connection: today plain-text HTTP to a list of virtual hosts. */
  record FilterChain(List<VirtualHost> virtualHosts) {
    public FilterChain {
      virtualHosts = List.copyOf(virtualHosts);
    }
  }
}
