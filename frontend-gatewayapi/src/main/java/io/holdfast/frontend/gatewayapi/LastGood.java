package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The front end's memory between builds, so bad input never discards the last good config: per HTTPRoute and
 * GRPCRoute, the last version that lowered without an Accepted problem (served again while a later version is
 * rejected); per Gateway, its last readable version (served while a later one cannot be read) and the TLS
 * material of each Secret its listeners last served (served again while that Secret's material is invalid). An
 * object that is gone is forgotten, and so is material whose Secret is gone. Not thread-safe: one pipeline thread
 * owns the front end.
 */
final class LastGood {

  private final Map<ResourceKey, ApiObject> routes = new HashMap<>();
  private final Map<ResourceKey, ApiObject> gateways = new HashMap<>();
  /** Gateway, Secret: the material a listener of that Gateway last served from that Secret. */
  private final Map<ResourceKey, Map<ResourceKey, TlsSecretData>> material = new HashMap<>();

  /** Drops what belongs to objects and Secrets {@code config} no longer has. */
  void forgetAbsent(GatewayConfig config) {
    Set<ResourceKey> present = config.apiObjects().stream().map(ApiObject::key).collect(Collectors.toSet());
    routes.keySet().retainAll(present);
    gateways.keySet().retainAll(present);
    material.keySet().retainAll(present);
    material.values().forEach(bySecret -> bySecret.keySet().retainAll(config.secrets().keySet()));
  }

  /** The last accepted version of route {@code key}, if it had one. */
  Optional<ApiObject> route(ResourceKey key) {
    return Optional.ofNullable(routes.get(key));
  }

  void acceptedRoute(ApiObject route) {
    routes.put(route.key(), route);
  }

  void forgetRoute(ResourceKey key) {
    routes.remove(key);
  }

  /** The last readable version of Gateway {@code key}, if it had one. */
  Optional<ApiObject> gateway(ResourceKey key) {
    return Optional.ofNullable(gateways.get(key));
  }

  void acceptedGateway(ApiObject gateway) {
    gateways.put(gateway.key(), gateway);
  }

  /** The material of {@code secret} a listener of {@code gateway} last served, if any. */
  Optional<TlsSecretData> material(ResourceKey gateway, ResourceKey secret) {
    return Optional.ofNullable(material.getOrDefault(gateway, Map.of()).get(secret));
  }

  void servedMaterial(ResourceKey gateway, ResourceKey secret, TlsSecretData data) {
    material.computeIfAbsent(gateway, g -> new HashMap<>()).put(secret, data);
  }
}
