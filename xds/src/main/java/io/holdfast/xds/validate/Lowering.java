package io.holdfast.xds.validate;

import io.holdfast.xds.ir.Cluster;
import io.holdfast.xds.ir.Cluster.WeightedEndpoint;
import io.holdfast.xds.ir.Listener;
import io.holdfast.xds.ir.Origin;
import io.holdfast.xds.ir.RouteAction.ForwardPolicy;
import io.holdfast.xds.ir.RouteAction.Retries;
import io.holdfast.xds.ir.RouteAction.WeightedCluster;
import io.holdfast.xds.ir.RouteMatch.HeaderMatch;
import io.holdfast.xds.ir.RouteMatch.PathMatch;
import io.holdfast.xds.ir.VirtualHost;
import io.holdfast.xds.model.Gateway;
import io.holdfast.xds.model.GatewayConfig;
import io.holdfast.xds.model.HttpMethod;
import io.holdfast.xds.model.ObjectRef;
import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.model.Route;
import io.holdfast.xds.model.RouteAction;
import io.holdfast.xds.model.RouteMatch;
import io.holdfast.xds.model.Upstream;
import io.holdfast.xds.model.UpstreamTarget;
import io.holdfast.xds.model.VirtualService;
import io.holdfast.xds.model.VirtualServiceSelection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Lowers an accepted Holdfast config (the output of {@link Validator}, consistent) into IR elements: an Upstream
 * to a cluster, a VirtualService to a virtual host (plus one client listener per non-wildcard domain), a Gateway to
 * a socket listener holding the virtual hosts it serves in key order. Pure.
 */
final class Lowering {

  private Lowering() {
  }

  static Cluster cluster(Upstream upstream, GatewayConfig config) {
    List<WeightedEndpoint> endpoints = new ArrayList<>();
    if (upstream.target() instanceof UpstreamTarget.Static hosts) {
      hosts.hosts().forEach(h -> endpoints.add(new WeightedEndpoint(h.address(), h.port(), h.weight())));
    } else if (upstream.target() instanceof UpstreamTarget.Kube kube) {
      config.endpointsOf(kube.service(upstream.metadata().namespace())).stream().sorted()
          .forEach(e -> endpoints.add(new WeightedEndpoint(e.address(), e.port(), 1)));
    }
    return new Cluster(Origin.of(upstream.key()), upstream.connectTimeout(),
        Cluster.LbPolicy.valueOf(upstream.loadBalancing().name()), upstream.http2(), endpoints);
  }

  static VirtualHost virtualHost(VirtualService vs) {
    Origin origin = Origin.of(vs.key());
    List<io.holdfast.xds.ir.Route> routes = new ArrayList<>();
    for (int i = 0; i < vs.routes().size(); i++) {
      Route route = vs.routes().get(i);
      String field = "spec.routes[" + i + "]";
      routes.add(new io.holdfast.xds.ir.Route(origin.at(field), route.name().orElse("routes[" + i + "]"),
          match(route.match()), action(route, vs.metadata().namespace())));
    }
    return new VirtualHost(origin, vs.domains(), routes);
  }

  /** One client listener per non-wildcard domain, each with the virtual host narrowed to that domain. */
  static List<Listener.ClientApi> clientListeners(VirtualService vs, VirtualHost host) {
    List<Listener.ClientApi> listeners = new ArrayList<>();
    for (int i = 0; i < vs.domains().size(); i++) {
      String domain = vs.domains().get(i);
      if (vs.grpcDomains().contains(domain)) {
        listeners.add(new Listener.ClientApi(Origin.of(vs.key()).at("spec.domains[" + i + "]"), domain,
            host.withDomains(List.of(domain))));
      }
    }
    return listeners;
  }

