package io.holdfast.ir;

import com.google.common.net.InetAddresses;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** Where requests or connections come in, and what handles them. */
public sealed interface Listener {

  /**
   * The proxy name Holdfast kinds default to ({@code spec.proxyNames}), as in Gloo Edge; also the proxy of
   * listeners whose source names none.
   */
  String DEFAULT_PROXY_NAME = "gateway-proxy";

  /** {@link #DEFAULT_PROXY_NAME} alone. */
  SortedSet<String> DEFAULT_PROXY_NAMES = Collections.unmodifiableSortedSet(new TreeSet<>(Set.of(DEFAULT_PROXY_NAME)));

  Origin origin();

  List<FilterChain> filterChains();

  /**
   * The proxies that serve this listener, by the name their client certificate authenticates (see the xDS
   * server's proxy identity): a proxy is served this listener and what it uses, and nothing of listeners that do
   * not name it. From the origin Gateway: a Holdfast Gateway's {@code spec.proxyNames}, a Gateway API Gateway's
   * {@code namespace/name}. Sorted; may be empty (then no proxy is served it).
   */
  SortedSet<String> proxyNames();

  /** Every virtual host of every HTTP filter chain, in order. */
  default List<VirtualHost> virtualHosts() {
    return filterChains().stream()
        .flatMap(chain -> chain instanceof FilterChain.Http http ? http.virtualHosts().stream() : java.util.stream.Stream.empty())
        .toList();
  }

  /**
   * A socket on {@code address:port}. Its identity is its origin object and port: one socket listener per object
   * and port (a Holdfast Gateway has one port; a Gateway API Gateway one socket per listener port). A
   * connection is handled by the chain whose {@link ChainMatch} selects it (Envoy's rule: the most specific server
   * name wins; a chain without server names takes the rest).
   *
   * @param address      IP literal; the any-address ({@code 0.0.0.0}, {@code ::}) overlaps every address on the port
   * @param filterChains at least one; chain names are unique, and no two chains match the same connections (among
   *                     chains with the same source ranges: at most one without server names, no server name on
   *                     two)
   * @param socketOptions PROXY protocol and buffer limit, for every chain
   * @param dataPlane     who listens on the socket: Envoy, or a proxyless gRPC server (then plain-text HTTP chains
   *                      without server names and no socket options)
   */
  record Socket(Origin origin, String address, int port, List<FilterChain> filterChains,
      SortedSet<String> proxyNames, SocketOptions socketOptions, DataPlane dataPlane) implements Listener {
    public Socket {
      Objects.requireNonNull(socketOptions, "socketOptions");
      Objects.requireNonNull(dataPlane, "dataPlane");
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(address, "address");
      filterChains = List.copyOf(filterChains);
      proxyNames = proxyNamesOf(proxyNames);
      if (!InetAddresses.isInetAddress(address)) {
        throw new IllegalArgumentException(origin + ": address " + address + " is not an IP literal");
      }
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException(origin + ": port " + port + " is out of range 1-65535");
      }
      if (filterChains.isEmpty()) {
        throw new IllegalArgumentException(origin + ": a socket listener needs at least one filter chain");
      }
      Set<String> names = new HashSet<>();
      // Per set of source ranges: the server names taken, and whether a chain without server names was seen.
      Map<Set<SourceRange>, Set<String>> serverNames = new HashMap<>();
      Set<Set<SourceRange>> catchAll = new HashSet<>();
      for (FilterChain chain : filterChains) {
        if (!names.add(chain.name())) {
          throw new IllegalArgumentException(origin + ": filter chain name " + chain.name() + " is used twice");
        }
        Set<SourceRange> sources = chain.match().sourceKey();
        if (chain.match().serverNames().isEmpty() && !catchAll.add(sources)) {
          throw new IllegalArgumentException(origin + ": two filter chains without server names"
              + (sources.isEmpty() ? "" : " for source ranges " + chain.match().sourcePrefixRanges()));
        }
        Set<String> taken = serverNames.computeIfAbsent(sources, k -> new HashSet<>());
        for (String serverName : chain.match().serverNames()) {
          if (!taken.add(serverName)) {
            throw new IllegalArgumentException(origin + ": server name " + serverName + " is on two filter chains"
                + (sources.isEmpty() ? "" : " for source ranges " + chain.match().sourcePrefixRanges()));
          }
        }
      }
      if (dataPlane == DataPlane.GRPC_SERVER && (!socketOptions.equals(SocketOptions.NONE)
          || filterChains.stream().anyMatch(c -> !(c instanceof FilterChain.Http) || c.tls().isPresent()
              || !c.match().equals(ChainMatch.ANY)))) {
        // gRPC servers reject listener filters (PROXY protocol, TLS inspector) and terminate TLS only with
        // certificate providers of their own bootstrap.
        throw new IllegalArgumentException(origin + ": a gRPC server listener has plain HTTP chains only and no"
            + " socket options");
      }
    }

