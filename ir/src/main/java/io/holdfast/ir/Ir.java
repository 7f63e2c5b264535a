package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The internal routing model: everything the proxies should serve, in neutral terms, with the origin of every
 * element. Produced by {@link IrBuilder} from what the front ends lowered; read by the xDS translation only.
 * Consistent by construction (the factory refuses anything else): listener and cluster identities are unique,
 * a domain is served by one virtual host per listener, every cluster a route or TCP chain forwards (or mirrors) to is present,
 * and every secret a TLS setting names is present and holds the right content. A breach throws
 * {@link IrInvariantViolation}, naming the objects involved. Lists are in a deterministic order: socket listeners by
 * origin, client listeners by target, clusters by key, secrets by name.
 */
public record Ir(List<Listener> listeners, List<Cluster> clusters, List<Secret> secrets) {

  private static final Comparator<Listener> LISTENER_ORDER = Comparator
      .comparing((Listener l) -> l instanceof Listener.Socket ? 0 : 1)
      .thenComparing(l -> l instanceof Listener.ClientApi client ? client.target() : "")
      .thenComparing(Listener::origin);

  public Ir {
    listeners = sorted(listeners, LISTENER_ORDER);
    clusters = sorted(clusters, Comparator.comparing(c -> c.origin().object()));
    secrets = sorted(secrets, Comparator.comparing(Secret::name));
    Map<String, Secret> secretsByName = new HashMap<>();
    for (Secret secret : secrets) {
      if (secretsByName.putIfAbsent(secret.name(), secret) != null) {
        throw new IrInvariantViolation("secret " + secret.name() + " is defined twice (by "
            + secretsByName.get(secret.name()).origin() + " and " + secret.origin() + ")",
            secretsByName.get(secret.name()).origin(), secret.origin());
      }
    }
    Map<ResourceKey, Cluster> byKey = new HashMap<>();
    for (Cluster cluster : clusters) {
      if (byKey.putIfAbsent(cluster.origin().object(), cluster) != null) {
        throw new IrInvariantViolation("cluster " + cluster.origin().object() + " is defined twice",
            cluster.origin());
      }
      cluster.tls().ifPresent(tls -> {
        tls.trustedCa().ifPresent(ca ->
            requireSecret(secretsByName, cluster.origin(), ca, Secret.Content.TrustedCa.class));
        tls.clientCertificate().ifPresent(certificate ->
            requireSecret(secretsByName, cluster.origin(), certificate, Secret.Content.CertificateAndKey.class));
      });
    }
    // A client listener's virtual host shares its routes (the same list) with the gateway's: check each list once.
    Set<List<Route>> checkedRoutes = Collections.newSetFromMap(new IdentityHashMap<>());
    Map<Object, Listener> identities = new HashMap<>();
    for (Listener listener : listeners) {
      Object identity = listener instanceof Listener.ClientApi client ? client.target() : listener.origin().object();
      Object perPort = listener instanceof Listener.Socket socket ? List.of(identity, socket.port()) : identity;
      Listener other = identities.putIfAbsent(perPort, listener);
      if (other != null) {
        throw new IrInvariantViolation("listener " + identity + " is defined twice (by " + other.origin()
            + " and " + listener.origin() + ")", other.origin(), listener.origin());
      }
      for (Listener.FilterChain chain : listener.filterChains()) {
        chain.tls().ifPresent(tls -> {
          requireSecret(secretsByName, chain.origin(), tls.certificate(), Secret.Content.CertificateAndKey.class);
          tls.clientCa().ifPresent(ca ->
              requireSecret(secretsByName, chain.origin(), ca, Secret.Content.TrustedCa.class));
        });
        if (chain instanceof Listener.FilterChain.Http http) {
          // An OAuth2 login's client secret and HMAC key are generic secrets the proxies fetch over SDS.
          for (OAuth2Login login : http.security().oauth2()) {
            login.secretNames().forEach(name ->
                requireSecret(secretsByName, http.origin(), name, Secret.Content.Generic.class));
            // Envoy refuses an oauth2 filter whose token cluster it does not know.
            if (!byKey.containsKey(login.tokenCluster())) {
              throw new IrInvariantViolation(http.origin() + " asks for OAuth2 tokens through cluster "
                  + login.tokenCluster() + ", which is not in the IR", http.origin());
            }
          }
        }
        if (chain instanceof Listener.FilterChain.Tcp tcp) {
          tcp.clusters().stream().map(RouteAction.WeightedCluster::cluster).filter(key -> !byKey.containsKey(key))
              .findFirst().ifPresent(key -> {
                throw new IrInvariantViolation(tcp.origin() + " forwards to cluster " + key
                    + ", which is not in the IR", tcp.origin());
              });
        }
        if (chain instanceof Listener.FilterChain.Http http) {
          http.options().clusters().stream().filter(key -> !byKey.containsKey(key)).findFirst().ifPresent(key -> {
            throw new IrInvariantViolation(http.origin() + " sends access logs or rate-limit requests to cluster "
                + key + ", which is not in the IR", http.origin());
          });
        }
      }
      // Per chain: each HTTP chain has a route configuration of its own (chains of Gateways sharing a socket may
      // serve one VirtualService each).
      for (Listener.FilterChain chain : listener.filterChains()) {
        if (!(chain instanceof Listener.FilterChain.Http http)) {
          continue;
        }
        Map<String, Origin> domains = new HashMap<>();
        for (VirtualHost host : http.virtualHosts()) {
          for (String domain : host.domains()) {
            Origin owner = domains.putIfAbsent(domain, host.origin());
            if (owner != null) {
              throw new IrInvariantViolation("domain " + domain + " is served twice on listener " + identity
                  + " (by " + owner + " and " + host.origin() + ")", owner, host.origin());
            }
          }
          if (checkedRoutes.add(host.routes())) {
            requireClusters(host.routes(), byKey);
          }
        }
      }
    }
  }

