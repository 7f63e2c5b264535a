package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.holdfast.api.ResourceKey;
import io.holdfast.election.Fence;
import io.holdfast.election.Term;
import io.holdfast.kube.status.StatusMetrics.Outcome;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer thread's state and the work of one fenced pass: bring every pending resource's status to its latest
 * desired value. Confined to the writer thread; nothing here is thread-safe.
 *
 * <p>A resource is pending while its latest desired status differs from the one last confirmed on its object
 * ({@link #settled}). A new term forgets everything confirmed, so every term starts by reconciling all resources
 * against fresh reads, which also repairs statuses altered or deleted while another replica led.
 *
 * <p>Every API call goes through {@link FencedCalls}: bounded by the request timeout and the time left on the
 * fence. A write is based on the newest copy of the object at hand without a GET: the one this writer last read or
 * wrote, or the source's informer copy when that one has a newer generation (the spec changed since). A stale base
 * costs one 409, then a re-read (the informer copy if it shows a newer generation than the rejected write, else a
 * GET), a recomputed status and another write; after {@link #MAX_CONFLICTS} conflicts in a row the resource counts
 * as failed and backs off.
 */
final class StatusReconciler {
  private static final Logger log = LoggerFactory.getLogger(StatusReconciler.class);
  /** 409s in a row on one resource before it counts as a failure and backs off. */
  static final int MAX_CONFLICTS = 5;

  /** Thrown by a {@link Pacer} when the writer is closing: the pass ends without writing. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("status writer closing", null, false, false);
    }
  }

  /** The writer thread's waits, measured on the writer's ticker. */
  interface Pacer {
    /** Waits {@code nanos}; returns early (normally) once the fence is no longer valid; throws {@link Stopped}. */
    void pause(Fence fence, long nanos);

    /** Waits until {@code answered} holds or {@code nanos} pass; the answer must wake the writer when it comes. */
    void awaitAnswer(java.util.function.BooleanSupplier answered, long nanos) throws InterruptedException;
  }

  private final StatusApi api;
  private final FencedCalls calls;
  private final Function<ResourceKey, Optional<GenericKubernetesResource>> cache;
  private final Clock clock;
  private final RateLimiter limiter;
  private final Backoff backoff;
  private final StatusMetrics metrics;
  private final String controllerName;

  /** Desired statuses known to be on their objects. */
  private final Map<ResourceKey, DesiredStatus> settled = new HashMap<>();
  /** The last object seen per resource (read or returned by a write): the base of the next write. */
  private final Map<ResourceKey, GenericKubernetesResource> known = new HashMap<>();
  private final Map<ResourceKey, Integer> keyFailures = new HashMap<>();
  private int failures;
  private Term term;

  StatusReconciler(StatusApi api, FencedCalls calls, Function<ResourceKey, Optional<GenericKubernetesResource>> cache,
      Clock clock, RateLimiter limiter, Backoff backoff, StatusMetrics metrics, String controllerName) {
    this.controllerName = controllerName;
    this.api = api;
    this.calls = calls;
    this.cache = cache;
    this.clock = clock;
    this.limiter = limiter;
    this.backoff = backoff;
    this.metrics = metrics;
  }

  /** Forgets everything: after a demotion, and before a resync. The next pass re-reads every object. */
  void forget() {
    settled.clear();
    known.clear();
    keyFailures.clear();
    failures = 0;
  }

  /** After a demotion: also forget the term, so the next term is recognised as new. */
  void demoted() {
    forget();
    term = null;
  }

  /**
   * Runs until nothing is pending, the writer closes, or the fence fails ({@link Fence.LeadershipLostException}
   * propagates). Reads the newest desired map from {@code latest} before every resource.
   */
  void drain(Fence fence, Supplier<Map<ResourceKey, DesiredStatus>> latest, Pacer pacer) {
    if (!fence.term().equals(term)) {
      forget();
      term = fence.term();
      log.info("status: leading term={}; reconciling all {} resource statuses", term, latest.get().size());
    }
    try {
      while (true) {
        Map<ResourceKey, DesiredStatus> desired = latest.get();
        List<ResourceKey> pending = pending(desired);
        int left = pending.size();
        metrics.pending(left);
        if (left == 0) {
          return;
        }
        for (ResourceKey key : pending) {
          fence.check();
          DesiredStatus want = latest.get().get(key); // the newest: many publishes, one write
          if (want != null && !want.equals(settled.get(key)) && !handle(fence, key, want, pacer)) {
            break; // failed and backed off: start over from the newest desired map
          }
          metrics.pending(--left);
        }
      }
    } catch (Stopped e) {
      log.debug("status: pass ended, writer closing");
    }
  }

  /** Pending keys, the ones that failed least first, so one resource failing for good cannot starve the rest. */
  private List<ResourceKey> pending(Map<ResourceKey, DesiredStatus> desired) {
    settled.keySet().retainAll(desired.keySet());
    known.keySet().retainAll(desired.keySet());
    keyFailures.keySet().retainAll(desired.keySet());
    List<ResourceKey> out = new ArrayList<>();
    desired.forEach((k, v) -> {
      if (!v.equals(settled.get(k))) {
        out.add(k);
      }
    });
    out.sort(Comparator.<ResourceKey>comparingInt(k -> keyFailures.getOrDefault(k, 0)).thenComparing(k -> k));
    return out;
  }

  /** One resource; false if it failed and the pass backed off. */
  private boolean handle(Fence fence, ResourceKey key, DesiredStatus want, Pacer pacer) {
    try {
      reconcile(fence, key, want, pacer);
      if (failures > 0) {
        log.info("status: API answering again after {} failed calls", failures);
      }
      failures = 0;
      keyFailures.remove(key);
      return true;
    } catch (KubernetesClientException | IllegalArgumentException e) {
      known.remove(key); // read afresh next time
      metrics.count(Outcome.FAILED);
      failures++;
      keyFailures.merge(key, 1, Integer::sum);
      long wait = backoff.delay(failures).toNanos();
      String code = e instanceof KubernetesClientException k && k.getCode() > 0 ? String.valueOf(k.getCode()) : "-";
      if (failures == 1) {
        log.warn("status: write failed resource={} code={} retryInMs={}: {}", key, code, wait / 1_000_000,
            firstLine(e));
      } else {
        log.debug("status: write failed again resource={} failures={} code={} retryInMs={}: {}", key, failures, code,
            wait / 1_000_000, firstLine(e));
      }
      pacer.pause(fence, wait);
      return false;
    }
  }

  private void reconcile(Fence fence, ResourceKey key, DesiredStatus want, Pacer pacer) {
    GenericKubernetesResource object = base(key);
    if (object == null) {
      object = read(fence, key, pacer);
    }
    for (int conflicts = 0; object != null; conflicts++) {
      Object current = object.getAdditionalProperties().get("status");
      if (!writable(key, want, object)) {
        confirm(key, want, object, Outcome.SKIPPED_UNCHANGED);
        log.debug("status: resource={} is another controller's, not written", key);
        return;
      }
      Map<String, Object> next = GlooStatusDocument.isGloo(key)
          ? GlooStatusDocument.compute(want.verdict(), current)
          : want.full().isPresent()
          ? GatewayApiStatusDocument.compute(want.full().get(), want.addresses(), current, controllerName,
              clock.instant())
          : StatusDocument.compute(want, current, clock.instant());
      if (StatusDocument.same(next, current)) {
        confirm(key, want, object, Outcome.SKIPPED_UNCHANGED);
        return;
      }
      GenericKubernetesResource body = withStatus(object, next);
      take(fence, pacer);
      try {
        confirm(key, want, calls.call(fence, pacer, "status PUT " + key, () -> api.updateStatus(key, body)),
            Outcome.WRITTEN);
        log.debug("status: written resource={} resourceVersion={} term={}", key,
            body.getMetadata().getResourceVersion(), fence.term());
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          break;
        }
        if (e.getCode() != 409 || conflicts >= MAX_CONFLICTS) {
          throw e;
        }
        metrics.count(Outcome.CONFLICT);
        known.remove(key);
        GenericKubernetesResource cached = cache.apply(key).orElse(null);
        boolean fromCache = cached != null && generation(cached) > generation(body);
        log.debug("status: conflict resource={} resourceVersion={}; re-reading from {}", key,
            body.getMetadata().getResourceVersion(), fromCache ? "the informer copy" : "the API");
        // A newer generation in the informer copy is the spec edit that caused the conflict: no GET needed.
        object = fromCache ? cached : read(fence, key, pacer);
      }
    }
    // Gone: nothing to write. Settled so it is not read again each pass; a new build drops it.
    known.remove(key);
    settled.put(key, want);
    metrics.count(Outcome.NOT_FOUND);
    log.debug("status: resource={} not found, nothing to write", key);
  }

  /**
   * A GatewayClass gets a status only while its {@code spec.controllerName} is ours (as the object says now, not as
   * the build saw it): another controller owns the others' statuses.
   */
  private boolean writable(ResourceKey key, DesiredStatus want, GenericKubernetesResource object) {
    return want.full().isEmpty() || !key.kind().equals("GatewayClass")
        || GatewayApiStatusDocument.isOurs(object.getAdditionalProperties().get("spec"), controllerName);
  }

  private GenericKubernetesResource read(Fence fence, ResourceKey key, Pacer pacer) {
    take(fence, pacer);
    return calls.call(fence, pacer, "GET " + key, () -> api.get(key)).orElse(null);
  }

  /**
   * The copy to base a write on, without a GET: the object this writer last read or wrote, unless the cache's
   * copy has a newer generation (a spec edit the writer has not seen; status writes do not change the
   * generation). Null when neither has the object.
   */
  private GenericKubernetesResource base(ResourceKey key) {
    GenericKubernetesResource mine = known.get(key);
    GenericKubernetesResource cached = cache.apply(key).orElse(null);
    if (mine == null || cached == null) {
      return mine != null ? mine : cached;
    }
    return generation(cached) > generation(mine) ? cached : mine;
  }

  private static long generation(GenericKubernetesResource r) {
    Long g = r.getMetadata() == null ? null : r.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }

  private void confirm(ResourceKey key, DesiredStatus want, GenericKubernetesResource object, Outcome outcome) {
    settled.put(key, want);
    known.put(key, object);
    metrics.count(outcome);
  }

  /** Waits for a rate-limit token; every API call, read or write, takes one. */
  private void take(Fence fence, Pacer pacer) {
    long wait;
    while ((wait = limiter.tryAcquire()) > 0) {
      pacer.pause(fence, wait);
      fence.check();
    }
  }

  /** A copy of {@code object} with only the status replaced; the resourceVersion stays the one that was read. */
  static GenericKubernetesResource withStatus(GenericKubernetesResource object, Map<String, Object> status) {
    GenericKubernetesResource copy = new GenericKubernetesResource();
    copy.setApiVersion(object.getApiVersion());
    copy.setKind(object.getKind());
    copy.setMetadata(new ObjectMetaBuilder(object.getMetadata()).build());
    Map<String, Object> props = new LinkedHashMap<>(object.getAdditionalProperties());
    props.put("status", status);
    copy.setAdditionalProperties(props);
    return copy;
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
