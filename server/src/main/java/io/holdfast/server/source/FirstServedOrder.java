package io.holdfast.server.source;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.ResourceKey;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * File mode's object ages. Files carry no creationTimestamp, and without one the front ends' "older wins" rule
 * (a domain, an SNI name, a port, a listener hostname) fell back to the alphabet, so a newly added object with an
 * earlier name took a name another one was serving, and was called the older. Here an object's age is the order in
 * which this server first saw it in a build: each object without a creationTimestamp gets, as its
 * creationTimestamp, the time of the first build that held it, and keeps it while it stays in the directory.
 * Objects first seen in one build share a time (the alphabet settles ties among them, as before); a later build's
 * newcomers get a strictly later time, even if the clock stands still or steps back. An object that leaves the
 * directory is forgotten: added again, it is new. The times live in the snapshot file
 * ({@link io.holdfast.server.snapshot.SnapshotStore}), so a restart keeps every age.
 *
 * <p>Objects that do carry a creationTimestamp keep theirs. Thread-safe.
 */
public final class FirstServedOrder {

  private final Clock clock;
  private final Map<ResourceKey, Instant> firstServed = new TreeMap<>(); // guarded by this
  private Instant latest = Instant.EPOCH; // guarded by this; the latest time ever handed out or restored

  public FirstServedOrder(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Starts from the times a previous run stored. */
  public synchronized void restore(Map<ResourceKey, Instant> stored) {
    firstServed.clear();
    firstServed.putAll(stored);
    stored.values().stream().max(Instant::compareTo).filter(t -> t.isAfter(latest)).ifPresent(t -> latest = t);
  }

  /** The first-served time of every object seen in the last build and still present, by key. */
  public synchronized SortedMap<ResourceKey, Instant> current() {
    return Collections.unmodifiableSortedMap(new TreeMap<>(firstServed));
  }

  /**
   * {@code config} with a creationTimestamp on every object that has none: its first-served time, a new one for
   * objects seen for the first time. Objects no longer present are forgotten.
   */
  public synchronized GatewayConfig stamp(GatewayConfig config) {
    Set<ResourceKey> present = new HashSet<>();
    Instant now = null;
    GatewayConfig.Builder out = GatewayConfig.builder();
    for (GatewayResource resource : config.resources()) {
      if (resource.metadata().creationTimestamp().isPresent()) {
        out.add(resource);
        continue;
      }
      present.add(resource.key());
      if (!firstServed.containsKey(resource.key())) {
        now = now == null ? nextTime() : now;
        firstServed.put(resource.key(), now);
      }
      out.add(created(resource, firstServed.get(resource.key())));
    }
    for (ApiObject object : config.apiObjects()) {
      if (!(object.body().get("metadata") instanceof ObjectNode metadata)
          || metadata.hasNonNull("creationTimestamp")) {
        out.add(object);
        continue;
      }
      present.add(object.key());
      if (!firstServed.containsKey(object.key())) {
        now = now == null ? nextTime() : now;
        firstServed.put(object.key(), now);
      }
      ObjectNode body = object.bodyCopy();
      ((ObjectNode) body.get("metadata")).put("creationTimestamp", firstServed.get(object.key()).toString());
      out.add(new ApiObject(object.key(), object.generation(), body));
    }
    firstServed.keySet().retainAll(present);
    config.unparsed().forEach(out::addUnparsed);
    config.serviceEndpoints().forEach(out::endpoints);
    config.secrets().forEach(out::secret);
    return out.build();
  }

  /** A time later than any handed out before: the clock's, or just after the latest if the clock is behind. */
  private Instant nextTime() {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    latest = now.isAfter(latest) ? now : latest.plusMillis(1);
    return latest;
  }

  private static GatewayResource created(GatewayResource resource, Instant created) {
    return resource.withMetadata(resource.metadata().withCreationTimestamp(created));
  }

}
