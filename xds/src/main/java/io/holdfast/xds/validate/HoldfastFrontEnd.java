package io.holdfast.xds.validate;

import io.holdfast.xds.ir.Ir;
import io.holdfast.xds.ir.IrBuilder;
import io.holdfast.xds.ir.VirtualHost;
import io.holdfast.xds.model.GatewayConfig;
import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.model.VirtualService;
import java.util.HashMap;
import java.util.Map;

/** The front end of the Holdfast API ({@code gateway.holdfast.io/v1}). */
public final class HoldfastFrontEnd {

  private HoldfastFrontEnd() {
  }

  /**
   * The IR of an accepted config ({@link ValidationResult#accepted()}).
   *
   * @throws IllegalArgumentException if it is not consistent (a Gateway names a VirtualService it does not hold,
   *                                  two VirtualServices share a domain, ...): lower only Validator output
   */
  public static Ir lowerAccepted(GatewayConfig accepted) {
    IrBuilder builder = new IrBuilder();
    lower(accepted, builder);
    return builder.build();
  }

  static void lower(GatewayConfig accepted, IrBuilder builder) {
    accepted.upstreams().forEach(u -> builder.add(Lowering.cluster(u, accepted)));
    Map<ResourceKey, VirtualHost> hosts = new HashMap<>();
    for (VirtualService vs : accepted.virtualServices()) {
      VirtualHost host = Lowering.virtualHost(vs);
      hosts.put(vs.key(), host);
      Lowering.clientListeners(vs, host).forEach(builder::add);
    }
    accepted.gateways().forEach(g -> builder.add(Lowering.socket(g, accepted.virtualServices(), hosts)));
  }
}
