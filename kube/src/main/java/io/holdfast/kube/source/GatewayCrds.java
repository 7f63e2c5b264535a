package io.holdfast.kube.source;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.HoldfastKinds;
import java.util.List;

/**
 * fabric8's client-side definitions of Holdfast's custom resources, built from {@link HoldfastKinds} (the one
 * kind table) and spelled out so no call needs API discovery (which costs a request and an RBAC rule, and which
 * the emulated API serves only in part). Shared by the config source and the status writer.
 */
public final class GatewayCrds {

  public static final String GROUP = HoldfastKinds.GROUP;
  public static final String VERSION = HoldfastKinds.VERSION;
  public static final String API_VERSION = HoldfastKinds.API_VERSION;

  public static final ResourceDefinitionContext UPSTREAM = context(HoldfastKinds.UPSTREAM);
  public static final ResourceDefinitionContext VIRTUAL_SERVICE = context(HoldfastKinds.VIRTUAL_SERVICE);
  public static final ResourceDefinitionContext GATEWAY = context(HoldfastKinds.GATEWAY);
  public static final ResourceDefinitionContext TCP_GATEWAY = context(HoldfastKinds.TCP_GATEWAY);
  public static final ResourceDefinitionContext ROUTE_TABLE = context(HoldfastKinds.ROUTE_TABLE);

  /** All of them, in the order of {@link HoldfastKinds#ALL} (the order the source starts their informers). */
  public static final List<ResourceDefinitionContext> ALL = List.of(UPSTREAM, VIRTUAL_SERVICE, GATEWAY, TCP_GATEWAY,
      ROUTE_TABLE);

  private GatewayCrds() {
  }

  /** The definition for a Holdfast kind; throws for anything else. */
  public static ResourceDefinitionContext context(String kind) {
    return ALL.stream().filter(c -> c.getKind().equals(kind)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a " + API_VERSION + " kind: " + kind));
  }

  private static ResourceDefinitionContext context(HoldfastKinds.Kind kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(VERSION)
        .withKind(kind.kind())
        .withPlural(kind.plural())
        .withNamespaced(true)
        .build();
  }
}
