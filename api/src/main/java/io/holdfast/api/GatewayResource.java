package io.holdfast.api;

/** One parsed resource of the {@code gateway.holdfast.io/v1} API. */
public sealed interface GatewayResource permits Upstream, VirtualService, Gateway {

  String GROUP = HoldfastKinds.GROUP;
  String API_VERSION = HoldfastKinds.API_VERSION;

  Metadata metadata();

  /** {@link ResourceKey#UPSTREAM}, {@link ResourceKey#VIRTUAL_SERVICE} or {@link ResourceKey#GATEWAY}. */
  String kind();

  default ResourceKey key() {
    return metadata().key(kind());
  }
}
