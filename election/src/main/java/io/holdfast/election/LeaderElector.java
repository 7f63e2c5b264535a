package io.holdfast.election;

import io.holdfast.common.Durations;
import io.holdfast.common.Wake;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lease elector that demotes instead of exiting.
 *
 * <p>Why it exists: client-go, fabric8 and Java Operator SDK electors stop (or exit the process) after
 * losing the lease, and Gloo's recovery mode leaves the old leader believing it leads. Here losing the lease
 * demotes the replica to {@link ElectorState#FOLLOWER} at once and it campaigns again, for as long as the
 * process runs; only the {@link RecoveryPolicy} can end the process.
 *
 * <p>Rules, as in client-go: a candidate takes the lease only when the record has stayed unchanged for its
 * lease duration as observed on the candidate's own monotonic clock (remote timestamps are never compared),
 * or at once when it saw the holder release it (a hand-over; a release or deletion it cannot attribute to
 * the holder it saw waits a full lease: see {@link LeaseView}); every write carries the resource version it
 * read. A leader renews every retry period and acts only while its last successful renewal was
 * <em>sent</em> less than the renew deadline ago. Any other candidate must see that renewal and wait a full
 * lease duration after it, so the gap (lease duration - renew deadline) separates two leaders' terms even
 * when the old one is paused; the settings require that gap to exceed leaderRequestTimeout + fenceSlack, so
 * a leader-only request let through just before the fence closed lands before a successor starts.
 *
 * <p>Closing stops leader-only work before the lease goes: no new fenced action starts, running fences
 * fail their next check, and the release waits (bounded) for running actions to end plus the fence slack;
 * see {@link #close()}.
 *
 * <p>Threads: one elector thread owns all mutable state and makes every lock call (each bounded by the lock
 * timeout, on a helper thread it abandons on time-out). Other threads read one immutable {@link Tenure}
 * through a volatile field, and the lock's watch only enqueues what it saw. Listeners run on their own
 * thread, in order.
 */
public final class LeaderElector implements Leadership, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);
  private static final int RELEASED_LEASE_SECONDS = 1;
  private static final int MAX_BACKOFF_RETRY_PERIODS = 4;

  private final ElectionSettings settings;
  private final LeaseLock lock;
  private final ElectionClock clock;
  private final DoubleSupplier random;
  private final ExitHandler exitHandler;
  private final Executor listenerExecutor;
  private final ExecutorService ownedListenerExecutor;
  private final BoundedLockCalls lockCalls;
  private final ElectionMetrics metrics;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private final long leaseNanos;
  private final long renewDeadlineNanos;
  private final long retryNanos;
  private final long fenceSlackNanos;
  private final InFlightActions inFlight;

  /** Everything other threads may read, replaced whole on every change. */
  private record Tenure(ElectorState state, Term term, long termSeq, long fenceDeadline) {
    static final Tenure FOLLOWER = new Tenure(ElectorState.FOLLOWER, null, -1, 0);
    static final Tenure STOPPED = new Tenure(ElectorState.STOPPED, null, -1, 0);
  }

  private volatile Tenure tenure = Tenure.FOLLOWER;
  private volatile String observedHolder = "";
  /** When the lease was last read (or written) by this replica, on the monotonic clock; valid once observed. */
  private volatile long observedAt;
  private volatile boolean everObserved;
  private volatile long lastRenewSentAt;
  private volatile boolean everRenewed;
  private volatile boolean stopRequested;
  /** The fence's end when close() was called (or the call's time if not leading): bounds the final drain. */
  private volatile long fenceDeadlineAtClose;
  /** The current streak's failure, for operators; null while the lock answers. */
  private volatile String lastError;

  // Owned by the elector thread.
  private final LeaseView view;
  private long termSeq;
  private long nextAttemptAt;
  private int consecutiveFailures;
  private LockException.Cause lastFailureCause;
  private Long recoveryDeadline;
  private int localTransitions;
  /** Set during an attempt when the outcome calls for another attempt at once (lost lease, lost race). */
  private boolean retryNow;
  private volatile LeaseLock.LockWatch watch = LeaseLock.LockWatch.NONE;

  private final Queue<Optional<VersionedRecord>> watchEvents = new ConcurrentLinkedQueue<>();
  private final Wake wake = new Wake();
  private Thread thread;

  private LeaderElector(Builder b) {
    this.settings = b.settings;
    this.lock = b.lock;
    this.clock = b.clock;
    this.random = b.random;
    this.exitHandler = b.exitHandler;
    this.ownedListenerExecutor = b.listenerExecutor == null
        ? Executors.newSingleThreadExecutor(daemon("holdfast-election-listeners")) : null;
    this.listenerExecutor = b.listenerExecutor == null ? ownedListenerExecutor : b.listenerExecutor;
    this.lockCalls = new BoundedLockCalls(b.lock.describe());
    this.leaseNanos = settings.leaseDuration().toNanos();
    this.renewDeadlineNanos = settings.renewDeadline().toNanos();
    this.retryNanos = settings.retryPeriod().toNanos();
    this.fenceSlackNanos = settings.fenceSlack().toNanos();
    this.inFlight = new InFlightActions(clock);
    this.view = new LeaseView(settings.identity(), leaseNanos);
    this.nextAttemptAt = clock.nanoTime();
    this.metrics = new ElectionMetrics(b.registry, this, this::lastRenewAgeSeconds);
  }

  public static Builder builder(ElectionSettings settings, LeaseLock lock) {
    return new Builder(settings, lock);
  }

  // ---- public API ----------------------------------------------------------------------------------

  /** Starts the elector thread. The elector then runs until {@link #close()} or the recovery policy exits. */
  public synchronized LeaderElector start() {
    if (thread != null) {
      throw new IllegalStateException("elector already started");
    }
    thread = new Thread(this::run, "holdfast-elector-" + settings.identity());
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  @Override
  public boolean isLeader() {
    return leads(tenure);
  }

  /** Leading in {@code t}, by the clock, and not closing: the one test every fence and gate applies. */
  private boolean leads(Tenure t) {
    return t.state == ElectorState.LEADER && !inFlight.isClosed() && clock.nanoTime() - t.fenceDeadline < 0;
  }

  @Override
  public ElectorState state() {
    return tenure.state;
  }

  @Override
  public Optional<Term> currentTerm() {
    Tenure t = tenure;
    return isLeader() ? Optional.of(t.term) : Optional.empty();
  }

  @Override
  public Optional<String> observedLeader() {
    String h = observedHolder;
    return h.isEmpty() ? Optional.empty() : Optional.of(h);
  }

  @Override
  public String identity() {
    return settings.identity();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The action is tracked while it runs, so that {@link #close()} releases the lease only after it ended
   * (registered before leadership is checked, so a close cannot slip between the check and the tracking).
   */
  @Override
  public boolean runIfLeader(Fence.FencedAction action) {
    if (!inFlight.enter()) {
      return false;
    }
    boolean ran = false;
    try {
      Tenure t = tenure;
      if (!leads(t)) {
        return false;
      }
      ran = true;
      action.run(new TermFence(t.term, t.termSeq));
      return true;
    } catch (Fence.LeadershipLostException e) {
      return false;
    } finally {
      inFlight.exit(ran);
    }
  }

  @Override
  public void addListener(LeadershipListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /**
   * Seconds since this replica last read or wrote the lease, so {@link #observedLeader()} can be shown as "last
   * seen" with its age (a follower cut off from the API holds a record that may be long out of date); NaN if it
   * never has.
   */
  public double observedLeaderAgeSeconds() {
    return everObserved ? (clock.nanoTime() - observedAt) / 1e9 : Double.NaN;
  }

  /** Seconds since the last successful renewal was sent; NaN if this replica never led. */
  public double lastRenewAgeSeconds() {
    return everRenewed ? (clock.nanoTime() - lastRenewSentAt) / 1e9 : Double.NaN;
  }

  /**
   * What the lease API answered wrong in the current streak of failed attempts, for operators (the admin
   * {@code /state}), e.g. {@code lease namespace 'x' not found (HTTP 404 on create of Lease x/holdfast)};
   * empty while the API answers. Lost write races are normal and never reported here.
   */
  public Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  /** Whether the lock's watch is live, so followers react to changes at once instead of at their next poll. */
  public boolean watchHealthy() {
    return watch.isHealthy();
  }

  /** The settings this elector runs with. */
  public ElectionSettings settings() {
    return settings;
  }

  /**
   * Stops campaigning. A leader stops acting first, then releases the lease (empty holder, 1 s duration)
   * so a follower it saw can take over at once:
   * <ol>
   *   <li>at once, on the calling thread: no new fenced action starts, and every running action's fence
   *       fails its next check, so it writes nothing more;
   *   <li>the elector thread finishes the lock call in progress (at most lockTimeout) and makes no other;
   *   <li>it waits for running actions to end, at most until the fence's end plus fenceSlack, and then
   *       fenceSlack after the last one ended (its last request may have been abandoned at its timeout with
   *       bytes still on the wire), never past the fence's end plus fenceSlack; an action still running then
   *       is logged and abandoned (its requests were capped at the fence, so none can land later);
   *   <li>it releases the lease: one write, preceded by a read when the renewal in progress was cut short
   *       (at most 2 x lockTimeout).
   * </ol>
   * Returns within {@link ElectionSettings#maxCloseTime()}: renewDeadline + fenceSlack + 2 x lockTimeout + 2 s.
   * A fenced action that itself calls close() makes close() wait for the action it is part of until that bound.
   */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      t = thread;
      requestStop();
    }
    wake();
    if (t != null && t != Thread.currentThread()) {
      try {
        // The elector thread's worst case is steps 2-4 above; the margin covers scheduling.
        t.join(settings.maxCloseTime().minusSeconds(1).toMillis());
        if (t.isAlive()) {
          log.error("election: elector thread did not stop within {} identity={}",
              Durations.format(settings.maxCloseTime().minusSeconds(1)), settings.identity());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else if (t == null) {
      shutdown(); // never started: no thread owns the state, so this one may release what it holds
    }
    lockCalls.shutdownNow();
    if (ownedListenerExecutor != null) {
      ownedListenerExecutor.shutdown();
      try {
        ownedListenerExecutor.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Ends leader-only work at once (step 1 of {@link #close()}) and asks the loop to stop. Called by close(),
   * by the recovery policy's exit, and when the elector thread is interrupted. Idempotent.
   */
  private synchronized void requestStop() {
    if (!stopRequested) {
      Tenure now = tenure;
      fenceDeadlineAtClose = now.state == ElectorState.LEADER ? now.fenceDeadline : clock.nanoTime();
      inFlight.close();
      stopRequested = true;
    }
  }

  // ---- the loop ------------------------------------------------------------------------------------

  private void run() {
    log.info("election: starting identity={} lock=\"{}\" lease={} renewDeadline={} retry={} lockTimeout={} "
            + "leaderRequestTimeout={} fenceSlack={} onLoss={}{}",
        settings.identity(), lock.describe(), Durations.format(settings.leaseDuration()),
        Durations.format(settings.renewDeadline()), Durations.format(settings.retryPeriod()),
        Durations.format(settings.lockTimeout()), Durations.format(settings.leaderRequestTimeout()),
        Durations.format(settings.fenceSlack()), settings.recovery().onLoss(),
        settings.recovery().maxRecovery().map(d -> " maxRecovery=" + Durations.format(d)).orElse(""));
    try {
      watch = lock.watch(this::onWatchEvent);
    } catch (Throwable e) {
      // Throwable, not RuntimeException: an Error here (a missing class, say) used to end this thread
      // silently, leaving a replica that never campaigns. Polling works without the watch.
      log.error("election: could not start watching {}, polling instead identity={}", lock.describe(),
          settings.identity(), e);
    }
    while (!stopRequested && tenure.state != ElectorState.STOPPED) {
      long delay;
      try {
        delay = step();
      } catch (Throwable t) {
        // No failure ends the loop: log it, back off, try again.
        log.error("election: unexpected error, will retry", t);
        nextAttemptAt = clock.nanoTime() + retryNanos;
        delay = retryNanos;
      }
      awaitWake(delay);
    }
    try {
      shutdown();
    } catch (Throwable t) {
      log.error("election: shutdown failed identity={}", settings.identity(), t);
    }
  }

  /**
   * One pass: apply what the watch saw, enforce the renew deadline and the recovery deadline, make at most
   * one acquire or renew attempt when it is due. Returns nanoseconds until the next pass is needed.
   */
  long step() {
    long now = clock.nanoTime();
    drainWatchEvents(now);
    Tenure t = tenure;
    if (t.state == ElectorState.LEADER && now - t.fenceDeadline >= 0) {
      demote("renew deadline passed: no successful renewal within " + Durations.format(settings.renewDeadline())
          + (lastFailureCause == null ? "" : " (last failure: " + lastFailureCause.tag() + ")"));
    }
    if (recoveryExpired(now) || tenure.state == ElectorState.STOPPED || stopRequested) {
      return 0;
    }
    if (now - nextAttemptAt >= 0) {
      attempt();
    }
    long next = nextAttemptAt;
    t = tenure;
    if (t.state == ElectorState.LEADER && t.fenceDeadline - next < 0) {
      next = t.fenceDeadline;
    }
    if (recoveryDeadline != null && recoveryDeadline - next < 0) {
      next = recoveryDeadline;
    }
    return Math.max(0, next - clock.nanoTime());
  }

  private void attempt() {
    boolean leading = tenure.state == ElectorState.LEADER;
    retryNow = false; // set below by an outcome of this attempt only, never left over from before it
    try {
      if (leading) {
        renew();
      } else {
        campaign();
      }
      if (consecutiveFailures > 0) {
        log.info("election: lease API answering again after {} failed attempts identity={}", consecutiveFailures,
            settings.identity());
      }
      consecutiveFailures = 0;
      lastFailureCause = null;
      lastError = null;
    } catch (LockException e) {
      if (stopRequested) {
        return; // refused because the elector is closing: not a failure of the API
      }
      onFailure(leading, e);
    }
    if (tenure.state != ElectorState.STOPPED) {
      nextAttemptAt = clock.nanoTime() + (retryNow ? 0 : nextDelay());
      if (recoveryDeadline != null && recoveryDeadline - nextAttemptAt < 0) {
        nextAttemptAt = recoveryDeadline; // try once more before the recovery policy may end the process
      }
    }
    retryNow = false;
  }

  private void onFailure(boolean leading, LockException e) {
    metrics.lockFailure(leading, e.cause());
    boolean lostRace = e.cause() == LockException.Cause.CONFLICT || e.cause() == LockException.Cause.ALREADY_EXISTS
        || e.cause() == LockException.Cause.NOT_FOUND;
    if (lostRace) {
      // Someone else wrote first; read afresh next time instead of trusting what we saw.
      lastError = null; // the API answered
      view.lostRace(clock.nanoTime());
      log.debug("election: lost a write race identity={} cause={}: {}", settings.identity(), e.cause().tag(), e.getMessage());
      return;
    }
    consecutiveFailures++;
    lastError = e.getMessage();
    // The API being away is expected: one line when a streak starts or changes cause, no stack trace.
    // A missing namespace is not: it is a configuration error that no retry fixes, so it is an error.
    if (e.cause() != lastFailureCause && e.cause() == LockException.Cause.NAMESPACE_NOT_FOUND) {
      log.error("election: {} failed identity={} role={} cause={} namespace={}: {}; no replica can lead until "
              + "the namespace exists", leading ? "renew" : "acquire", settings.identity(), tenure.state,
          e.cause().tag(), settings.leaseNamespace(), e.getMessage());
    } else if (e.cause() != lastFailureCause) {
      log.warn("election: {} failed identity={} role={} cause={}: {}", leading ? "renew" : "acquire",
          settings.identity(), tenure.state, e.cause().tag(), e.getMessage());
    } else {
      log.debug("election: attempt {} failed cause={}: {}", consecutiveFailures, e.cause().tag(), e.getMessage());
    }
    lastFailureCause = e.cause();
  }

  /** Leader: renew every retry period. Follower: jittered retry, backing off while the API fails. */
  private long nextDelay() {
    if (tenure.state == ElectorState.LEADER) {
      return retryNanos;
    }
    // Double the wait per failure up to the cap, counting in retry periods: shifting the nanoseconds
    // overflowed for retry periods above ~8.6 s after 31 failures, and the delay became 0 (a spin).
    long periods = consecutiveFailures == 0 ? 1
        : Math.min(1L << Math.min(consecutiveFailures - 1, 30), MAX_BACKOFF_RETRY_PERIODS);
    long base = retryNanos * periods; // at most 4 x 1 h in nanoseconds: far from overflow
    long delay = base + (long) (base * ElectionSettings.JITTER_FACTOR * random.getAsDouble());
    long chance = view.nextChanceAt();
    long untilChance = chance == LeaseView.NOW ? 0 : chance - clock.nanoTime();
    if (consecutiveFailures == 0 && untilChance > 0) {
      // Be there the moment the current lease expires rather than up to a retry period later.
      delay = Math.min(delay, untilChance);
    }
    return delay;
  }

  private void campaign() throws LockException {
    // A live watch has pushed every change since the last read, so what it showed is as good as a read.
    Optional<VersionedRecord> current = view.seenOnce() && watch.isHealthy()
        ? Optional.ofNullable(view.current()) : read();
    if (current.isEmpty()) {
      if (!LeaseView.reached(view.mayCreateAt(), clock.nanoTime())) {
        return;
      }
      long transitions = view.lastKnownTransitions() + 1;
      LeaseRecord fresh = newTermRecord(transitions);
      long sentAt = clock.nanoTime();
      becomeLeader(call(() -> lock.create(fresh)), sentAt, "created the lease");
      return;
    }
    VersionedRecord rec = current.get();
    if (!LeaseView.reached(view.mayTakeAt(rec.record()), clock.nanoTime())) {
      return;
    }
    String cause = rec.record().isReleased() && view.isHandOver() ? "lease was released by its holder"
        : rec.record().isReleased() ? "released lease unchanged for " + Durations.format(Duration.ofNanos(
            clock.nanoTime() - view.since())) + " (no hand-over seen: waited a full lease)"
        : rec.record().isHeldBy(settings.identity()) ? "re-took own lease from an earlier term"
        : "lease of " + rec.record().holderIdentity() + " expired (unchanged for "
            + rec.record().leaseDurationSeconds() + "s)";
    LeaseRecord next = newTermRecord(Math.max(rec.record().leaseTransitions(), view.lastKnownTransitions()) + 1);
    long sentAt = clock.nanoTime();
    becomeLeader(call(() -> lock.update(rec, next)), sentAt, cause);
  }

  private void renew() throws LockException {
    Term term = tenure.term;
    VersionedRecord base = view.current();
    if (base == null || !holdsTerm(base.record(), term)) {
      // The watch told us something changed: decide on a fresh read, never on the event alone.
      Optional<VersionedRecord> fresh = rereadOwnLease(term);
      if (fresh.isEmpty()) {
        return;
      }
      base = fresh.get();
    }
    LeaseRecord renewed = new LeaseRecord(settings.identity(), leaseSeconds(), base.record().acquireTime(),
        clock.wallTime(), base.record().leaseTransitions());
    long sentAt = clock.nanoTime();
    VersionedRecord written;
    try {
      VersionedRecord from = base;
      written = call(() -> lock.update(from, renewed));
    } catch (LockException e) {
      if (e.cause() == LockException.Cause.CONFLICT || e.cause() == LockException.Cause.NOT_FOUND) {
        view.forget();
        renewAfterConflict(term, renewed);
        return;
      }
      throw e;
    }
    onRenewed(written, sentAt);
  }

  /** A renewal met a changed or deleted record: read it and either renew on top of it or step down. */
  private void renewAfterConflict(Term term, LeaseRecord renewed) throws LockException {
    Optional<VersionedRecord> fresh = rereadOwnLease(term);
    if (fresh.isPresent()) {
      long sentAt = clock.nanoTime();
      onRenewed(call(() -> lock.update(fresh.get(), renewed)), sentAt);
    }
  }

  /**
   * Reads the lease afresh: the record if this replica still holds it in {@code term}; otherwise demotes
   * (deleted, or taken by someone else) and returns empty.
   */
  private Optional<VersionedRecord> rereadOwnLease(Term term) throws LockException {
    Optional<VersionedRecord> fresh = read();
    if (fresh.isEmpty()) {
      demote("lease was deleted");
    } else if (!holdsTerm(fresh.get().record(), term)) {
      demote("lease taken by " + describeHolder(fresh.get().record()));
      return Optional.empty();
    }
    return fresh;
  }

  private Optional<VersionedRecord> read() throws LockException {
    Optional<VersionedRecord> r = call(lock::get);
    noteContact();
    observe(r, clock.nanoTime());
    return r;
  }

  /** Records what we saw (see {@link LeaseView}) and tells listeners when the holder changed. */
  private void observe(Optional<VersionedRecord> r, long now) {
    view.observe(r, now);
    observedAt = now;
    everObserved = true;
    LeaseRecord seen = r.map(VersionedRecord::record).orElse(null);
    String holder = seen == null ? "" : seen.holderIdentity();
    if (!holder.equals(observedHolder)) {
      observedHolder = holder;
      if (!holder.equals(settings.identity())) {
        log.info("election: observed leader holder={} transitions={} identity={}",
            holder.isEmpty() ? "<none>" : holder, seen == null ? "-" : seen.leaseTransitions(), settings.identity());
      }
      notifyListeners(l -> l.onNewLeader(holder));
    }
  }

  private void drainWatchEvents(long now) {
    Optional<VersionedRecord> event;
    while ((event = watchEvents.poll()) != null) {
      noteContact();
      observe(event, now);
      LeaseRecord seen = event.map(VersionedRecord::record).orElse(null);
      Tenure t = tenure;
      boolean leading = t.state == ElectorState.LEADER;
      if (leading && (seen == null || !holdsTerm(seen, t.term))) {
        nextAttemptAt = now; // re-check with a fresh read at once
      } else if (!leading && (seen == null || seen.isReleased())) {
        nextAttemptAt = now; // released or deleted: take it now, not at the next poll
      }
    }
  }

  private void onWatchEvent(Optional<VersionedRecord> record) {
    watchEvents.add(record);
    wake();
  }

  // ---- transitions ---------------------------------------------------------------------------------

  private void becomeLeader(VersionedRecord written, long sentAt, String cause) {
    noteContact();
    observe(Optional.of(written), sentAt);
    Term term = new Term(written.record().leaseTransitions(), settings.identity());
    tenure = new Tenure(ElectorState.LEADER, term, ++termSeq, sentAt + renewDeadlineNanos);
    lastRenewSentAt = sentAt;
    everRenewed = true;
    recoveryDeadline = null;
    transitioned(ElectorState.FOLLOWER, ElectorState.LEADER, term, cause);
    notifyListeners(l -> l.onElected(term));
  }

  private void onRenewed(VersionedRecord written, long sentAt) {
    noteContact();
    observe(Optional.of(written), sentAt);
    Tenure t = tenure;
    if (t.state == ElectorState.LEADER) {
      tenure = new Tenure(ElectorState.LEADER, t.term, t.termSeq, sentAt + renewDeadlineNanos);
      lastRenewSentAt = sentAt;
    }
  }

  private void demote(String cause) {
    Tenure old = tenure;
    if (old.state != ElectorState.LEADER) {
      return;
    }
    tenure = Tenure.FOLLOWER; // first, so no leader-only work starts from here on
    transitioned(ElectorState.LEADER, ElectorState.FOLLOWER, old.term, cause);
    notifyListeners(l -> l.onDemoted(old.term, cause));
    nextAttemptAt = clock.nanoTime();
    retryNow = true;
    // A new role, a new streak: the renewal failures must not stretch the follower's first waits (they
    // pushed its next attempt past the recovery deadline, so it exited with the API already back).
    consecutiveFailures = 0;
    lastFailureCause = null;
    RecoveryPolicy policy = settings.recovery();
    if (policy.onLoss() == RecoveryPolicy.OnLoss.EXIT) {
      exit("lost leadership (" + cause + "), quitting: recovery policy is exit");
    } else if (policy.maxRecovery().isPresent()) {
      recoveryDeadline = clock.nanoTime() + policy.maxRecovery().get().toNanos();
      log.warn("election: lost leadership identity={}; will exit unless the lease API answers within {}",
          settings.identity(), Durations.format(policy.maxRecovery().get()));
    }
  }

  private void noteContact() {
    if (recoveryDeadline != null) {
      recoveryDeadline = null;
      log.info("election: recovered from lease renewal failure identity={}: the lease API answered", settings.identity());
    }
  }

  private boolean recoveryExpired(long now) {
    if (recoveryDeadline == null || now - recoveryDeadline < 0 || stopRequested) {
      return false;
    }
    // One last read before giving up: the API may have come back since the last failed attempt, and a
    // replica whose API answers has recovered, whatever its backoff had scheduled.
    try {
      read();
    } catch (LockException e) {
      log.debug("election: last read before the recovery deadline failed cause={}: {}", e.cause().tag(), e.getMessage());
    }
    if (recoveryDeadline == null) {
      return false;
    }
    Duration max = settings.recovery().maxRecovery().orElseThrow();
    exit("unable to recover from failed leader election within " + Durations.format(max) + ", quitting");
    return true;
  }

  private void exit(String reason) {
    log.error("election: {} identity={}", reason, settings.identity());
    Tenure old = tenure;
    tenure = Tenure.STOPPED;
    requestStop();
    transitioned(old.state, ElectorState.STOPPED, old.term, reason);
    exitHandler.exit(ExitHandler.EXIT_STATUS, reason);
  }

  private void shutdown() {
    requestStop(); // normally done already; when never started, close() comes straight here
    Tenure old = tenure;
    tenure = Tenure.STOPPED; // before releasing: nobody may act while another could already lead
    if (old.state == ElectorState.LEADER) {
      drainLeaderWork(old.term);
      release(old.term);
    }
    if (old.state != ElectorState.STOPPED) {
      transitioned(old.state, ElectorState.STOPPED, old.term, "shutdown");
      if (old.state == ElectorState.LEADER) {
        notifyListeners(l -> l.onDemoted(old.term, "shutdown"));
      }
    }
    watch.close();
  }

  /**
   * Empties the holder (1 s lease) so that a follower which saw this term can take over at once. Reads
   * first when this replica's view is stale (close() cut short a renewal that met a conflict): at most two
   * lock calls, each bounded by the lock timeout.
   */
  private void release(Term term) {
    long timeout = settings.lockTimeout().toNanos();
    try {
      VersionedRecord from = view.current();
      if (from == null || !holdsTerm(from.record(), term)) {
        Optional<VersionedRecord> fresh = lockCalls.run(lock::get, timeout);
        if (fresh.isEmpty() || !holdsTerm(fresh.get().record(), term)) {
          log.info("election: nothing to release identity={} term={}: the lease is no longer held in this term",
              settings.identity(), term);
          return;
        }
        from = fresh.get();
      }
      VersionedRecord base = from;
      LeaseRecord released = new LeaseRecord("", RELEASED_LEASE_SECONDS, clock.wallTime(), clock.wallTime(),
          base.record().leaseTransitions());
      lockCalls.run(() -> lock.update(base, released), timeout);
      log.info("election: released the lease identity={} term={}", settings.identity(), term);
    } catch (LockException e) {
      log.warn("election: could not release the lease identity={} term={} cause={}: {}", settings.identity(), term,
          e.cause().tag(), e.getMessage());
    }
  }

  /**
   * Before the release: wait for leader-only work to stop and its last request to land (see
   * {@link #close()}). Without this a status write that passed its fence check just before close() reached
   * the API after a successor had taken the released lease. Only a leader waits: a follower releases
   * nothing, so its close cannot let anyone start earlier.
   */
  private void drainLeaderWork(Term term) {
    long giveUpAt = fenceDeadlineAtClose + fenceSlackNanos;
    int running = inFlight.running();
    long start = clock.nanoTime();
    int abandoned = inFlight.awaitQuiet(giveUpAt, fenceSlackNanos);
    if (abandoned > 0) {
      log.warn("election: {} leader-only action(s) still running at the fence's end plus fenceSlack ({}); releasing "
              + "the lease anyway identity={} term={}", abandoned, Durations.format(settings.fenceSlack()),
          settings.identity(), term);
    } else if (running > 0) {
      log.info("election: leader-only work stopped before release identity={} term={} actions={} waitedMs={}",
          settings.identity(), term, running, (clock.nanoTime() - start) / 1_000_000);
    }
  }

  private void transitioned(ElectorState from, ElectorState to, Term term, String cause) {
    localTransitions++;
    metrics.transition(to);
    log.info("election: {} -> {} identity={} holder={} term={} leaseTransitions={} localTransitions={} cause=\"{}\"",
        from, to, settings.identity(), observedHolder.isEmpty() ? "<none>" : observedHolder,
        term == null ? "-" : term, term == null ? view.lastKnownTransitions() : term.transitions(), localTransitions, cause);
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private LeaseRecord newTermRecord(long transitions) {
    return new LeaseRecord(settings.identity(), leaseSeconds(), clock.wallTime(), clock.wallTime(), transitions);
  }

  private boolean holdsTerm(LeaseRecord r, Term term) {
    return term != null && r.isHeldBy(settings.identity()) && r.leaseTransitions() == term.transitions();
  }

  private int leaseSeconds() {
    return Math.toIntExact(settings.leaseDuration().toSeconds()); // at most 3600 (ElectionSettings.MAX_TIMING)
  }

  private static String describeHolder(LeaseRecord r) {
    return r.isReleased() ? "<none> (released)" : r.holderIdentity() + " (transitions " + r.leaseTransitions() + ")";
  }

  private void notifyListeners(java.util.function.Consumer<LeadershipListener> event) {
    if (listeners.isEmpty()) {
      return;
    }
    try {
      listenerExecutor.execute(() -> {
        for (LeadershipListener l : listeners) {
          try {
            event.accept(l);
          } catch (Throwable e) {
            // Throwable: the other listeners must still hear of the change, and the thread must live on.
            log.error("election: listener {} failed", l, e);
          }
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      log.debug("election: listener executor closed, event dropped");
    }
  }

  /**
   * Runs a lock call with a hard bound: the lock timeout, and while leading never past the fence, so a
   * hung API cannot hold the elector thread beyond the renew deadline. A call that times out is abandoned.
   */
  private <T> T call(BoundedLockCalls.LockCall<T> op) throws LockException {
    if (stopRequested) {
      // Closing: finish the call in progress, start no other, so close() stays bounded (the release goes
      // through lockCalls directly).
      throw new LockException(LockException.Cause.OTHER, "elector is closing");
    }
    long timeout = settings.lockTimeout().toNanos();
    Tenure t = tenure;
    if (t.state == ElectorState.LEADER) {
      timeout = Math.min(timeout, t.fenceDeadline - clock.nanoTime());
      if (timeout <= 0) {
        throw new LockException(LockException.Cause.TIMEOUT, "renew deadline reached before the call was sent");
      }
    }
    return lockCalls.run(op, timeout);
  }

  private void wake() {
    wake.signal();
  }

  private void awaitWake(long nanos) {
    try {
      wake.await(nanos, () -> stopRequested);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      requestStop();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** A fence for one term: valid while the same term is current and the renew deadline is ahead. */
  private final class TermFence implements Fence {
    private final Term term;
    private final long seq;

    TermFence(Term term, long seq) {
      this.term = term;
      this.seq = seq;
    }

    @Override
    public Term term() {
      return term;
    }

    @Override
    public boolean isValid() {
      Tenure t = tenure;
      return t.termSeq == seq && leads(t);
    }

    @Override
    public Duration timeLeft() {
      Tenure t = tenure;
      long left = t.fenceDeadline - clock.nanoTime();
      return t.termSeq == seq && leads(t) && left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }
  }

  /** Builds an elector; only settings and lock are required. */
  public static final class Builder {
    private final ElectionSettings settings;
    private final LeaseLock lock;
    private ElectionClock clock = ElectionClock.system();
    private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();
    private ExitHandler exitHandler = ExitHandler.system();
    private Executor listenerExecutor;
    private MeterRegistry registry = new SimpleMeterRegistry();

    private Builder(ElectionSettings settings, LeaseLock lock) {
      this.settings = Objects.requireNonNull(settings, "settings");
      this.lock = Objects.requireNonNull(lock, "lock");
      if (!settings.enabled()) {
        throw new IllegalArgumentException("election is disabled in these settings; use Leadership.alwaysLeader");
      }
    }

    public Builder clock(ElectionClock v) { clock = Objects.requireNonNull(v); return this; }
    /** Source of jitter in [0, 1). */
    public Builder random(DoubleSupplier v) { random = Objects.requireNonNull(v); return this; }
    public Builder exitHandler(ExitHandler v) { exitHandler = Objects.requireNonNull(v); return this; }
    /** Where listener callbacks run; default a dedicated single thread. */
    public Builder listenerExecutor(Executor v) { listenerExecutor = Objects.requireNonNull(v); return this; }
    public Builder meterRegistry(MeterRegistry v) { registry = Objects.requireNonNull(v); return this; }

    public LeaderElector build() {
      return new LeaderElector(this);
    }
  }
}
