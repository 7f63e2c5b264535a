package io.holdfast.kube.status;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.ResourceKey;
import java.util.Map;

/**
 * The three custom kinds of {@code gateway.holdfast.io/v1}, spelled out so no call needs API discovery (which
 * costs a request and an RBAC rule, and which the emulated API serves only in part).
 */
final class GatewayKinds {
  static final String GROUP = "gateway.holdfast.io";
  static final String VERSION = "v1";
  static final String API_VERSION = GROUP + "/" + VERSION;

  private static final Map<String, ResourceDefinitionContext> CONTEXTS = Map.of(
      ResourceKey.GATEWAY, context(ResourceKey.GATEWAY, "gateways"),
      ResourceKey.VIRTUAL_SERVICE, context(ResourceKey.VIRTUAL_SERVICE, "virtualservices"),
      ResourceKey.UPSTREAM, context(ResourceKey.UPSTREAM, "upstreams"));

  private GatewayKinds() {
  }

  static ResourceDefinitionContext of(String kind) {
    ResourceDefinitionContext c = CONTEXTS.get(kind);
    if (c == null) {
      throw new IllegalArgumentException("not a " + API_VERSION + " kind: " + kind);
    }
    return c;
  }

  static boolean isKnown(String kind) {
    return CONTEXTS.containsKey(kind);
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
