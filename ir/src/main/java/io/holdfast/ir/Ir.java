package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The internal routing model: everything the proxies should serve, in neutral terms, with the origin of every
 * element. Produced by {@link IrBuilder} from what the front ends lowered; read by the xDS translation only.
 * Consistent by construction (the factory refuses anything else): listener and cluster identities are unique,
 * a domain is served by one virtual host per listener, and every cluster a route forwards to is present. Lists are in a deterministic order: socket listeners by
 * origin, client listeners by target, clusters by key.
 */
public record Ir(List<Listener> listeners, List<Cluster> clusters, List<Secret> secrets) {

  private static final Comparator<Listener> LISTENER_ORDER = Comparator
      .comparing((Listener l) -> l instanceof Listener.Socket ? 0 : 1)
      .thenComparing(l -> l instanceof Listener.ClientApi client ? client.target() : "")
      .thenComparing(Listener::origin);

  public Ir {
    listeners = sorted(listeners, LISTENER_ORDER);
    clusters = sorted(clusters, Comparator.comparing(c -> c.origin().object()));
    secrets = List.copyOf(secrets);
    Map<ResourceKey, Cluster> byKey = new HashMap<>();
    for (Cluster cluster : clusters) {
      if (byKey.putIfAbsent(cluster.origin().object(), cluster) != null) {
        throw new IllegalArgumentException("cluster " + cluster.origin().object() + " is defined twice");
      }
    }
    Map<Object, Listener> identities = new HashMap<>();
    for (Listener listener : listeners) {
      Object identity = listener instanceof Listener.ClientApi client ? client.target() : listener.origin().object();
      Listener other = identities.putIfAbsent(identity, listener);
      if (other != null) {
        throw new IllegalArgumentException("listener " + identity + " is defined twice (by " + other.origin()
            + " and " + listener.origin() + ")");
      }
      Map<String, Origin> domains = new HashMap<>();
      for (VirtualHost host : listener.virtualHosts()) {
        for (String domain : host.domains()) {
          Origin owner = domains.putIfAbsent(domain, host.origin());
          if (owner != null) {
            throw new IllegalArgumentException("domain " + domain + " is served twice on listener " + identity
                + " (by " + owner + " and " + host.origin() + ")");
          }
        }
        for (Route route : host.routes()) {
          if (route.action() instanceof RouteAction.Forwarding forwarding) {
            forwarding.clusters().stream().filter(key -> !byKey.containsKey(key)).findFirst().ifPresent(key -> {
              throw new IllegalArgumentException(route.origin() + " forwards to cluster " + key
                  + ", which is not in the IR");
            });
          }
        }
      }
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
