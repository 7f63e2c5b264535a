package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which Gateway serves which VirtualService: the one rule the validator's conflict checks and the selection it
 * hands to lowering both follow. A front end that reads another API (Gloo) decides its own selection rules (Gloo's
 * ssl/plain split) when it builds the Gateway's {@link VirtualServiceSelection.Named} list, so they apply here too.
 */
final class Serving {

  private Serving() {
  }

  /** Whether {@code gateway}'s selection takes {@code vs} (named or by its rule). */
  static boolean selects(Gateway gateway, VirtualService vs) {
    String namespace = gateway.metadata().namespace();
    if (gateway.selection() instanceof VirtualServiceSelection.Named named) {
      return named.refs().stream().anyMatch(r -> r.resolve(ResourceKey.VIRTUAL_SERVICE, namespace).equals(vs.key()));
    }
    return gateway.selection().selects(namespace, vs);
  }

  /** Whether {@code gateway} serves {@code vs}: it selects it, and an HTTPS gateway only with a certificate. */
  static boolean serves(Gateway gateway, VirtualService vs) {
    return takes(gateway, vs) && selects(gateway, vs);
  }

  /**
   * The VirtualServices of {@code pool} that {@code gateway} serves ({@link #serves}): a named selection looks its
   * references up, in their written order (bounded by the references, so thousands of Gateways naming one each
   * are not each tested against every VirtualService); a rule tests each of the pool, in the pool's order.
   */
  static List<VirtualService> served(Gateway gateway, Map<ResourceKey, VirtualService> pool) {
    if (!(gateway.selection() instanceof VirtualServiceSelection.Named named)) {
      return pool.values().stream().filter(vs -> serves(gateway, vs)).toList();
    }
    Set<ResourceKey> refs = new LinkedHashSet<>();
    named.refs().forEach(r -> refs.add(r.resolve(ResourceKey.VIRTUAL_SERVICE, gateway.metadata().namespace())));
    return refs.stream().map(pool::get).filter(vs -> vs != null && takes(gateway, vs)).toList();
  }

  /** An HTTPS gateway takes only VirtualServices with a certificate; a plain one takes any. */
  private static boolean takes(Gateway gateway, VirtualService vs) {
    return !gateway.ssl() || vs.sslConfig().isPresent();
  }
}
