package io.holdfast.frontend.gloo;

import io.holdfast.api.ResourceKey;
import java.util.Set;

/** Gloo Edge's API groups and the kinds this front end reads ({@code gateway.solo.io/v1}, {@code gloo.solo.io/v1}). */
public final class GlooKinds {

  public static final String GATEWAY_GROUP = "gateway.solo.io";
  public static final String GLOO_GROUP = "gloo.solo.io";
  public static final String VERSION = "v1";
  /** Gloo Enterprise's group of {@code AuthConfig} (version {@link #VERSION}). */
  public static final String ENTERPRISE_GROUP = "enterprise.gloo.solo.io";
  /** Solo's rate limiter's group of {@code RateLimitConfig}. */
  public static final String RATELIMIT_GROUP = "ratelimit.solo.io";
  public static final String RATELIMIT_VERSION = "v1alpha1";

  public static final String GATEWAY = "Gateway";
  public static final String VIRTUAL_SERVICE = "VirtualService";
  public static final String ROUTE_TABLE = "RouteTable";
  public static final String UPSTREAM = "Upstream";
  public static final String UPSTREAM_GROUP = "UpstreamGroup";
  public static final String VIRTUAL_HOST_OPTION = "VirtualHostOption";
  public static final String ROUTE_OPTION = "RouteOption";
  public static final String SETTINGS = "Settings";
  public static final String AUTH_CONFIG = "AuthConfig";
  public static final String RATE_LIMIT_CONFIG = "RateLimitConfig";
  /** Not a Gloo kind: the IR key of a route's {@code kube} destination (a Service port), see {@link Destinations}. */
  static final String KUBE_DESTINATION = "KubeServiceDestination";
  /** Not a Gloo kind: the IR key of a route's subset of a kube Upstream, see {@link Destinations#subset}. */
  static final String SUBSET_DESTINATION = "UpstreamSubsetDestination";
  /** Not a Gloo kind: the IR key of a pass-through authorisation server's address, see {@link Destinations}. */
  static final String AUTHZ_ADDRESS = "PassThroughAuthServer";

  /** Kinds read natively, per group. */
  public static final Set<String> GATEWAY_KINDS = Set.of(GATEWAY, VIRTUAL_SERVICE, ROUTE_TABLE, VIRTUAL_HOST_OPTION,
      ROUTE_OPTION);
  public static final Set<String> GLOO_KINDS = Set.of(UPSTREAM, UPSTREAM_GROUP, SETTINGS);
  public static final Set<String> ENTERPRISE_KINDS = Set.of(AUTH_CONFIG);
  public static final Set<String> RATELIMIT_KINDS = Set.of(RATE_LIMIT_CONFIG);

  private GlooKinds() {
  }

  /** Whether {@code key} is in one of Gloo's groups (read or rejected by this front end). */
  public static boolean isGloo(ResourceKey key) {
    return key.group().equals(GATEWAY_GROUP) || key.group().equals(GLOO_GROUP)
        || key.group().equals(ENTERPRISE_GROUP) || key.group().equals(RATELIMIT_GROUP);
  }

  /** Whether {@code kind} is one this front end reads in {@code group}. */
  static boolean isRead(String group, String kind) {
    return switch (group) {
      case GATEWAY_GROUP -> GATEWAY_KINDS.contains(kind);
      case GLOO_GROUP -> GLOO_KINDS.contains(kind);
      case ENTERPRISE_GROUP -> ENTERPRISE_KINDS.contains(kind);
      case RATELIMIT_GROUP -> RATELIMIT_KINDS.contains(kind);
      default -> false;
    };
  }

  /** Whether {@code group/version} is one of the API versions this front end reads. */
  public static boolean isGlooApiVersion(String apiVersion) {
    return apiVersion.equals(GATEWAY_GROUP + "/" + VERSION) || apiVersion.equals(GLOO_GROUP + "/" + VERSION)
        || apiVersion.equals(ENTERPRISE_GROUP + "/" + VERSION)
        || apiVersion.equals(RATELIMIT_GROUP + "/" + RATELIMIT_VERSION);
  }
}
