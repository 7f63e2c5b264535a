package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.common.Wake;
import io.holdfast.election.Fence;
import io.holdfast.election.Leadership;
import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import io.holdfast.kube.source.GatewayCrds;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each gateway resource's {@code status} (see {@link StatusDocument}) from the latest desired statuses:
 * leader only, fenced, coalesced, rate limited, on its own thread.
 *
 * <ul>
 *   <li>Pull, not push: the writer reads the desired statuses from its {@link #follow source} on its own thread;
 *       {@link #changed} only wakes it and never blocks on the API. A wake carries no statuses, so a wake sent on
 *       behalf of an older build (a NACK listener on a Netty event loop, racing the pipeline) cannot bring an
 *       older map back: the writer always reads the source as it is now. Many changes between two writes collapse
 *       into one write of the newest status per resource.
 *   <li>Every write runs inside {@link Leadership#runIfLeader}; {@link Fence#check()} runs right before each
 *       HTTP request, and the write carries the resourceVersion it was computed from, so a stale write gets 409
 *       (then the object is re-read and the status recomputed) instead of overwriting a newer one.
 *   <li>Each request is a leader-only request: the writer waits for it at most {@code min(requestTimeout, time left
 *       on the fence)}, then abandons it; none starts with less than {@link FencedCalls#MIN_TIME_LEFT} left
 *       ({@link FencedCalls}).
 *   <li>A write whose computed status equals the object's current one is skipped.
 *   <li>Each new term reconciles every resource against fresh reads; a demotion ends the current pass at once and
 *       drops its retries. A follower keeps the latest desired map and writes nothing.
 *   <li>Other failures back off exponentially ({@link Backoff}); reads and writes together are limited to
 *       {@code callsPerSecond}.
 * </ul>
 *
 * <p>Every wait of the writer thread (between passes, backoff, rate limit, a request's bound) is measured on one
 * monotonic ticker, {@link System#nanoTime()} unless a test injects a manual clock; a test then moves the clock and
 * calls {@link #timeMoved()}, and {@link #idleAt} tells it when the writer has done all it will do until the clock
 * moves again.
 */
public final class StatusWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StatusWriter.class);
  /** Longest a wait goes without re-checking the fence, which can expire by the clock with no event. */
  private static final long FENCE_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  /** What {@link #close()} may take beyond the request timeout: the writer thread finishing its step. */
  static final Duration CLOSE_MARGIN = Duration.ofMillis(500);

  /** The longest {@link #close()} takes for a writer whose requests are bounded by {@code requestTimeout}. */
  public static Duration closeBound(Duration requestTimeout) {
    return requestTimeout.plus(CLOSE_MARGIN);
  }
  /** The front end's default Gateway API controller name (its module is not this one's dependency). */
  public static final String DEFAULT_CONTROLLER_NAME = "holdfast.io/gateway-controller";
  /** Wait before the next pass after an unexpected failure, so a failure that repeats cannot spin. */
  /** The writer's label in {@code holdfast_worker_failures_total}. */
  public static final String WORKER = "status-writer";
  private static final long AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Leadership leadership;
  private final StatusReconciler reconciler;
  private final StatusMetrics metrics;
  private final long resyncNanos;
  private final Duration requestTimeout;
  private final LongSupplier ticker;
  private final FencedCalls calls;
  private final Wake wake = new Wake();
  /**
   * Wakes a wait for an API call's answer: the answer, or the ticker moving. Not {@link #wake}, so a burst of
   * {@link #changed} calls during a slow request does not make the writer thread contend for the lock each time.
   */
  private final Wake answerWake = new Wake();
  /** Set by every wake-up, cleared by the writer before each pass: a wake-up it has not acted on yet. */
  private final AtomicBoolean unseen = new AtomicBoolean();
  /** The writer thread's current wait; null while it runs. */
  private volatile Waiting waiting;
  private final AtomicBoolean resyncRequested = new AtomicBoolean();
  private volatile Supplier<Map<ResourceKey, DesiredStatus>> source = Map::of;
  /** Incremented by every {@link #changed}: the writer re-reads its source when it moved. */
  private final AtomicLong changes = new AtomicLong();
  /** The value of {@link #changes} the writer last read its source at, and what it read (writer thread only). */
  private long readAt = -1;
  private Map<ResourceKey, DesiredStatus> latest = Map.of();
  private volatile boolean closed;
  private Thread thread;

  private StatusWriter(Builder b) {
    this.leadership = b.leadership;
    this.metrics = new StatusMetrics(b.registry);
    this.resyncNanos = b.resync.toNanos();
    this.requestTimeout = b.requestTimeout;
    this.ticker = b.ticker;
    this.calls = new FencedCalls(b.requestTimeout, () -> closed, answerWake::signal);
    this.reconciler = new StatusReconciler(b.api != null ? b.api : new Fabric8StatusApi(b.client), calls, b.cache,
        b.clock, new RateLimiter(b.callsPerSecond, ticker), b.backoff, metrics, b.controllerName);
  }

  /**
   * A wait of the writer thread: since when (by the ticker) it has waited with {@code ends} false, and whether
   * it waits for an API call's answer, which comes without the clock moving.
   */
  private record Waiting(long since, boolean forAnswer, BooleanSupplier ends) {
  }

  public static Builder builder(KubernetesClient client, Leadership leadership) {
    return new Builder(Objects.requireNonNull(client, "client"), leadership);
  }

  /** Builder on a given API, for tests of the writer's logic without HTTP. */
  static Builder builder(StatusApi api, Leadership leadership) {
    Builder b = new Builder(null, leadership);
    b.api = Objects.requireNonNull(api, "api");
    return b;
  }

  /** Starts the writer thread and listens to the election. */
  public synchronized StatusWriter start() {
    if (thread != null) {
      throw new IllegalStateException("status writer already started");
    }
    thread = new Thread(this::run, "holdfast-status-writer");
    thread.setDaemon(true);
    thread.start();
    leadership.addListener(new LeadershipListener() {
      @Override
      public void onElected(Term term) {
        signal(); // the pass will see the new term and reconcile everything
      }

      @Override
      public void onDemoted(Term term, String cause) {
        log.info("status: demoted term={} cause=\"{}\"; writing stops, queued work dropped", term, cause);
        signal(); // wakes a waiting pass, which then finds its fence invalid
      }
    });
    return this;
  }

  /**
   * Where the writer reads the desired status of every gateway resource: called on the writer thread, once per
   * {@link #changed} (and at start), never on the caller's. Resources missing from the map it returns are no
   * longer tracked; keys of kinds without a status this writer writes are ignored: kinds of neither Holdfast's
   * group nor the Gateway API's, a ReferenceGrant, and Gateway API objects without their
   * {@link DesiredStatus#full() full} status. It must be quick and must not throw.
   */
  public StatusWriter follow(Supplier<Map<ResourceKey, DesiredStatus>> desired) {
    this.source = Objects.requireNonNull(desired, "desired");
    changed();
    return this;
  }

  /** The source's statuses may have changed: wakes the writer, which reads them afresh. Returns at once. */
  public void changed() {
    changes.incrementAndGet();
    signal();
  }

  /** Follows a fixed map (tests that drive the writer from one thread). */
  void publish(Map<ResourceKey, DesiredStatus> desired) {
    Map<ResourceKey, DesiredStatus> fixed = Map.copyOf(new LinkedHashMap<>(desired));
    follow(() -> fixed);
  }

  /** The newest desired statuses, read from the source when it changed since the last read (writer thread). */
  private Map<ResourceKey, DesiredStatus> latest() {
    long now = changes.get();
    if (now != readAt) {
      readAt = now;
      latest = accepted(source.get());
    }
    return latest;
  }

  private static Map<ResourceKey, DesiredStatus> accepted(Map<ResourceKey, DesiredStatus> desired) {
    Map<ResourceKey, DesiredStatus> copy = new LinkedHashMap<>();
    desired.forEach((k, v) -> {
      if (HoldfastKinds.isHoldfast(k) || GlooStatusDocument.isGloo(k)
          || GatewayCrds.hasStatus(k) && v != null && v.full().isPresent()) {
        copy.put(k, Objects.requireNonNull(v, "desired status of " + k));
      } else {
        log.debug("status: ignoring resource={}: no status of its kind is written here", k);
      }
    });
    return Map.copyOf(copy);
  }

  /** Re-reads every object and repairs statuses that drifted (e.g. edited by hand), on the next pass. */
  public void resync() {
    resyncRequested.set(true);
    signal();
  }

  /** Statuses this replica, while leading, has not yet confirmed; 0 on a follower. */
  public int pending() {
    return metrics.pending();
  }

  /**
   * Stops leader-only work: no request starts from now on, and a request in flight is waited for until it is
   * answered or abandoned at its own bound ({@code min(requestTimeout, time left on the fence)}). Returns within
   * {@code requestTimeout} + {@link #CLOSE_MARGIN} (500 ms). Close the writer before the elector, so the lease is
   * released only after this replica's last status write has landed or been abandoned.
   */
  @Override
  public void close() {
    closed = true;
    signal();
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(requestTimeout.plus(CLOSE_MARGIN).toMillis());
        if (t.isAlive()) {
          log.warn("status: writer still busy {} ms after close, interrupting it",
              requestTimeout.plus(CLOSE_MARGIN).toMillis());
          t.interrupt();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    calls.close();
    metrics.close();
  }

  /** The ticker moved (a test's manual clock): every wait of the writer re-reads it. */
  void timeMoved() {
    signal();
    answerWake.signal();
  }

  /**
   * Whether the writer thread has, at ticker time {@code now} or later, found nothing to do but wait for the clock
   * or a wake-up, and still does: no wake-up unseen, no wait at its end, no API call waiting for its answer. With
   * a manual ticker: the writer has done all it will do until the clock moves or something wakes it. A closed
   * writer is idle once its thread has ended.
   */
  boolean idleAt(long now) {
    if (closed) {
      Thread t;
      synchronized (this) {
        t = thread;
      }
      return t == null || !t.isAlive(); // closed: idle for good once its thread has ended
    }
    Waiting w = waiting;
    return w != null && !w.forAnswer() && w.since() - now >= 0 && !w.ends().getAsBoolean();
  }

  /**
   * Whether the writer thread has, at ticker time {@code now} or later, still been waiting for an API call's
   * answer (neither answered nor abandoned at its bound), and still is.
   */
  boolean awaitingAnswerAt(long now) {
    Waiting w = waiting;
    return w != null && w.forAnswer() && w.since() - now >= 0 && !w.ends().getAsBoolean();
  }

  // ---- the writer thread ---------------------------------------------------------------------------------

  private void run() {
    long nextResync = resyncNanos > 0 ? ticker.getAsLong() + resyncNanos : Long.MAX_VALUE;
    while (!closed) {
      unseen.set(false); // wake-ups from here on are acted on by a later pass
      boolean failed = false;
      try {
        if (resyncNanos > 0 && ticker.getAsLong() - nextResync >= 0) {
          resyncRequested.set(true);
          nextResync = ticker.getAsLong() + resyncNanos;
        }
        cycle();
      } catch (Throwable e) {
        // Nothing may end this thread but close(): an Error here would otherwise stop status writing silently.
        log.error("status: unexpected failure in the writer, next pass in {} ms error=\"{}\"",
            AFTER_FAILURE_NANOS / 1_000_000, e.toString());
        // A fatal error (out of memory, ...) ends the process there, so the replica restarts sound.
        io.holdfast.common.WorkerFailures.caught(WORKER, e);
        failed = true;
      }
      long untilResync = nextResync == Long.MAX_VALUE ? Long.MAX_VALUE : nextResync - ticker.getAsLong();
      awaitSignal(failed ? Math.min(untilResync, AFTER_FAILURE_NANOS) : untilResync);
    }
    log.debug("status: writer stopped");
  }

  private void cycle() {
    if (!leadership.isLeader()) {
      standDown();
      return;
    }
    boolean ran = leadership.runIfLeader(fence -> {
      if (resyncRequested.getAndSet(false)) {
        reconciler.forget();
        log.info("status: resync; re-reading all {} resources", latest().size());
      }
      reconciler.drain(fence, this::latest, pacer);
    });
    if (!ran && !closed) {
      standDown();
    }
  }

  /** Not leading (any more): drop retries and everything confirmed, so a later term starts from fresh reads. */
  private void standDown() {
    reconciler.demoted();
    metrics.pending(0);
  }

  /** The writer thread's waits within a pass, on its ticker. */
  private final StatusReconciler.Pacer pacer = new StatusReconciler.Pacer() {
    @Override
    public void pause(Fence fence, long nanos) {
      StatusWriter.this.pause(fence, nanos);
    }

    @Override
    public void awaitAnswer(BooleanSupplier answered, long nanos) throws InterruptedException {
      long deadline = ticker.getAsLong() + nanos;
      BooleanSupplier ends = () -> answered.getAsBoolean() || ticker.getAsLong() - deadline >= 0;
      try {
        while (!ends.getAsBoolean()) {
          waiting = new Waiting(ticker.getAsLong(), true, ends);
          answerWake.awaitChange(deadline - ticker.getAsLong(), ends); // the answer wakes it (FencedCalls)
        }
      } finally {
        waiting = null;
      }
    }
  };

  /** Waits {@code nanos} on the writer thread; returns early once the fence fails; throws once closing. */
  private void pause(Fence fence, long nanos) {
    long deadline = ticker.getAsLong() + nanos;
    BooleanSupplier ends = () -> closed || !fence.isValid() || ticker.getAsLong() - deadline >= 0;
    try {
      while (!ends.getAsBoolean()) {
        waiting = new Waiting(ticker.getAsLong(), false, ends);
        wake.awaitChange(Math.min(deadline - ticker.getAsLong(), FENCE_POLL_NANOS), ends);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    } finally {
      waiting = null;
    }
    if (closed) {
      throw new StatusReconciler.Stopped();
    }
  }

  private void awaitSignal(long nanos) {
    try {
      waiting = new Waiting(ticker.getAsLong(), false, () -> closed || unseen.get());
      wake.await(nanos, () -> closed); // Long.MAX_VALUE is Wake.FOREVER
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    } finally {
      waiting = null;
    }
  }

  private void signal() {
    unseen.set(true);
    wake.signal();
  }

  /** Builds a writer; only the client and the leadership are required. */
  public static final class Builder {
    private final KubernetesClient client;
    private final Leadership leadership;
    private StatusApi api;
    private MeterRegistry registry = new SimpleMeterRegistry();
    private int callsPerSecond = 20;
    private Backoff backoff = Backoff.DEFAULT;
    private Clock clock = Clock.systemUTC();
    private LongSupplier ticker = System::nanoTime;
    private Function<ResourceKey, Optional<GenericKubernetesResource>> cache = k -> Optional.empty();
    private Duration resync = Duration.ofMinutes(10);
    private Duration requestTimeout = Duration.ofSeconds(2);
    private String controllerName = DEFAULT_CONTROLLER_NAME;

    private Builder(KubernetesClient client, Leadership leadership) {
      this.client = client;
      this.leadership = Objects.requireNonNull(leadership, "leadership");
    }

    public Builder meterRegistry(MeterRegistry v) {
      registry = Objects.requireNonNull(v);
      return this;
    }

    /** API calls (reads and writes together) per second, bursts of as many; default 20. */
    public Builder callsPerSecond(int v) {
      if (v < 1) {
        throw new IllegalArgumentException("callsPerSecond must be >= 1, was " + v);
      }
      callsPerSecond = v;
      return this;
    }

    /** Waits between retries of failed calls; default {@link Backoff#DEFAULT}. */
    public Builder backoff(Backoff v) {
      backoff = Objects.requireNonNull(v);
      return this;
    }

    /** Wall clock for {@code lastTransitionTime}; default UTC system clock. */
    public Builder clock(Clock v) {
      clock = Objects.requireNonNull(v);
      return this;
    }

    /**
     * Monotonic nanoseconds for every wait of the writer: between passes, backoff, rate limit, each request's
     * bound; default {@link System#nanoTime()}. A test's manual clock, moved with {@link StatusWriter#timeMoved()}.
     */
    Builder ticker(LongSupplier v) {
      ticker = Objects.requireNonNull(v);
      return this;
    }

    /**
     * Where to find an object before falling back to a GET, e.g. an informer's store; may lag (a stale
     * resourceVersion only costs a 409 and a re-read). Default: none, always GET.
     */
    public Builder objectCache(Function<ResourceKey, Optional<GenericKubernetesResource>> v) {
      cache = Objects.requireNonNull(v);
      return this;
    }

    /** How often the leader re-reads every object to repair drift; {@link Duration#ZERO} for never. Default 10 min. */
    public Builder resyncInterval(Duration v) {
      if (v.isNegative()) {
        throw new IllegalArgumentException("resync interval must not be negative, was " + v);
      }
      resync = v;
      return this;
    }

    /**
     * Bound on each request, further capped at the time left on the fence; default 2 s. Use the election's
     * {@code leaderRequestTimeout}, and give the client the same request timeout.
     */
    public Builder requestTimeout(Duration v) {
      if (v == null || v.isNegative() || v.isZero()) {
        throw new IllegalArgumentException("requestTimeout must be greater than 0, was " + v);
      }
      requestTimeout = v;
      return this;
    }

    /**
     * The Gateway API controller name: route {@code status.parents[]} entries are written under it (others' are
     * kept), and only GatewayClasses naming it get a status. Default {@value #DEFAULT_CONTROLLER_NAME}.
     */
    public Builder gatewayControllerName(String v) {
      controllerName = Objects.requireNonNull(v, "controllerName");
      return this;
    }

    public StatusWriter build() {
      return new StatusWriter(this);
    }
  }
}