    /** Served to Envoy. */
    public Socket(Origin origin, String address, int port, List<FilterChain> filterChains,
        SortedSet<String> proxyNames, SocketOptions socketOptions) {
      this(origin, address, port, filterChains, proxyNames, socketOptions, DataPlane.ENVOY);
    }

    /** Without socket options. */
    public Socket(Origin origin, String address, int port, List<FilterChain> filterChains,
        SortedSet<String> proxyNames) {
      this(origin, address, port, filterChains, proxyNames, SocketOptions.NONE);
    }

    /** Served by {@link #DEFAULT_PROXY_NAMES}. */
    public Socket(Origin origin, String address, int port, List<FilterChain> filterChains) {
      this(origin, address, port, filterChains, DEFAULT_PROXY_NAMES);
    }

    /** True if any chain terminates TLS or selects by server name: Envoy then needs the TLS inspector. */
    public boolean inspectsTls() {
      return filterChains.stream().anyMatch(c -> c.tls().isPresent() || !c.match().serverNames().isEmpty());
    }

    /** The same listener with other chains (the builder drops virtual hosts that lost a domain claim). */
    public Socket withFilterChains(List<FilterChain> chains) {
      return new Socket(origin, address, port, chains, proxyNames, socketOptions, dataPlane);
    }

