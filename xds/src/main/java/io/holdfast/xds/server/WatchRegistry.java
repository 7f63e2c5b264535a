package io.holdfast.xds.server;

import io.envoyproxy.controlplane.cache.ConfigWatcher;
import io.envoyproxy.controlplane.cache.DeltaResponse;
import io.envoyproxy.controlplane.cache.DeltaWatch;
import io.envoyproxy.controlplane.cache.DeltaXdsRequest;
import io.envoyproxy.controlplane.cache.Response;
import io.envoyproxy.controlplane.cache.Watch;
import io.envoyproxy.controlplane.cache.WatchCancelledException;
import io.envoyproxy.controlplane.cache.XdsRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * java-control-plane's {@link ConfigWatcher} over one snapshot shared by all nodes. A watch is answered at once
 * when its stream needs something from the current snapshot, otherwise kept open and re-examined on each new
 * snapshot. What a stream needs is decided by its {@link SotwTypeState} / {@link DeltaTypeState}, which arrive
 * with the request through {@link RequestHandoff}.
 *
 * <p>Threading: publishers are serialised by their own lock; one lock guards the snapshot and the open watches; answers are sent while holding it (the
 * discovery server's default direct executor only queues the message on the gRPC stream), which keeps every
 * stream's responses in snapshot order. Lock order is this lock, then a type state's monitor.
 */
final class WatchRegistry implements ConfigWatcher {

  private static final Logger log = LoggerFactory.getLogger(WatchRegistry.class);

  private record SotwEntry(Watch watch, String typeUrl, SotwTypeState state, SotwQuestion question) {
  }

  private record DeltaEntry(DeltaWatch watch, String typeUrl, DeltaTypeState state, boolean wildcard) {
  }

  private final Object publishing = new Object();
  private final Object lock = new Object();
  private IndexedSnapshot current;
  private final Map<String, Set<SotwEntry>> sotw = new HashMap<>();
  private final Map<String, Set<DeltaEntry>> delta = new HashMap<>();

  Optional<IndexedSnapshot> current() {
    synchronized (lock) {
      return Optional.ofNullable(current);
    }
  }

  /** Makes {@code snapshot} current and answers open watches; false (and nothing sent) if the version is equal. */
  boolean publish(XdsSnapshot snapshot) {
    synchronized (publishing) {
      IndexedSnapshot before = current().orElse(null);
      if (before != null && before.version().equals(snapshot.version())) {
        return false;
      }
      // Hash outside the watch lock so requests are not held up; publishers are serialised, so `before` stays
      // the current snapshot until the swap below.
      IndexedSnapshot next = IndexedSnapshot.of(snapshot, before);
      answerAll(next, before == null ? "none" : before.version());
      return true;
    }
  }

  private void answerAll(IndexedSnapshot next, String previous) {
    synchronized (lock) {
      current = next;
      Set<String> types = new TreeSet<>(TypeUrls.IN_PUSH_ORDER);
      types.addAll(sotw.keySet());
      types.addAll(delta.keySet());
      int answered = 0;
      for (String type : types) {
        // Cancelled watches are dropped too, in case one was cancelled before its stop hook was set.
        answered += answerOpen(sotw.get(type), e -> e.watch().isCancelled() || answer(e, next, false));
        answered += answerOpen(delta.get(type), e -> e.watch().isCancelled() || answer(e, next));
      }
      log.info("xDS snapshot now current: version={} previous={} finishedWatches={}",
          next.version(), previous, answered);
    }
  }

  /** Answers what it can of {@code open}, removing finished watches; returns how many finished (or were gone). */
  private static <E> int answerOpen(Set<E> open, Predicate<E> answer) {
    if (open == null) {
      return 0;
    }
    int before = open.size();
    open.removeIf(answer);
    return before - open.size();
  }

  @Override
  public Watch createWatch(boolean ads, XdsRequest request, Set<String> knownResourceNames,
      Consumer<Response> responseConsumer, boolean hasClusterChanged, boolean allowDefaultEmptyEdsUpdate) {
    StreamState stream = RequestHandoff.take(request.v3Request());
    String type = servableType(stream, request.getTypeUrl());
    if (type == null) {
      return new Watch(ads, false, request, responseConsumer);
    }
    // An open watch keeps only the interned question and a request naming the type (it identifies the response
    // in SotwTypeState), not the proxy's request, whose parsed resource names are a copy per stream.
    Watch watch = new Watch(ads, false, XdsRequest.create(DiscoveryRequest.newBuilder().setTypeUrl(type).build()),
        responseConsumer);
    try {
      var entry = new SotwEntry(watch, type, stream.sotw(type), SotwQuestion.of(type, request.getResourceNamesList()));
      boolean forceEndpoints = ads && hasClusterChanged && TypeUrls.ENDPOINT.equals(type);
      synchronized (lock) {
        if (current != null && answer(entry, current, forceEndpoints)) {
          return watch;
        }
        sotw.computeIfAbsent(type, t -> new LinkedHashSet<>()).add(entry);
        watch.setStop(() -> forget(sotw, type, entry));
      }
    } catch (RuntimeException e) {
      log.error("xDS request ignored: creating its watch failed: type={}", request.getTypeUrl(), e);
    }
    return watch;
  }

  @Override
  public DeltaWatch createDeltaWatch(DeltaXdsRequest request, String requesterVersion,
      Map<String, String> resourceVersions, Set<String> pendingResources, boolean isWildcard,
      Consumer<DeltaResponse> responseConsumer, boolean hasClusterChanged) {
    // Subscriptions and held versions live in DeltaTypeState; the watch only carries the request.
    DeltaWatch watch = new DeltaWatch(request, Map.of(), Set.of(), requesterVersion, isWildcard, responseConsumer);
    try {
      StreamState stream = RequestHandoff.take(request.v3Request());
      String type = servableType(stream, request.getTypeUrl());
      if (type == null) {
        return watch;
      }
      var entry = new DeltaEntry(watch, type, stream.delta(type), isWildcard);
      synchronized (lock) {
        if (current != null && answer(entry, current)) {
          return watch;
        }
        delta.computeIfAbsent(type, t -> new LinkedHashSet<>()).add(entry);
        watch.setStop(() -> forget(delta, type, entry));
      }
    } catch (RuntimeException e) {
      log.error("xDS delta request ignored: creating its watch failed: type={}", request.getTypeUrl(), e);
    }
    return watch;
  }

  /** The type to serve, or null (logged) when there is no stream context or the type cannot be served. */
  private static String servableType(StreamState stream, String requestTypeUrl) {
    if (stream == null) {
      // Only reachable if this watcher is wired without StreamTracker; never answer blind.
      log.error("xDS request ignored: no stream state for it (StreamTracker not installed?) type={}",
          requestTypeUrl);
      return null;
    }
    String type = stream.typeOf(requestTypeUrl);
    if (!TypeUrls.supported(type)) {
      if (stream.firstUnsupported(type)) {
        log.warn("xDS request ignored: unsupported resource type: node={} stream={} type={}",
            stream.nodeId(), stream.id(), type);
      }
      return null;
    }
    return type;
  }

  /** Sends the SotW answer if the stream needs it; true when the watch is finished (answered or gone). */
  private boolean answer(SotwEntry entry, IndexedSnapshot snapshot, boolean forceEndpoints) {
    XdsRequest request = entry.watch().request();
    SotwPlan plan = snapshot.sotwPlan(entry.question());
    if (!entry.state().shouldSend(plan, snapshot.version(), forceEndpoints)) {
      return false;
    }
    entry.state().planned(request.v3Request(), new SotwTypeState.Sent(snapshot.version(), plan.key(), plan.names()));
    try {
      entry.watch().respond(Response.create(request, plan.resources(), snapshot.version()));
      return true;
    } catch (WatchCancelledException e) {
      entry.state().abandoned(request.v3Request());
      return true;
    } catch (RuntimeException e) {
      // Keep the watch: the next snapshot retries, and a closing stream cancels it.
      entry.state().abandoned(request.v3Request());
      log.warn("xDS response failed: type={} version={}", entry.typeUrl(), snapshot.version(), e);
      return false;
    }
  }

  /** Sends the delta answer if the stream needs one; true when the watch is finished (answered or gone). */
  private boolean answer(DeltaEntry entry, IndexedSnapshot snapshot) {
    Optional<DeltaTypeState.Plan> plan = entry.state().plan(snapshot, entry.typeUrl(), entry.wildcard());
    if (plan.isEmpty()) {
      return false;
    }
    try {
      entry.watch().respond(DeltaResponse.create(entry.watch().request(), plan.get().resources(),
          plan.get().removed(), snapshot.version()));
      return true;
    } catch (WatchCancelledException e) {
      return true;
    } catch (RuntimeException e) {
      log.warn("xDS delta response failed: type={} version={}", entry.typeUrl(), snapshot.version(), e);
      return false;
    }
  }

  private <E> void forget(Map<String, Set<E>> watches, String type, E entry) {
    synchronized (lock) {
      Set<E> open = watches.get(type);
      if (open != null) {
        open.remove(entry);
      }
    }
  }
}
