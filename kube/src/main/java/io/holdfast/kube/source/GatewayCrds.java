package io.holdfast.kube.source;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.SecurityPolicySpec;
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
  public static final String GATEWAY_API_GROUP = GatewayApiKinds.GROUP;
  public static final ResourceDefinitionContext GATEWAY_CLASS = gatewayApi(GatewayApiKinds.GATEWAY_CLASS);
  public static final ResourceDefinitionContext GATEWAY_API_GATEWAY = gatewayApi(GatewayApiKinds.GATEWAY);
  public static final ResourceDefinitionContext HTTP_ROUTE = gatewayApi(GatewayApiKinds.HTTP_ROUTE);
  public static final ResourceDefinitionContext GRPC_ROUTE = gatewayApi(GatewayApiKinds.GRPC_ROUTE);
  public static final ResourceDefinitionContext TLS_ROUTE = gatewayApi(GatewayApiKinds.TLS_ROUTE);
  public static final ResourceDefinitionContext TCP_ROUTE = gatewayApi(GatewayApiKinds.TCP_ROUTE);
  public static final ResourceDefinitionContext REFERENCE_GRANT = gatewayApi(GatewayApiKinds.REFERENCE_GRANT);

  /**
   * The Gateway API kinds the source reads ({@link GatewayApiKinds#ALL}, in its order), all optional (a cluster
   * without their CRDs has none of them).
   */
  public static final List<ResourceDefinitionContext> GATEWAY_API = List.of(GATEWAY_CLASS, GATEWAY_API_GATEWAY,
      HTTP_ROUTE, GRPC_ROUTE, TLS_ROUTE, TCP_ROUTE, REFERENCE_GRANT);

  /**
   * Gloo Edge's kinds the Gloo front end reads ({@code gateway.solo.io/v1}, {@code gloo.solo.io/v1}; the
   * {@code AuthConfig} of Gloo Enterprise and the {@code RateLimitConfig} of Solo's rate limiter, which Gloo's options
   * name), all optional: their CRDs are Gloo's, present in a cluster moving from Gloo Edge.
   */
  public static final List<ResourceDefinitionContext> GLOO = List.of(
      gloo("gateway.solo.io", "Gateway", "gateways"),
      gloo("gateway.solo.io", "VirtualService", "virtualservices"),
      gloo("gateway.solo.io", "RouteTable", "routetables"),
      gloo("gateway.solo.io", "VirtualHostOption", "virtualhostoptions"),
      gloo("gateway.solo.io", "RouteOption", "routeoptions"),
      gloo("gloo.solo.io", "Upstream", "upstreams"),
      gloo("gloo.solo.io", "UpstreamGroup", "upstreamgroups"),
      gloo("gloo.solo.io", "Settings", "settings"),
      gloo("enterprise.gloo.solo.io", "AuthConfig", "authconfigs"),
      gloo("ratelimit.solo.io", "v1alpha1", "RateLimitConfig", "ratelimitconfigs"));

  /** Holdfast's Gateway API policy kinds ({@link PolicyKinds}): Holdfast's group, read as ApiObjects. */
  public static final ResourceDefinitionContext CLIENT_TRAFFIC_POLICY = policy(PolicyKinds.CLIENT_TRAFFIC_POLICY,
      "clienttrafficpolicies");
  public static final ResourceDefinitionContext TRAFFIC_POLICY = policy(PolicyKinds.TRAFFIC_POLICY,
      "trafficpolicies");
  public static final ResourceDefinitionContext SECURITY_POLICY = policy(PolicyKinds.SECURITY_POLICY,
      SecurityPolicySpec.PLURAL);

  /**
   * The policy kinds, in the order of {@link PolicyKinds#ALL}; optional (a cluster upgraded without their CRDs has
   * none). Not in {@link #ALL}: they are not parsed by ModelParser but carried to the Gateway API front end.
   */
  public static final List<ResourceDefinitionContext> POLICIES = List.of(CLIENT_TRAFFIC_POLICY, TRAFFIC_POLICY,
      SECURITY_POLICY);

  private GatewayCrds() {
  }

  /** The definition for a Holdfast, Gateway API or Gloo Edge kind, chosen by the key's group; empty for anything else. */
  public static java.util.Optional<ResourceDefinitionContext> context(io.holdfast.api.ResourceKey key) {
    List<ResourceDefinitionContext> candidates = key.group().equals(GROUP)
        ? (PolicyKinds.ALL.contains(key.kind()) ? POLICIES : ALL)
        : key.group().equals(GATEWAY_API_GROUP) ? GATEWAY_API : GLOO;
    return candidates.stream().filter(c -> c.getGroup().equals(key.group()) && c.getKind().equals(key.kind()))
        .findFirst();
  }

  /**
   * Whether Holdfast writes statuses of {@code key}'s kind: its own kinds and policy kinds, and the Gateway API's but
   * ReferenceGrant.
   */
  public static boolean hasStatus(io.holdfast.api.ResourceKey key) {
    return HoldfastKinds.isHoldfast(key) || GatewayApiKinds.hasStatus(key) || isPolicy(key);
  }

  /** Whether {@code key} is one of Holdfast's Gateway API policy kinds. */
  public static boolean isPolicy(io.holdfast.api.ResourceKey key) {
    return key.group().equals(GROUP) && PolicyKinds.ALL.contains(key.kind());
  }

  /** The definition for a Holdfast kind; throws for anything else. */
  public static ResourceDefinitionContext context(String kind) {
    return ALL.stream().filter(c -> c.getKind().equals(kind)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("not a " + API_VERSION + " kind: " + kind));
  }

  private static ResourceDefinitionContext gloo(String group, String kind, String plural) {
    return gloo(group, "v1", kind, plural);
  }

  private static ResourceDefinitionContext gloo(String group, String version, String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
        .build();
  }

  private static ResourceDefinitionContext gatewayApi(GatewayApiKinds.Kind kind) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GatewayApiKinds.GROUP)
        .withVersion(kind.version())
        .withKind(kind.kind())
        .withPlural(kind.plural())
        .withNamespaced(kind.namespaced())
        .build();
  }

  private static ResourceDefinitionContext policy(String kind, String plural) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(VERSION)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(true)
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
