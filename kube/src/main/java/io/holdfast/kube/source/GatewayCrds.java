package io.holdfast.kube.source;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.ResourceKey;
import java.util.List;

/**
 * The client-side names of the three Holdfast custom resources ({@code gateway.holdfast.io/v1}, namespaced),
 * matching the CRDs in {@code deploy/crds/}. Shared by the config source and the status writer.
 */
public final class GatewayCrds {

  public static final String GROUP = "gateway.holdfast.io";
  public static final String VERSION = "v1";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  public static final ResourceDefinitionContext UPSTREAM = context(ResourceKey.UPSTREAM, "upstreams");
  public static final ResourceDefinitionContext VIRTUAL_SERVICE =
      context(ResourceKey.VIRTUAL_SERVICE, "virtualservices");
  public static final ResourceDefinitionContext GATEWAY = context(ResourceKey.GATEWAY, "gateways");

  /** All three, in the order the source starts their informers. */
  public static final List<ResourceDefinitionContext> ALL = List.of(UPSTREAM, VIRTUAL_SERVICE, GATEWAY);

  private GatewayCrds() {
  }

  /** The definition for a {@link ResourceKey} kind; throws for anything else. */
  public static ResourceDefinitionContext context(String kind) {
    return ALL.stream().filter(c -> c.getKind().equals(kind)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a Holdfast kind: " + kind));
  }

  private static ResourceDefinitionContext context(String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(VERSION)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
        .build();
  }
}