  /** Fails unless every cluster {@code routes} forward or mirror to is in {@code clusters}. */
  private static void requireClusters(List<Route> routes, Map<ResourceKey, Cluster> clusters) {
    for (Route route : routes) {
      if (route.action() instanceof RouteAction.Forwarding forwarding) {
        if (forwarding instanceof RouteAction.Forward forward) {
          requireCluster(route, forward.cluster(), clusters);
        } else {
          // Not clusters(): a list per route, built by a stream, was a fifth of an incremental build's cost.
          for (RouteAction.WeightedCluster target : ((RouteAction.Split) forwarding).targets()) {
            requireCluster(route, target.cluster(), clusters);
          }
        }
        Optional<RoutePolicies.Mirror> mirror = forwarding.policy().mirror();
        if (mirror.isPresent() && !clusters.containsKey(mirror.get().cluster())) {
          throw new IrInvariantViolation(route.origin() + " mirrors to cluster " + mirror.get().cluster()
              + ", which is not in the IR", route.origin());
        }
      }
    }
  }

  private static void requireCluster(Route route, ResourceKey key, Map<ResourceKey, Cluster> clusters) {
    if (!clusters.containsKey(key)) {
      throw new IrInvariantViolation(route.origin() + " forwards to cluster " + key + ", which is not in the IR",
          route.origin());
    }
  }

  /** Fails unless {@code name} is a secret holding {@code content}. */
  static void requireSecret(Map<String, Secret> secrets, Origin user, String name,
      Class<? extends Secret.Content> content) {
    Secret secret = secrets.get(name);
    if (secret == null) {
      throw new IrInvariantViolation(user + " refers to secret " + name + ", which is not in the IR", user);
    }
    if (!content.isInstance(secret.content())) {
      throw new IrInvariantViolation(user + " needs secret " + name + " to hold " + content.getSimpleName()
          + ", it holds " + secret.content().getClass().getSimpleName(), user, secret.origin());
    }
  }

  public static Ir empty() {
    return new Ir(List.of(), List.of(), List.of());
  }

  private static <T> List<T> sorted(List<T> items, Comparator<T> order) {
    List<T> copy = new ArrayList<>(items);
    copy.forEach(item -> Objects.requireNonNull(item, "list element"));
    copy.sort(order);
    return List.copyOf(copy);
  }
}