  /**
   * The socket listener of a gateway, serving the virtual hosts of {@code hosts} it selects in key order.
   *
   * @throws IllegalArgumentException if it names a VirtualService that is not in {@code hosts}
   */
  static Listener.Socket socket(Gateway gateway, List<VirtualService> accepted, Map<ResourceKey, VirtualHost> hosts) {
    String namespace = gateway.metadata().namespace();
    Map<ResourceKey, VirtualHost> served = new TreeMap<>();
    if (gateway.selection() instanceof VirtualServiceSelection.Named named) {
      for (ObjectRef ref : named.refs()) {
        ResourceKey key = ref.resolve(ResourceKey.VIRTUAL_SERVICE, namespace);
        VirtualHost host = hosts.get(key);
        if (host == null) {
          throw new IllegalArgumentException(gateway.key() + " references " + key
              + ", which is not in the accepted config; lower only Validator output");
        }
        served.put(key, host);
      }
    } else {
      accepted.stream().filter(vs -> gateway.selection().selects(namespace, vs))
          .forEach(vs -> served.put(vs.key(), hosts.get(vs.key())));
    }
    return new Listener.Socket(Origin.of(gateway.key()), gateway.bindAddress(), gateway.port(),
        Listener.Protocol.HTTP, List.of(new Listener.FilterChain(List.copyOf(served.values()))));
  }

  private static io.holdfast.xds.ir.RouteMatch match(RouteMatch match) {
    PathMatch path = match.path().map(Lowering::path).orElse(new PathMatch.Prefix("/"));
    List<HeaderMatch> headers = match.headers().stream()
        .map(h -> new HeaderMatch(h.name().toLowerCase(Locale.ROOT), condition(h.condition()), h.invert()))
        .toList();
    List<String> methods = match.methods().stream().distinct().sorted().map(HttpMethod::name).toList();
    return new io.holdfast.xds.ir.RouteMatch(path, headers, methods);
  }

  private static PathMatch path(io.holdfast.xds.model.PathMatch path) {
    if (path instanceof io.holdfast.xds.model.PathMatch.Prefix prefix) {
      return new PathMatch.Prefix(prefix.value());
    }
    if (path instanceof io.holdfast.xds.model.PathMatch.Exact exact) {
      return new PathMatch.Exact(exact.value());
    }
    return new PathMatch.Regex(path.value());
  }

  private static io.holdfast.xds.ir.RouteMatch.Condition condition(io.holdfast.xds.model.HeaderMatch.Condition c) {
    if (c instanceof io.holdfast.xds.model.HeaderMatch.Exact exact) {
      return new io.holdfast.xds.ir.RouteMatch.Exact(exact.value());
    }
    if (c instanceof io.holdfast.xds.model.HeaderMatch.Prefix prefix) {
      return new io.holdfast.xds.ir.RouteMatch.Prefix(prefix.value());
    }
    if (c instanceof io.holdfast.xds.model.HeaderMatch.Regex regex) {
      return new io.holdfast.xds.ir.RouteMatch.Regex(regex.value());
    }
    return new io.holdfast.xds.ir.RouteMatch.Present(((io.holdfast.xds.model.HeaderMatch.Present) c).present());
  }

  private static io.holdfast.xds.ir.RouteAction action(Route route, String namespace) {
    RouteAction action = route.action();
    if (action instanceof RouteAction.Forward forward) {
      return new io.holdfast.xds.ir.RouteAction.Forward(upstream(forward.upstream(), namespace), policy(route));
    }
    if (action instanceof RouteAction.Split split) {
      List<WeightedCluster> targets = split.targets().stream()
          .map(t -> new WeightedCluster(upstream(t.upstream(), namespace), t.weight())).toList();
      return new io.holdfast.xds.ir.RouteAction.Split(targets, policy(route));
    }
    if (action instanceof RouteAction.Redirect r) {
      return new io.holdfast.xds.ir.RouteAction.Redirect(r.host(), r.path(), r.prefixRewrite(), r.responseCode(),
          r.httpsRedirect());
    }
    RouteAction.DirectResponse direct = (RouteAction.DirectResponse) action;
    return new io.holdfast.xds.ir.RouteAction.DirectResponse(direct.status(), direct.body());
  }

  /** Timeout, retries and rewrite apply to forwarding routes only (validation warns where they are ignored). */
  private static ForwardPolicy policy(Route route) {
    return new ForwardPolicy(route.timeout(),
        route.retries().map(r -> new Retries(r.attempts(), r.perTryTimeout(), r.retryOn())), route.prefixRewrite());
  }

  private static ResourceKey upstream(ObjectRef ref, String namespace) {
    return ref.resolve(ResourceKey.UPSTREAM, namespace);
  }
}
