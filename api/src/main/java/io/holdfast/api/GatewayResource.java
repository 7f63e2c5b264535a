package io.holdfast.api;

/** One parsed resource of the {@code gateway.holdfast.io/v1} API. */
public sealed interface GatewayResource permits Upstream, VirtualService, Gateway, TcpGateway, RouteTable {

  String GROUP = HoldfastKinds.GROUP;
  String API_VERSION = HoldfastKinds.API_VERSION;

  Metadata metadata();

  /**
   * This resource with other metadata and every other field as it is. Code that only changes metadata must use
   * this rather than a constructor: the kinds' shorter constructors default the newer fields (proxyNames, options),
   * so rebuilding through one silently dropped them.
   */
  GatewayResource withMetadata(Metadata metadata);

  /** {@link ResourceKey#UPSTREAM}, {@link ResourceKey#VIRTUAL_SERVICE}, {@link ResourceKey#GATEWAY} or
   * {@link ResourceKey#TCP_GATEWAY} or {@link ResourceKey#ROUTE_TABLE}. */
  String kind();

  default ResourceKey key() {
    return metadata().key(kind());
  }
}
