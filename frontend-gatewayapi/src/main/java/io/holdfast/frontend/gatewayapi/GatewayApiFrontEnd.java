package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.GatewayConfig;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.IrBuilder;
import java.util.Objects;

/**
 * The Gateway API's way into the IR (see the package documentation).
 */
public final class GatewayApiFrontEnd implements FrontEnd<GatewayConfig> {

  /** The API group of the Gateway API's kinds. */
  public static final String GROUP = "gateway.networking.k8s.io";
  /** The controller name Holdfast answers to unless configured otherwise. */
  public static final String DEFAULT_CONTROLLER_NAME = "holdfast.io/gateway-controller";

  private final String controllerName;

  public GatewayApiFrontEnd(String controllerName) {
    this.controllerName = Objects.requireNonNull(controllerName, "controllerName");
  }

  public String controllerName() {
    return controllerName;
  }

  @Override
  public void lower(GatewayConfig input, IrBuilder builder) {
    // Lowering lands with the front end's rules (in progress on this module's first branch).
  }
}