    /** The same listener served to {@code newDataPlane}. */
    public Socket withDataPlane(DataPlane newDataPlane) {
      return new Socket(origin, address, port, filterChains, proxyNames, socketOptions, newDataPlane);
    }
  }

  /**
   * Who listens on a socket listener. {@code ENVOY}: an Envoy proxy, which forwards by the routes. {@code
   * GRPC_SERVER}: a proxyless gRPC server (grpc-java's {@code XdsServerBuilder}, gRFC A36) that asks for the
   * listener by name and handles every call itself; its routes only select calls and their authorisation rules
   * (gRFC A41), so they carry {@code non_forwarding_action}, and its connection manager runs only the filters
   * gRPC servers implement.
   */
  enum DataPlane {
    ENVOY, GRPC_SERVER
  }

  /**
   * What a proxyless gRPC client asks for by name when its channel targets {@code xds:///target}: no socket,
   * one virtual host. The client implements a subset of Envoy's routing, which the translator accounts for.
   * Its identity is {@code target}, unique across all front ends.
   */
  record ClientApi(Origin origin, String target, VirtualHost virtualHost, SortedSet<String> proxyNames)
      implements Listener {
    public ClientApi {
      Objects.requireNonNull(origin, "origin");
      Objects.requireNonNull(target, "target");
      Objects.requireNonNull(virtualHost, "virtualHost");
      proxyNames = proxyNamesOf(proxyNames);
      if (target.isEmpty() || target.contains("*")) {
        throw new IllegalArgumentException(origin + ": a client target is a name, not \"" + target + "\"");
      }
    }

    /** Served by {@link #DEFAULT_PROXY_NAMES}. */
    public ClientApi(Origin origin, String target, VirtualHost virtualHost) {
      this(origin, target, virtualHost, DEFAULT_PROXY_NAMES);
    }

    /** The same client listener with another virtual host. */
    public ClientApi withVirtualHost(VirtualHost host) {
      return new ClientApi(origin, target, host, proxyNames);
    }

    @Override
    public List<FilterChain> filterChains() {
      return List.of(new FilterChain.Http(origin, "default", ChainMatch.ANY, Optional.empty(), List.of(virtualHost)));
    }
  }

  /** An immutable sorted copy; the front ends validate names, this only refuses nulls. */
  private static SortedSet<String> proxyNamesOf(Set<String> names) {
    Objects.requireNonNull(names, "proxyNames");
    TreeSet<String> copy = new TreeSet<>();
    names.forEach(name -> copy.add(Objects.requireNonNull(name, "proxy name")));
    return Collections.unmodifiableSortedSet(copy);
  }

  /**
   * Which connections a filter chain takes.
   *
   * @param serverNames        TLS SNI names (exact, or {@code *.suffix}); empty takes every connection no other chain
   *                           takes
   * @param sourcePrefixRanges client networks the chain takes (Envoy's {@code source_prefix_ranges}); empty: any
   *                           client. Chains are compared on both fields: two chains may share server names (or both
   *                           have none) when their source ranges differ
   */
  record ChainMatch(List<String> serverNames, List<SourceRange> sourcePrefixRanges) {
    public static final ChainMatch ANY = new ChainMatch(List.of());

    public ChainMatch {
      serverNames = List.copyOf(serverNames);
      sourcePrefixRanges = List.copyOf(sourcePrefixRanges);
      if (new HashSet<>(serverNames).size() != serverNames.size()) {
        throw new IllegalArgumentException("server names listed twice: " + serverNames);
      }
      if (new HashSet<>(sourcePrefixRanges).size() != sourcePrefixRanges.size()) {
        throw new IllegalArgumentException("source ranges listed twice: " + sourcePrefixRanges);
      }
    }

    /** Any client. */
    public ChainMatch(List<String> serverNames) {
      this(serverNames, List.of());
    }

    /** The same match restricted to clients in {@code ranges}. */
    public ChainMatch withSourcePrefixRanges(List<SourceRange> ranges) {
      return new ChainMatch(serverNames, ranges);
    }

    /** The source ranges as a set: the part of the match that must differ between chains sharing server names. */
    Set<SourceRange> sourceKey() {
      return Set.copyOf(sourcePrefixRanges);
    }
  }

  /**
   * A client network in CIDR form.
   *
   * @param addressPrefix an IP literal with no bits set past {@code prefixLength} (the front ends normalise it)
   */
  record SourceRange(String addressPrefix, int prefixLength) {
    public SourceRange {
      Objects.requireNonNull(addressPrefix, "addressPrefix");
      if (!InetAddresses.isInetAddress(addressPrefix)) {
        throw new IllegalArgumentException("source range " + addressPrefix + " is not an IP literal");
      }
      int bits = InetAddresses.forString(addressPrefix).getAddress().length * 8;
      if (prefixLength < 0 || prefixLength > bits) {
        throw new IllegalArgumentException("source range prefix length " + prefixLength + " is out of range 0-"
            + bits);
      }
    }

    @Override
    public String toString() {
      return addressPrefix + "/" + prefixLength;
    }
  }

  /** The minimum TLS version a listener accepts. */
  enum TlsVersion {
    TLS_1_2, TLS_1_3
  }

  /**
   * TLS terminated by the listener.
   *
   * @param certificate  name of a {@link Secret} holding a {@link Secret.Content.CertificateAndKey}
   * @param clientCa     name of a {@link Secret} holding a {@link Secret.Content.TrustedCa}: when present, clients
   *                     must present a certificate it signed
   * @param alpn         protocols offered in ALPN, in preference order (HTTP chains: {@code h2, http/1.1})
   */
  record DownstreamTls(String certificate, TlsVersion minVersion, Optional<String> clientCa, List<String> alpn) {
    public DownstreamTls {
      Objects.requireNonNull(certificate, "certificate");
      Objects.requireNonNull(minVersion, "minVersion");
      Objects.requireNonNull(clientCa, "clientCa");
      alpn = List.copyOf(alpn);
    }
  }

  /** One way of handling a connection. */
  sealed interface FilterChain {

    /** Where the chain came from (a Gateway, or the object that asked for its server names). */
    Origin origin();

    /** Unique within its listener; part of Envoy names derived from the chain. */
    String name();

    ChainMatch match();

    /** TLS terminated on this chain; empty for plain text, and for TLS passed through by SNI. */
    Optional<DownstreamTls> tls();

    /**
     * HTTP to a list of virtual hosts, after TLS termination if {@code tls} is present.
     *
     * @param security what the routes' {@link RouteSecurity} names (every provider a route names is here)
     * @param options  connection-manager settings and access logs ({@link HttpListenerOptions#NONE}: Envoy's
     *                 defaults)
     */
    record Http(Origin origin, String name, ChainMatch match, Optional<DownstreamTls> tls,
        List<VirtualHost> virtualHosts, ListenerSecurity security, HttpListenerOptions options)
        implements FilterChain {
      public Http {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(tls, "tls");
        virtualHosts = List.copyOf(virtualHosts);
        Objects.requireNonNull(security, "security");
        security.checkRoutes(origin, virtualHosts);
      }

      /** A chain without security definitions, with Envoy's default connection-manager settings. */
      public Http(Origin origin, String name, ChainMatch match, Optional<DownstreamTls> tls,
          List<VirtualHost> virtualHosts) {
        this(origin, name, match, tls, virtualHosts, ListenerSecurity.NONE, HttpListenerOptions.NONE);
      }

      /** With Envoy's default connection-manager settings. */
      public Http(Origin origin, String name, ChainMatch match, Optional<DownstreamTls> tls,
          List<VirtualHost> virtualHosts, ListenerSecurity security) {
        this(origin, name, match, tls, virtualHosts, security, HttpListenerOptions.NONE);
      }

      /** A chain without security definitions. */
      public Http(Origin origin, String name, ChainMatch match, Optional<DownstreamTls> tls,
          List<VirtualHost> virtualHosts, HttpListenerOptions options) {
        this(origin, name, match, tls, virtualHosts, ListenerSecurity.NONE, options);
      }

      /** The same chain with other options (a policy attached from outside the chain's objects). */
      public Http withOptions(HttpListenerOptions newOptions) {
        return new Http(origin, name, match, tls, virtualHosts, security, newOptions);
      }

      /** The same chain with other security definitions. */
      public Http withSecurity(ListenerSecurity newSecurity) {
        return new Http(origin, name, match, tls, virtualHosts, newSecurity, options);
      }

      public Http withVirtualHosts(List<VirtualHost> hosts) {
        return new Http(origin, name, match, tls, hosts, security, options);
      }

      /** The same chain under another name (unique on a listener several Gateways share). */
      public Http withName(String newName) {
        return new Http(origin, newName, match, tls, virtualHosts, security, options);
      }
    }

    /**
     * Raw TCP forwarded to clusters. Without {@code tls} and with server names it is TLS passthrough: the
     * connection is routed by SNI and the bytes are forwarded still encrypted.
     *
     * @param clusters by weight, as in {@link RouteAction.Split}; at least one
     */
    record Tcp(Origin origin, String name, ChainMatch match, Optional<DownstreamTls> tls,
        List<RouteAction.WeightedCluster> clusters) implements FilterChain {
      public Tcp {
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(match, "match");
        Objects.requireNonNull(tls, "tls");
        clusters = List.copyOf(clusters);
        if (clusters.isEmpty()) {
          throw new IllegalArgumentException(origin + ": a TCP filter chain needs at least one cluster");
        }
      }

      /** The same chain under another name (unique on a listener several gateways share). */
      public Tcp withName(String newName) {
        return new Tcp(origin, newName, match, tls, clusters);
      }
    }
  }
}
