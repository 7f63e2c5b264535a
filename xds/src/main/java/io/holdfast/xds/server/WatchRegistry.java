package io.holdfast.xds.server;

import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current snapshot and the open watches of all streams. A watch is answered at once when its stream needs
 * something from the current snapshot, otherwise kept open and re-examined on each new snapshot. What a stream
 * needs is decided by its {@link SotwTypeState} / {@link DeltaTypeState}, from what its {@link Viewer} may see of
 * the current snapshot: all of it, or its proxy's view ({@link IndexedSnapshot#view}). A publish computes the new
 * views of the proxies that had one before it takes the lock; a proxy's first view is computed on first use.
 *
 * <p>Threading: publishers are serialised by their own lock; one lock guards the snapshot and the open watches;
 * answers are sent while holding it (sending only queues the encoded bytes on the gRPC stream), which keeps every
 * stream's responses in snapshot order and in push order per snapshot. Lock order is this lock, then a type
 * state's monitor, then a stream's response channel.
 */
final class WatchRegistry {

  private static final Logger log = LoggerFactory.getLogger(WatchRegistry.class);

  /** A SotW stream's open question for one type; finished once answered or cancelled. */
  static final class SotwWatch {
    private final SotwStream stream;
    private final String typeUrl;
    private final SotwTypeState state;
    private final SotwQuestion question;
    private final Viewer viewer;
    private volatile boolean cancelled;

    private SotwWatch(SotwStream stream, String typeUrl, SotwTypeState state, SotwQuestion question,
        Viewer viewer) {
      this.stream = stream;
      this.viewer = viewer;
      this.typeUrl = typeUrl;
      this.state = state;
      this.question = question;
    }
  }

  /** A delta stream's open interest in one type; finished once answered or cancelled. */
  static final class DeltaWatch {
    private final DeltaStream stream;
    private final String typeUrl;
    private final DeltaTypeState state;
    private final boolean wildcard;
    private final Viewer viewer;
    private volatile boolean cancelled;

    private DeltaWatch(DeltaStream stream, String typeUrl, DeltaTypeState state, boolean wildcard,
        Viewer viewer) {
      this.stream = stream;
      this.viewer = viewer;
      this.typeUrl = typeUrl;
      this.state = state;
      this.wildcard = wildcard;
    }
  }

  private final Object publishing = new Object();
  private final Object lock = new Object();
  private IndexedSnapshot current;
  private final Map<String, Set<SotwWatch>> sotw = new HashMap<>();
  private final Map<String, Set<DeltaWatch>> delta = new HashMap<>();

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
      next.viewsFollowing(before);
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
        answered += answerOpen(sotw.get(type), w -> w.cancelled || answer(w, next, false));
        answered += answerOpen(delta.get(type), w -> w.cancelled || answer(w, next));
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

  /**
   * Opens a SotW watch for {@code question}, answered at once if the stream needs something from the current
   * snapshot; {@code forceEndpoints} sends EDS even if the proxy has it (see {@link SotwTypeState#shouldSend}).
   */
  SotwWatch watch(SotwStream stream, String typeUrl, SotwTypeState state, SotwQuestion question,
      boolean forceEndpoints, Viewer viewer) {
    var watch = new SotwWatch(stream, typeUrl, state, question, viewer);
    synchronized (lock) {
      if (current != null && answer(watch, current, forceEndpoints)) {
        return watch;
      }
      sotw.computeIfAbsent(typeUrl, t -> new LinkedHashSet<>()).add(watch);
    }
    return watch;
  }

  /** Opens a delta watch, answered at once if the stream needs something from the current snapshot. */
  DeltaWatch watch(DeltaStream stream, String typeUrl, DeltaTypeState state, boolean wildcard, Viewer viewer) {
    var watch = new DeltaWatch(stream, typeUrl, state, wildcard, viewer);
    synchronized (lock) {
      if (current != null && answer(watch, current)) {
        return watch;
      }
      delta.computeIfAbsent(typeUrl, t -> new LinkedHashSet<>()).add(watch);
    }
    return watch;
  }

  /**
   * How many of {@code names} of {@code typeUrl} the current snapshot has but {@code viewer} may not see: asked
   * for by name outside the proxy's scope (they are answered as absent, exactly like names that do not exist).
   */
  int outOfView(Viewer viewer, String typeUrl, List<String> names) {
    if (viewer.everything() || names.isEmpty()) {
      return 0;
    }
    IndexedSnapshot snapshot = current().orElse(null);
    IndexedSnapshot view = snapshot == null ? null : viewer.select(snapshot);
    if (view == null) {
      return 0;
    }
    int refused = 0;
    for (String name : names) {
      if (snapshot.packed(typeUrl, name) != null && view.packed(typeUrl, name) == null) {
        refused++;
      }
    }
    return refused;
  }

  void cancel(SotwWatch watch) {
    watch.cancelled = true;
    forget(sotw, watch.typeUrl, watch);
  }

  void cancel(DeltaWatch watch) {
    watch.cancelled = true;
    forget(delta, watch.typeUrl, watch);
  }

  /** Sends the SotW answer if the stream needs it; true when the watch is finished (answered or gone). */
  private static boolean answer(SotwWatch watch, IndexedSnapshot current, boolean forceEndpoints) {
    IndexedSnapshot snapshot = watch.viewer.select(current);
    if (snapshot == null) {
      return false; // a snapshot without scopes is served to no proxy: wait for one with them
    }
    try {
      SotwPlan plan = snapshot.sotwPlan(watch.question);
      if (!watch.state.shouldSend(plan, snapshot.version(), forceEndpoints)) {
        return false;
      }
      watch.stream.send(watch.state, plan, current.version());
      return true;
    } catch (RuntimeException e) {
      // Keep the watch: the next snapshot retries, and a closing stream cancels it.
      log.warn("xDS response failed: type={} version={}", watch.typeUrl, snapshot.version(), e);
      return false;
    }
  }

  /** Sends the delta answer if the stream needs one; true when the watch is finished (answered or gone). */
  private static boolean answer(DeltaWatch watch, IndexedSnapshot current) {
    IndexedSnapshot snapshot = watch.viewer.select(current);
    if (snapshot == null) {
      return false; // a snapshot without scopes is served to no proxy: wait for one with them
    }
    try {
      Optional<DeltaTypeState.Plan> plan = watch.state.plan(snapshot, watch.typeUrl, watch.wildcard);
      if (plan.isEmpty()) {
        return false;
      }
      watch.stream.send(watch.typeUrl, watch.state, plan.get(), snapshot.version(), current.version());
      return true;
    } catch (RuntimeException e) {
      log.warn("xDS delta response failed: type={} version={}", watch.typeUrl, snapshot.version(), e);
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
