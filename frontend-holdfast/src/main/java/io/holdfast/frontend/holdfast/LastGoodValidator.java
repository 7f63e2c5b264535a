package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link Validator} with a memory: when a resource that was accepted before is now rejected, its last
 * accepted version goes on being served (and everything that depends on it stays up) until it is fixed or
 * deleted. Its status still says Rejected, with the reasons, plus {@link Reasons#SERVING_LAST_ACCEPTED}.
 * A deleted resource is forgotten. Not thread-safe: one pipeline thread owns it.
 */
public final class LastGoodValidator {
  private final Validator validator = new Validator();
  private final Map<ResourceKey, GatewayResource> lastAccepted = new HashMap<>();

  public ValidationResult validate(GatewayConfig config) {
    return run(config).toResult();
  }

  Verdicts run(GatewayConfig config) {
    Verdicts plain = validator.run(config);
    Set<ResourceKey> present = keysOf(config);
    lastAccepted.keySet().retainAll(present);

    Map<ResourceKey, GatewayResource> fallbacks = new HashMap<>();
    plain.statuses().forEach((key, status) -> {
      GatewayResource previous = lastAccepted.get(key);
      if (!status.isAccepted() && previous != null) {
        fallbacks.put(key, previous);
      }
    });
    Verdicts result = fallbacks.isEmpty() ? plain : validator.run(substitute(config, fallbacks));

    TreeMap<ResourceKey, ObjectStatus> statuses = new TreeMap<>(result.statuses());
    fallbacks.forEach((key, previous) -> {
      ObjectStatus rejected = plain.statuses().get(key);
      if (result.isAccepted(key)) {
        statuses.put(key, rejected.with(new Finding(Finding.Severity.NOTE, "", Reasons.SERVING_LAST_ACCEPTED,
            "still serving the last accepted version"
            + (previous.metadata().generation() > 0 ? " (generation " + previous.metadata().generation() + ")" : "")
            + " until this one is fixed")));
      } else {
        statuses.put(key, rejected);
      }
    });
    for (GatewayResource r : resourcesOf(result.accepted())) {
      if (!fallbacks.containsKey(r.key())) {
        lastAccepted.put(r.key(), r);
      }
    }
    return new Verdicts(result.accepted(), statuses);
  }

  private static GatewayConfig substitute(GatewayConfig config, Map<ResourceKey, GatewayResource> fallbacks) {
    GatewayConfig.Builder b = GatewayConfig.builder();
    for (GatewayResource r : resourcesOf(config)) {
      if (!fallbacks.containsKey(r.key())) {
        b.add(r);
      }
    }
    config.unparsed().stream().filter(u -> !fallbacks.containsKey(u.key())).forEach(b::addUnparsed);
    fallbacks.values().forEach(b::add);
    config.serviceEndpoints().forEach(b::endpoints);
    return b.build();
  }

  private static List<GatewayResource> resourcesOf(GatewayConfig c) {
    return c.resources();
  }

  private static Set<ResourceKey> keysOf(GatewayConfig c) {
    Set<ResourceKey> keys = new HashSet<>();
    resourcesOf(c).forEach(r -> keys.add(r.key()));
    c.unparsed().forEach(u -> keys.add(u.key()));
    return keys;
  }
}
