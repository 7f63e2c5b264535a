package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.RouteAttachment.Attached;
import io.holdfast.frontend.gatewayapi.RouteAttachment.OwnGateway;
import io.holdfast.ir.Claims.Claimant;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Listener.ChainMatch;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteSecurity;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The IR of Holdfast's Gateways, from the routes attached to their listeners: per Gateway port one socket listener
 * (bound to every address; the Service in front of the proxies gives the Gateway its address). An HTTP port has
 * one filter chain for all its listeners; an HTTPS port one TLS chain per listener, selected by the listener's
 * hostname as server name (none: every other connection). A chain has one virtual host per hostname its routes
 * serve, holding the routes of every route attached there, highest precedence first ({@link RankedRoute#ORDER}).
 * A hostname is served by the listener of its port whose hostname matches it most closely, as the specification
 * routes a request, so routes attached to a wider listener do not answer for a narrower listener's hostname.
 * Every exact hostname is also a client listener for proxyless gRPC ({@code xds:///hostname}), held by the oldest
 * Gateway that serves it; a target an older object of another front end holds is left to it. A TLS (Passthrough)
 * port has one TCP proxy chain per hostname its TLSRoutes serve, selected by SNI ({@code *}: every other
 * connection); a TCP port one TCP proxy chain. A TLS or TCP port without a route with a usable backend opens no
 * socket (a connection there would have nowhere to go).
 */
final class GatewayIr {

  /** Gateway sockets bind every IPv4 address. */
  static final String ADDRESS = "0.0.0.0";

  private final Map<ResourceKey, OwnGateway> gateways;
  /** Gateway, listener, hostname, route: the ranked routes attached there. */
  private final Map<ResourceKey, Map<ListenerState, Map<String, Map<ResourceKey, List<RankedRoute>>>>> attached =
      new TreeMap<>();

  /** Gateway, listener, hostname ({@code *} for TCP): the TLSRoute or TCPRoute forwarded to, and its clusters. */
  private final Map<ResourceKey, Map<ListenerState, Map<String, List<RouteAction.WeightedCluster>>>> streams =
      new TreeMap<>();

  private final IrBuilder builder;
  /** The SecurityPolicies' security for each route, and the providers a chain's routes name. */
  private SecurityPolicies security = SecurityPolicies.NONE;
  private final TrafficPolicies policies;

  /** @param builder asked which client targets an older object of another front end already holds */
  GatewayIr(Map<ResourceKey, OwnGateway> gateways, IrBuilder builder) {
    this(gateways, builder, TrafficPolicies.NONE);
  }

  /** @param policies the traffic policies attached to the Gateways, their listeners and routes */
  GatewayIr(Map<ResourceKey, OwnGateway> gateways, IrBuilder builder, TrafficPolicies policies) {
    this.gateways = gateways;
    this.builder = builder;
    this.policies = policies;
  }

  /** Routes get the security of the SecurityPolicies attached to them, their listeners or Gateways. */
  void security(SecurityPolicies policies) {
    this.security = policies;
  }

  void attach(ResourceKey gateway, Attached at, ResourceKey route, List<RankedRoute> routes) {
    ListenerState listener = at.listener();
    if (!listener.programmed()) {
      return;
    }
    for (String hostname : at.hostnames()) {
      if (closest(gateway, listener, hostname)) {
        attached.computeIfAbsent(gateway, g -> new LinkedHashMap<>())
            .computeIfAbsent(listener, l -> new TreeMap<>())
            .computeIfAbsent(hostname, h -> new TreeMap<>())
            .putIfAbsent(route, routes);
      }
    }
  }

  /**
   * Forwards connections for {@code hostname} on a TLS or TCP listener to {@code clusters}. The caller lets the
   * oldest route claim a hostname on a listener; here a hostname goes to the listener of its port that matches it
   * most closely, so no server name is selected by two chains.
   */
  void attachStream(ResourceKey gateway, ListenerState listener, String hostname,
      List<RouteAction.WeightedCluster> clusters) {
    if (!listener.programmed() || clusters.isEmpty()
        || (!hostname.equals(Hostnames.ANY) && !closest(gateway, listener, hostname))) {
      return;
    }
    streams.computeIfAbsent(gateway, g -> new LinkedHashMap<>())
        .computeIfAbsent(listener, l -> new TreeMap<>())
        .putIfAbsent(hostname, clusters);
  }

  private List<Listener.FilterChain> streamChains(ResourceKey gateway, List<ListenerState> onPort) {
    List<Listener.FilterChain> chains = new ArrayList<>();
    Map<ListenerState, Map<String, List<RouteAction.WeightedCluster>>> byListener =
        streams.getOrDefault(gateway, Map.of());
    for (ListenerState listener : onPort) {
      int i = 0;
      for (Map.Entry<String, List<RouteAction.WeightedCluster>> entry
          : byListener.getOrDefault(listener, Map.of()).entrySet()) {
        ChainMatch match = entry.getKey().equals(Hostnames.ANY) ? ChainMatch.ANY : new ChainMatch(List.of(
            entry.getKey()));
        chains.add(new Listener.FilterChain.Tcp(Origin.of(gateway).at(listener.field()), listener.name + "-" + i++,
            match, Optional.empty(), entry.getValue()));
      }
    }
    return chains;
  }

  private boolean closest(ResourceKey gateway, ListenerState listener, String hostname) {
    int mine = Hostnames.closeness(listener.hostname, hostname);
    return gateways.get(gateway).listeners().stream()
        .filter(l -> l.port == listener.port && l.programmed())
        .allMatch(l -> Hostnames.closeness(l.hostname, hostname) <= mine);
  }

  /** Whether a programmed listener serves the certificate named {@code name}. */
  boolean servesSecret(String name) {
    return gateways.values().stream().flatMap(g -> g.listeners().stream())
        .anyMatch(l -> l.programmed() && l.tls.map(t -> t.certificate().equals(name)).orElse(false));
  }

  List<Listener> listeners() {
    List<Listener> out = new ArrayList<>();
    Set<String> targets = new HashSet<>();
    List<OwnGateway> oldestFirst = new ArrayList<>(gateways.values());
    oldestFirst.sort(Comparator.comparing(g -> new Claimant(g.key(), g.created()), Claimant.OLDEST_FIRST));
    for (OwnGateway gateway : oldestFirst) {
      Map<Integer, List<ListenerState>> ports = new TreeMap<>();
      gateway.listeners().stream().filter(ListenerState::programmed)
          .forEach(l -> ports.computeIfAbsent(l.port, p -> new ArrayList<>()).add(l));
      for (List<ListenerState> onPort : ports.values()) {
        ListenerState first = onPort.get(0);
        List<Listener.FilterChain> chains = new ArrayList<>();
        if (first.protocol.equals(ListenerState.TLS) || first.protocol.equals(ListenerState.TCP)) {
          chains.addAll(streamChains(gateway.key(), onPort));
          if (chains.isEmpty()) {
            continue;
          }
        } else if (first.protocol.equals(ListenerState.HTTPS)) {
          for (ListenerState listener : onPort) {
            List<VirtualHost> hosts = hosts(gateway.key(), List.of(listener));
            chains.add(new Listener.FilterChain.Http(Origin.of(gateway.key()).at(listener.field()), listener.name,
                new ChainMatch(listener.hostname.map(List::of).orElse(List.of())), listener.tls,
                hosts, security.listenerSecurity(hosts), policies.chain(gateway.key(), List.of(listener))));
          }
        } else {
          List<VirtualHost> hosts = hosts(gateway.key(), onPort);
          chains.add(new Listener.FilterChain.Http(Origin.of(gateway.key()).at(first.field()), "http",
              ChainMatch.ANY, Optional.empty(), hosts, security.listenerSecurity(hosts),
              policies.chain(gateway.key(), onPort)));
        }
        // A Gateway API Gateway is served by the proxy that authenticates as its namespace/name.
        SortedSet<String> proxyNames = new TreeSet<>(Set.of(gateway.key().namespace() + "/" + gateway.key().name()));
        out.add(new Listener.Socket(Origin.of(gateway.key()).at(first.field()), ADDRESS, first.port, chains,
            proxyNames, policies.socket(gateway.key(), onPort)));
        for (Listener.FilterChain chain : chains) {
          if (!(chain instanceof Listener.FilterChain.Http http)) {
            continue;
          }
          for (VirtualHost host : http.virtualHosts()) {
            String domain = host.domains().get(0);
            if (!domain.contains("*") && targets.add(domain)
                && builder.olderTargetHolder(domain, gateway.key(), gateway.created()).isEmpty()) {
              out.add(new Listener.ClientApi(host.origin(), domain,
                  RouteSecurity.withoutSecurity(host).withDomains(List.of(domain)), proxyNames));
            }
          }
        }
      }
    }
    return out;
  }

  private List<VirtualHost> hosts(ResourceKey gateway, List<ListenerState> listeners) {
    List<VirtualHost> hosts = new ArrayList<>();
    Map<ListenerState, Map<String, Map<ResourceKey, List<RankedRoute>>>> byListener =
        attached.getOrDefault(gateway, Map.of());
    for (ListenerState listener : listeners) {
      byListener.getOrDefault(listener, Map.of()).forEach((hostname, routes) -> {
        List<RankedRoute> ranked = new ArrayList<>();
        // A rule's own policies (ExtensionRef) come before those attached to its route, listener or Gateway.
        routes.values().forEach(list -> list.forEach(r -> ranked.add(r.withRoute(policies.route(
            security.apply(gateway, listener.name, r.route(), r.policies().security()), gateway, listener,
            r.policies().traffic())))));
        ranked.sort(RankedRoute.ORDER);
        hosts.add(new VirtualHost(Origin.of(gateway).at(listener.field()), domains(hostname, listener.port),
            uniquelyNamed(ranked)));
      });
    }
    return hosts;
  }

  /**
   * The hostname, and with the listener's port: a client of a port other than its scheme's default sends
   * {@code Host: name:port}, which Envoy matches only against a domain with that port (Gateway API hostnames
   * cannot carry one; a Holdfast VirtualService lists such domains in spec.domains itself). The hostname stays
   * first: it names the virtual host and the proxyless gRPC target. {@code *} already matches every Host.
   */
  private static List<String> domains(String hostname, int port) {
    return hostname.equals("*") ? List.of(hostname) : List.of(hostname, hostname + ":" + port);
  }

  /** The routes in order, a name used twice (by two routes' rules) prefixed by its route's namespace and name. */
  private static List<Route> uniquelyNamed(List<RankedRoute> ranked) {
    Set<String> names = new HashSet<>();
    List<Route> routes = new ArrayList<>();
    for (RankedRoute rankedRoute : ranked) {
      Route route = rankedRoute.route();
      if (!names.add(route.name())) {
        ResourceKey owner = route.origin().object();
        String name = owner.namespace() + "/" + owner.name() + "/" + route.name();
        names.add(name);
        route = new Route(route.origin(), name, route.match(), route.action(), route.headers(), route.cors(),
            route.security(), route.traffic());
      }
      routes.add(route);
    }
    return routes;
  }
}
