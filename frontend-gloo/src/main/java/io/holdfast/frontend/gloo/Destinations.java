package io.holdfast.frontend.gloo;

import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

  Map<ResourceKey, Upstream> upstreams() {
    return upstreams;
  }

  /** The IR key of each synthetic Upstream's cluster. */
  Map<ResourceKey, ResourceKey> irKeys() {
    return irKeys;
  }
}
