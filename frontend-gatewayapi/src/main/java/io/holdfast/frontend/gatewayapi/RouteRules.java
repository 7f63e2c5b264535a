package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.holdfast.api.ResourceKey;

/**
 * Lowers the rules of one HTTPRoute or GRPCRoute into IR routes (one per rule match) ranked by the Gateway API's
 * precedence. Hostnames and parents are the caller's: the same lowered routes serve every host the route attaches
 * to.
 */
public final class RouteRules {

  private RouteRules() {
  }

  /** The rules of an HTTPRoute. */
  public static LoweredRoute http(HTTPRoute route, ResourceKey key, Backends backends) {
    throw new UnsupportedOperationException("HTTPRoute lowering is not written yet");
  }

  /** The rules of a GRPCRoute. */
  public static LoweredRoute grpc(GRPCRoute route, ResourceKey key, Backends backends) {
    throw new UnsupportedOperationException("GRPCRoute lowering is not written yet");
  }
}
