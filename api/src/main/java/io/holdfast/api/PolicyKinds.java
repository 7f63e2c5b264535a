package io.holdfast.api;

import java.util.List;

/**
 * Holdfast's policy kinds for the Gateway API ({@code gateway.holdfast.io/v1}, attached by {@code targetRefs} as in
 * GEP-713): carried as {@link ApiObject}s for the Gateway API front end, like the Gateway API's own kinds, rather
 * than parsed as Holdfast kinds. A new policy kind is one row here.
 */
public final class PolicyKinds {

  public static final String GROUP = "gateway.holdfast.io";
  public static final String API_VERSION = GROUP + "/v1";
  /** Listener and connection settings and access logs; targets a Gateway or one of its listeners. */
  public static final String CLIENT_TRAFFIC_POLICY = "ClientTrafficPolicy";
  /** Rate limits, compression, CSRF and body limit; targets a Gateway, a listener or an HTTPRoute. */
  public static final String TRAFFIC_POLICY = "TrafficPolicy";

  /** Authentication and authorisation ({@link SecurityPolicySpec}); targets a Gateway, a listener or a route. */
  public static final String SECURITY_POLICY = SecurityPolicySpec.KIND;

  public static final List<String> ALL = List.of(CLIENT_TRAFFIC_POLICY, TRAFFIC_POLICY, SECURITY_POLICY);

  private PolicyKinds() {
  }

  /** Whether a document of {@code apiVersion} and {@code kind} is one of these policies. */
  public static boolean isPolicy(String apiVersion, String kind) {
    return apiVersion.equals(API_VERSION) && ALL.contains(kind);
  }
}
