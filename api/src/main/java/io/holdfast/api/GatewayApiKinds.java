package io.holdfast.api;

import java.util.List;
import java.util.Optional;

/**
 * The one table of the Kubernetes Gateway API kinds Holdfast reads ({@code gateway.networking.k8s.io}): kind,
 * REST plural, the version Holdfast reads it at, scope, whether it is a route (has {@code spec.parentRefs} and
 * {@code status.parents}) and whether Holdfast writes its status. The Kubernetes source's informers and
 * reference extraction, the pipeline, the status writer and the emulated API of the tests all read it, so a new
 * kind is one row here.
 */
public final class GatewayApiKinds {

  /** One kind of the Gateway API. */
  public record Kind(String kind, String plural, String version, boolean namespaced, boolean route,
      boolean hasStatus) {
  }

  public static final String GROUP = "gateway.networking.k8s.io";

  public static final Kind GATEWAY_CLASS = new Kind("GatewayClass", "gatewayclasses", "v1", false, false, true);
  public static final Kind GATEWAY = new Kind("Gateway", "gateways", "v1", true, false, true);
  public static final Kind HTTP_ROUTE = new Kind("HTTPRoute", "httproutes", "v1", true, true, true);
  public static final Kind GRPC_ROUTE = new Kind("GRPCRoute", "grpcroutes", "v1", true, true, true);
  /** TLSRoute at v1 (standard channel since Gateway API v1.5). */
  public static final Kind TLS_ROUTE = new Kind("TLSRoute", "tlsroutes", "v1", true, true, true);
  /** TCPRoute at v1alpha2 (experimental channel, the version its CRD serves). */
  public static final Kind TCP_ROUTE = new Kind("TCPRoute", "tcproutes", "v1alpha2", true, true, true);
  /** ReferenceGrant at v1beta1; it has no status. */
  public static final Kind REFERENCE_GRANT = new Kind("ReferenceGrant", "referencegrants", "v1beta1", true, false,
      false);

  /** Every kind, in the order the Kubernetes source starts their informers. */
  public static final List<Kind> ALL = List.of(GATEWAY_CLASS, GATEWAY, HTTP_ROUTE, GRPC_ROUTE, TLS_ROUTE, TCP_ROUTE,
      REFERENCE_GRANT);

  /** The route kinds. */
  public static final List<Kind> ROUTES = ALL.stream().filter(Kind::route).toList();

  private GatewayApiKinds() {
  }

  /** The row of {@code kind}, or empty for a kind Holdfast does not read. */
  public static Optional<Kind> find(String kind) {
    return ALL.stream().filter(k -> k.kind().equals(kind)).findFirst();
  }

  /** Whether {@code key} is a Gateway API route (group and kind both). */
  public static boolean isRoute(ResourceKey key) {
    return key.group().equals(GROUP) && find(key.kind()).map(Kind::route).orElse(false);
  }

  /** Whether {@code key} is a Gateway API kind whose status Holdfast writes. */
  public static boolean hasStatus(ResourceKey key) {
    return key.group().equals(GROUP) && find(key.kind()).map(Kind::hasStatus).orElse(false);
  }
}
