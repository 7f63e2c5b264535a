package io.holdfast.api;

import java.util.List;
import java.util.Optional;

/**
 * The one table of Holdfast's kinds ({@code gateway.holdfast.io/v1}, namespaced): kind, plural, group and
 * version, as the CRDs in {@code deploy/crds/} declare them. The parser, the Kubernetes source's informers and
 * the status writer all read it, so a new kind is one row here (and its CRD).
 */
public final class HoldfastKinds {

  /** One kind: its {@code kind} as in {@link ResourceKey} and its REST plural. */
  public record Kind(String kind, String plural) {
  }

  public static final String GROUP = ResourceKey.HOLDFAST_GROUP;
  public static final String VERSION = "v1";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  public static final Kind UPSTREAM = new Kind(ResourceKey.UPSTREAM, "upstreams");
  public static final Kind VIRTUAL_SERVICE = new Kind(ResourceKey.VIRTUAL_SERVICE, "virtualservices");
  public static final Kind GATEWAY = new Kind(ResourceKey.GATEWAY, "gateways");
  public static final Kind TCP_GATEWAY = new Kind(ResourceKey.TCP_GATEWAY, "tcpgateways");
  public static final Kind ROUTE_TABLE = new Kind(ResourceKey.ROUTE_TABLE, "routetables");

  /** Every kind, in the order the Kubernetes source starts their informers (what others refer to first). */
  public static final List<Kind> ALL = List.of(UPSTREAM, VIRTUAL_SERVICE, GATEWAY, TCP_GATEWAY, ROUTE_TABLE);

  private HoldfastKinds() {
  }

  /** The row of {@code kind}, or empty for a kind that is not Holdfast's. */
  public static Optional<Kind> find(String kind) {
    return ALL.stream().filter(k -> k.kind().equals(kind)).findFirst();
  }

  /** Whether {@code key} names one of Holdfast's own kinds (group and kind both). */
  public static boolean isHoldfast(ResourceKey key) {
    return key.group().equals(GROUP) && find(key.kind()).isPresent();
  }
}
