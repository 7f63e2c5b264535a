package io.holdfast.kube.source;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.HoldfastKinds;
import java.util.List;

/**
 * fabric8's client-side definitions of Holdfast's custom resources, built from {@link HoldfastKinds} (the one
 * kind table), and of the Kubernetes Gateway API kinds Holdfast reads (standard channel: v1, ReferenceGrant
 * v1beta1), spelled out so no call needs API discovery (which costs a request and an RBAC rule, and which
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

  /** The Kubernetes Gateway API's group; its CRDs are the upstream project's, installed by the user. */
  public static final String GATEWAY_API_GROUP = "gateway.networking.k8s.io";
  public static final ResourceDefinitionContext GATEWAY_CLASS =
      gatewayApi("GatewayClass", "gatewayclasses", "v1", false);
  public static final ResourceDefinitionContext GATEWAY_API_GATEWAY = gatewayApi("Gateway", "gateways", "v1", true);
  public static final ResourceDefinitionContext HTTP_ROUTE = gatewayApi("HTTPRoute", "httproutes", "v1", true);
  public static final ResourceDefinitionContext GRPC_ROUTE = gatewayApi("GRPCRoute", "grpcroutes", "v1", true);
  /** TLSRoute at v1 (standard channel since Gateway API v1.5). */
  public static final ResourceDefinitionContext TLS_ROUTE = gatewayApi("TLSRoute", "tlsroutes", "v1", true);
  /** TCPRoute at v1alpha2 (experimental channel, the version its CRD serves). */
  public static final ResourceDefinitionContext TCP_ROUTE = gatewayApi("TCPRoute", "tcproutes", "v1alpha2", true);
  public static final ResourceDefinitionContext REFERENCE_GRANT =
      gatewayApi("ReferenceGrant", "referencegrants", "v1beta1", true);

  /** The Gateway API kinds the source reads, all optional (a cluster without their CRDs has none of them). */
  public static final List<ResourceDefinitionContext> GATEWAY_API = List.of(GATEWAY_CLASS, GATEWAY_API_GATEWAY,
      HTTP_ROUTE, GRPC_ROUTE, TLS_ROUTE, TCP_ROUTE, REFERENCE_GRANT);

  /** The Gateway API kinds that have a status Holdfast writes. */
  public static final List<ResourceDefinitionContext> GATEWAY_API_WITH_STATUS = List.of(GATEWAY_CLASS,
      GATEWAY_API_GATEWAY, HTTP_ROUTE, GRPC_ROUTE, TLS_ROUTE, TCP_ROUTE);

  private GatewayCrds() {
  }

  /** The definition for a Holdfast or Gateway API kind, chosen by the key's group; empty for anything else. */
  public static java.util.Optional<ResourceDefinitionContext> context(io.holdfast.api.ResourceKey key) {
    List<ResourceDefinitionContext> candidates = key.group().equals(GROUP) ? ALL
        : key.group().equals(GATEWAY_API_GROUP) ? GATEWAY_API : List.of();
    return candidates.stream().filter(c -> c.getKind().equals(key.kind())).findFirst();
  }

  /** Whether Holdfast writes statuses of {@code key}'s kind: its own kinds, and the Gateway API's but ReferenceGrant. */
  public static boolean hasStatus(io.holdfast.api.ResourceKey key) {
    return HoldfastKinds.isHoldfast(key) || key.group().equals(GATEWAY_API_GROUP)
        && GATEWAY_API_WITH_STATUS.stream().anyMatch(c -> c.getKind().equals(key.kind()));
  }

  /** The definition for a Holdfast kind; throws for anything else. */
  public static ResourceDefinitionContext context(String kind) {
    return ALL.stream().filter(c -> c.getKind().equals(kind)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a " + API_VERSION + " kind: " + kind));
  }

  private static ResourceDefinitionContext gatewayApi(String kind, String plural, String version,
      boolean namespaced) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GATEWAY_API_GROUP)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
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
