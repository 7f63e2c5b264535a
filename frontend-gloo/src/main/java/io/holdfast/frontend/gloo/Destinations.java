package io.holdfast.frontend.gloo;

import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Upstreams a route's {@code kube: {ref, port}} destinations stand for. Gloo sends such a route straight to a
 * Service port without an Upstream object; Holdfast routes always name an Upstream, so each Service port gets one
 * synthetic Upstream (one per Service port however many routes name it), lowered like any other, under a name no
 * Kubernetes object can have a clash with in practice ({@link #PREFIX}), and keyed in the IR as
 * {@link GlooKinds#KUBE_DESTINATION} so its cluster is named after the Service port.
 */
final class Destinations {

  /** Name prefix of the synthetic Upstreams; a Gloo Upstream with such a name is rejected (a clash). */
  static final String PREFIX = "holdfast-kube-svc-";

  private final Map<ResourceKey, Upstream> upstreams = new TreeMap<>();
  private final Map<ResourceKey, ResourceKey> irKeys = new TreeMap<>();

  /** The Upstream reference a route uses for Service {@code namespace/name} port {@code port}. */
  ObjectRef service(String namespace, String name, int port) {
    String upstreamName = PREFIX + name + "-" + port;
    Metadata metadata = Metadata.of(namespace, upstreamName);
    Upstream upstream = new Upstream(metadata, new UpstreamTarget.Kube(Optional.of(namespace), name, port),
        io.holdfast.api.LoadBalancing.ROUND_ROBIN, Upstream.DEFAULT_CONNECT_TIMEOUT, false);
    upstreams.putIfAbsent(upstream.key(), upstream);
    irKeys.putIfAbsent(upstream.key(), new ResourceKey(GlooKinds.GLOO_GROUP, GlooKinds.KUBE_DESTINATION, namespace,
        name + ":" + port));
    return ObjectRef.of(namespace, upstreamName);
  }

  /** Name prefix of the synthetic Upstreams of pass-through authorisation servers ({@link AuthConfigReader}). */
  static final String AUTHZ_PREFIX = "holdfast-authz-";

  /**
   * The Upstream reference of a pass-through authorisation server at {@code host:port}, named in an AuthConfig of
   * {@code namespace}: a static Upstream speaking HTTP/2 (Envoy's Authorization/Check is gRPC), keyed in the IR as
   * {@link GlooKinds#AUTHZ_ADDRESS} so its cluster is named after the address.
   */
  ObjectRef authzAddress(String namespace, String host, int port) {
    ObjectRef ref = authzRef(namespace, host, port);
    String address = host + ":" + port;
    Metadata metadata = Metadata.of(namespace, ref.name());
    Upstream upstream = new Upstream(metadata, new UpstreamTarget.Static(java.util.List.of(
        new UpstreamTarget.Host(host, port, 1))), io.holdfast.api.LoadBalancing.ROUND_ROBIN,
        Upstream.DEFAULT_CONNECT_TIMEOUT, true);
    upstreams.putIfAbsent(upstream.key(), upstream);
    irKeys.putIfAbsent(upstream.key(), new ResourceKey(GlooKinds.GLOO_GROUP, GlooKinds.AUTHZ_ADDRESS, namespace,
        address));
    return ref;
  }

  /** The reference {@link #authzAddress} returns, without adding the Upstream (for a service not served yet). */
  static ObjectRef authzRef(String namespace, String host, int port) {
    String address = host + ":" + port;
    // The name only has to be unique; the address's own characters may not all be allowed in one.
    String upstreamName = AUTHZ_PREFIX + host.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
        .replaceAll("^-|-$", "") + "-" + port + "-" + Integer.toHexString(address.hashCode());
    return ObjectRef.of(namespace, upstreamName);
  }

  /** Name prefix of the synthetic Upstreams of routes' subsets; a Gloo Upstream with such a name is rejected. */
  static final String SUBSET_PREFIX = "holdfast-subset-";
  /** A route chooses a subset its Upstream cannot serve as chosen (see {@link #subset}). */
  static final String SUBSET_UNAVAILABLE = "SubsetUnavailable";

  /** A kube Upstream that declares subsets, with the label key sets a route may choose. */
  private record Subsettable(Upstream upstream, UpstreamTarget.Kube kube, List<SortedSet<String>> selectors) {
  }

  /** Accepted kube Upstreams with a {@code subsetSpec}, by {@code namespace/name}. */
  private final Map<String, Subsettable> subsettable = new TreeMap<>();
  /** The Upstream and the labels (its selector with the chosen values) a synthetic subset Upstream stands for. */
  private record Chosen(String namespace, String name, Map<String, String> labels) {
  }

  /**
   * Synthetic subset Upstream names by what they stand for, so each gets one. Keyed by value, not by text: the
   * text of {@code {a: "b, c=d"}} is that of {@code {a: b, c: d}}, and two subsets must never share a cluster.
   */
  private final Map<Chosen, String> subsetNames = new java.util.HashMap<>();

  /** Records an accepted Upstream's subset selectors ({@link UpstreamReader#subsetSelectors}); none: nothing. */
  void subsets(Upstream upstream, List<SortedSet<String>> selectors) {
    if (!selectors.isEmpty() && upstream.target() instanceof UpstreamTarget.Kube kube) {
      subsettable.put(upstream.metadata().namespace() + "/" + upstream.metadata().name(),
          new Subsettable(upstream, kube, List.copyOf(selectors)));
    }
  }

  /**
   * The Upstream reference a route uses for the subset {@code values} of Upstream {@code namespace/name}: a
   * synthetic copy of that Upstream narrowed to the pods carrying {@code values} as well as its own selector
   * (the kube source resolves the same narrowed reference, {@link io.holdfast.api.GlooUpstreams#subsetServices}).
   * Gloo hands Envoy a subset load balancer whose subsets are these pod sets; one cluster per chosen subset
   * reaches the same endpoints, except that a subset with no endpoint answers 503 where Gloo's ANY_ENDPOINT
   * fallback would reach every endpoint: narrower, never wider. Errors on {@code at} (the destination is dropped)
   * when the Upstream is not an accepted kube Upstream with a subsetSpec, when the chosen keys are not exactly one
   * selector's (Envoy would fall back to every endpoint), or when a value contradicts the Upstream's selector.
   */
  Optional<ObjectRef> subset(String namespace, String name, Map<String, String> values, Node at) {
    Subsettable target = subsettable.get(namespace + "/" + name);
    if (target == null) {
      at.error(at.path, SUBSET_UNAVAILABLE, "Upstream " + namespace + "/" + name + " is not an accepted kube"
          + " Upstream with a subsetSpec, so its subsets cannot be chosen; the destination is dropped rather than"
          + " routed to every endpoint");
      return Optional.empty();
    }
    SortedSet<String> keys = new TreeSet<>(values.keySet());
    if (!target.selectors().contains(keys)) {
      at.error(at.path, SUBSET_UNAVAILABLE, "subset keys " + keys + " are not one of the subsetSpec selectors "
          + target.selectors() + " of Upstream " + namespace + "/" + name + " (Envoy would route to every"
          + " endpoint)");
      return Optional.empty();
    }
    TreeMap<String, String> selector = new TreeMap<>(target.kube().selector());
    for (Map.Entry<String, String> value : values.entrySet()) {
      String own = selector.putIfAbsent(value.getKey(), value.getValue());
      if (own != null && !own.equals(value.getValue())) {
        at.error(at.path, SUBSET_UNAVAILABLE, "subset value " + value.getKey() + "=" + value.getValue()
            + " contradicts the selector of Upstream " + namespace + "/" + name);
        return Optional.empty();
      }
    }
    if (selector.size() > UpstreamTarget.Kube.MAX_SELECTOR_LABELS) {
      at.error(at.path, Reasons.INVALID_VALUE, "the subset and the Upstream's selector name more than "
          + UpstreamTarget.Kube.MAX_SELECTOR_LABELS + " labels");
      return Optional.empty();
    }
    String upstreamName = subsetNames.computeIfAbsent(new Chosen(namespace, name, Map.copyOf(selector)),
        c -> uniqueSubsetName(c));
    UpstreamTarget.Kube kube = target.kube();
    Upstream upstream = target.upstream().withMetadata(Metadata.of(namespace, upstreamName))
        .withTarget(new UpstreamTarget.Kube(kube.namespace(), kube.name(), kube.port(), selector));
    upstreams.putIfAbsent(upstream.key(), upstream);
    // Named after the synthetic Upstream, which is unique per subset (the labels' text is not, see subsetNames).
    irKeys.putIfAbsent(upstream.key(), new ResourceKey(GlooKinds.GLOO_GROUP, GlooKinds.SUBSET_DESTINATION,
        namespace, upstreamName));
    return Optional.of(ObjectRef.of(namespace, upstreamName));
  }

  /** A name per (Upstream, labels), stable across rebuilds of the same input; a hash clash takes a suffix. */
  private String uniqueSubsetName(Chosen chosen) {
    String base = SUBSET_PREFIX + chosen.name() + "-" + Integer.toHexString(chosen.hashCode());
    String candidate = base;
    for (int n = 2; subsetNames.containsValue(candidate); n++) {
      candidate = base + "-" + n; // bounded by the number of subsets chosen so far
    }
    return candidate;
  }

  Map<ResourceKey, Upstream> upstreams() {
    return upstreams;
  }

  /** The IR key of each synthetic Upstream's cluster. */
  Map<ResourceKey, ResourceKey> irKeys() {
    return irKeys;
  }
}
