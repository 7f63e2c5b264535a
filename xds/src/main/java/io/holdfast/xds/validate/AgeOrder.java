package io.holdfast.xds.validate;

import io.holdfast.xds.model.GatewayResource;
import java.time.Instant;
import java.util.Comparator;

/**
 * Who wins a conflict: the oldest resource by creationTimestamp (resources without one count as newest), then
 * by namespace, then by name. Independent of input order, so the same resources always give the same winner.
 */
final class AgeOrder {

  static final Comparator<GatewayResource> OLDEST_FIRST = Comparator
      .comparing((GatewayResource r) -> r.metadata().creationTimestamp().orElse(Instant.MAX))
      .thenComparing(r -> r.metadata().namespace())
      .thenComparing(r -> r.metadata().name());

  private AgeOrder() {
  }
}
