package io.holdfast.election;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
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
 * <p>Rules, as in client-go: a candidate takes the lease only when the record is released, or has stayed
 * unchanged for its lease duration as observed on the candidate's own monotonic clock (remote timestamps
 * are never compared); every write carries the resource version it read. A leader renews every retry
 * period and acts only while its last successful renewal was <em>sent</em> less than the renew deadline
 * ago. Any other candidate must see that renewal and wait a full lease duration after it, so the gap
 * (lease duration - renew deadline) separates two leaders' terms even when the old one is paused.
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
  private final ExecutorService lockCalls;
  private final ElectionMetrics metrics;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private final long leaseNanos;
  private final long renewDeadlineNanos;
  private final long retryNanos;

  /** Everything other threads may read, replaced whole on every change. */
  private record Tenure(ElectorState state, Term term, long termSeq, long fenceDeadline) {
    static final Tenure FOLLOWER = new Tenure(ElectorState.FOLLOWER, null, -1, 0);
    static final Tenure STOPPED = new Tenure(ElectorState.STOPPED, null, -1, 0);
  }

  private volatile Tenure tenure = Tenure.FOLLOWER;
  private volatile String observedHolder = "";
  private volatile long lastRenewSentAt;
  private volatile boolean everRenewed;
  private volatile boolean stopRequested;

  // Owned by the elector thread.
  private VersionedRecord observed;
  /** The held record last seen before the lease was deleted; null unless the lease is currently absent. */
  private LeaseRecord recordBeforeDeletion;
  /** When a write race was lost to a record not yet seen (null otherwise): someone holds a lease we cannot see. */
  private Long unseenHolderSince;
  private long observedAt;
  private boolean observedOnce;
  private long termSeq;
  private long lastKnownTransitions = -1;
  private long nextAttemptAt;
  private int consecutiveFailures;
  private LockException.Cause lastFailureCause;
  private Long recoveryDeadline;
  private int localTransitions;
  /** Set during an attempt when the outcome calls for another attempt at once (lost lease, lost race). */
  private boolean retryNow;
  private volatile LeaseLock.LockWatch watch = LeaseLock.LockWatch.NONE;

  private final Queue<Optional<VersionedRecord>> watchEvents = new ConcurrentLinkedQueue<>();
  private final ReentrantLock wakeLock = new ReentrantLock();
  private final Condition wakeCondition = wakeLock.newCondition();
  private boolean wakeRequested;
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
    this.lockCalls = Executors.newCachedThreadPool(daemon("holdfast-election-lock"));
    this.leaseNanos = settings.leaseDuration().toNanos();
    this.renewDeadlineNanos = settings.renewDeadline().toNanos();
    this.retryNanos = settings.retryPeriod().toNanos();
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
    Tenure t = tenure;
    return t.state == ElectorState.LEADER && clock.nanoTime() - t.fenceDeadline < 0;
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

  @Override
  public boolean runIfLeader(Fence.FencedAction action) {
    Tenure t = tenure;
    if (t.state != ElectorState.LEADER || clock.nanoTime() - t.fenceDeadline >= 0) {
      return false;
    }
    Fence fence = new TermFence(t.term, t.termSeq);
    try {
      action.run(fence);
      return true;
    } catch (Fence.LeadershipLostException e) {
      return false;
    }
  }

  @Override
  public void addListener(LeadershipListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Seconds since the last successful renewal was sent; NaN if this replica never led. */
  public double lastRenewAgeSeconds() {
    return everRenewed ? (clock.nanoTime() - lastRenewSentAt) / 1e9 : Double.NaN;
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
   * Stops campaigning; a leader stops acting first, then releases the lease (empty holder, 1 s duration)
   * so a follower can take over at once. Returns within about one lock timeout.
   */
  @Override
  public void close() {
    Thread t;
    synchronized (this) {
      t = thread;
      stopRequested = true;
    }
    wake();
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(settings.lockTimeout().toMillis() * 2 + 1_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else if (t == null) {
      tenure = Tenure.STOPPED;
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

  // ---- the loop ------------------------------------------------------------------------------------

  private void run() {
    log.info("election: starting identity={} lock=\"{}\" lease={} renewDeadline={} retry={} lockTimeout={} onLoss={}{}",
        settings.identity(), lock.describe(), Durations.format(settings.leaseDuration()),
        Durations.format(settings.renewDeadline()), Durations.format(settings.retryPeriod()),
        Durations.format(settings.lockTimeout()), settings.recovery().onLoss(),
        settings.recovery().maxRecovery().map(d -> " maxRecovery=" + Durations.format(d)).orElse(""));
    try {
      watch = lock.watch(this::onWatchEvent);
    } catch (RuntimeException e) {
      log.warn("election: could not start watching {}, polling instead: {}", lock.describe(), e.toString());
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
    shutdown();
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
    if (recoveryExpired(now) || tenure.state == ElectorState.STOPPED) {
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
    } catch (LockException e) {
      onFailure(leading, e);
    }
    if (tenure.state != ElectorState.STOPPED) {
      nextAttemptAt = clock.nanoTime() + (retryNow ? 0 : nextDelay());
    }
    retryNow = false;
  }

  private void onFailure(boolean leading, LockException e) {
    metrics.lockFailure(leading, e.cause());
    boolean lostRace = e.cause() == LockException.Cause.CONFLICT || e.cause() == LockException.Cause.ALREADY_EXISTS
        || e.cause() == LockException.Cause.NOT_FOUND;
    if (lostRace) {
      // Someone else wrote first; read afresh next time instead of trusting what we saw.
      observedOnce = false;
      if (observed == null && unseenHolderSince == null) {
        unseenHolderSince = clock.nanoTime();
      }
      log.debug("election: lost a write race identity={} cause={}: {}", settings.identity(), e.cause().tag(), e.getMessage());
      return;
    }
    consecutiveFailures++;
    // The API being away is expected: one line when a streak starts or changes cause, no stack trace.
    if (e.cause() != lastFailureCause) {
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
    long base = retryNanos;
    if (consecutiveFailures > 0) {
      base = retryNanos << Math.min(consecutiveFailures - 1, 30);
      base = Math.min(base, retryNanos * MAX_BACKOFF_RETRY_PERIODS);
    }
    long delay = base + (long) (base * ElectionSettings.JITTER_FACTOR * random.getAsDouble());
    if (consecutiveFailures == 0 && observed != null && !canAcquire(observed.record(), clock.nanoTime())) {
      // Be there the moment the current lease expires rather than up to a retry period later.
      long untilExpiry = observedAt + observed.record().leaseDurationSeconds() * 1_000_000_000L - clock.nanoTime();
      delay = Math.min(delay, Math.max(0, untilExpiry));
    } else if (consecutiveFailures == 0 && observed == null && !canCreate(clock.nanoTime())) {
      delay = Math.min(delay, Math.max(0, createAllowedAt() - clock.nanoTime()));
    }
    return delay;
  }

  private void campaign() throws LockException {
    Optional<VersionedRecord> current = trustWatch() ? Optional.ofNullable(observed) : read();
    if (current.isEmpty()) {
      if (!canCreate(clock.nanoTime())) {
        return;
      }
      long transitions = lastKnownTransitions + 1;
      LeaseRecord fresh = newTermRecord(transitions);
      long sentAt = clock.nanoTime();
      becomeLeader(call(() -> lock.create(fresh)), sentAt, "created the lease");
      return;
    }
    VersionedRecord rec = current.get();
    if (!canAcquire(rec.record(), clock.nanoTime())) {
      return;
    }
    String cause = rec.record().isReleased() ? "lease was released"
        : rec.record().isHeldBy(settings.identity()) ? "re-took own lease from an earlier term"
        : "lease of " + rec.record().holderIdentity() + " expired (unchanged for "
            + rec.record().leaseDurationSeconds() + "s)";
    LeaseRecord next = newTermRecord(Math.max(rec.record().leaseTransitions(), lastKnownTransitions) + 1);
    long sentAt = clock.nanoTime();
    becomeLeader(call(() -> lock.update(rec, next)), sentAt, cause);
  }

  private void renew() throws LockException {
    Term term = tenure.term;
    VersionedRecord base = observed;
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
        observed = null;
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

  /** Records what we saw; the observation clock restarts only when the record's content changes. */
  private void observe(Optional<VersionedRecord> r, long now) {
    LeaseRecord seen = r.map(VersionedRecord::record).orElse(null);
    LeaseRecord before = observed == null ? null : observed.record();
    if (!observedOnce || !Objects.equals(before, seen)) {
      observedAt = now;
    }
    if (seen == null && observed != null && !observed.record().isReleased()) {
      recordBeforeDeletion = observed.record();
    } else if (seen != null) {
      recordBeforeDeletion = null;
      unseenHolderSince = null;
    }
    observed = r.orElse(null);
    observedOnce = true;
    if (seen != null) {
      lastKnownTransitions = Math.max(lastKnownTransitions, seen.leaseTransitions());
    }
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

  /**
   * A deleted lease is not a released one: its holder may not know and may still act until its renew
   * deadline. Wait a full lease after seeing the deletion, unless the holder was this replica. Likewise after
   * losing a create race to a holder never seen: it exists, so its lease must run out before we create one.
   */
  private boolean canCreate(long now) {
    long at = createAllowedAt();
    return at == Long.MIN_VALUE || now - at >= 0;
  }

  private long createAllowedAt() {
    long at = Long.MIN_VALUE;
    LeaseRecord before = recordBeforeDeletion;
    if (before != null && !before.isHeldBy(settings.identity())) {
      at = observedAt + before.leaseDurationSeconds() * 1_000_000_000L;
    }
    if (unseenHolderSince != null) {
      at = Math.max(at, unseenHolderSince + leaseNanos);
    }
    return at;
  }

  private boolean canAcquire(LeaseRecord r, long now) {
    if (r.isReleased() || r.isHeldBy(settings.identity())) {
      return true;
    }
    return now - observedAt >= r.leaseDurationSeconds() * 1_000_000_000L;
  }

  private boolean trustWatch() {
    return observedOnce && watch.isHealthy();
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
    if (recoveryDeadline == null || now - recoveryDeadline < 0) {
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
    stopRequested = true;
    transitioned(old.state, ElectorState.STOPPED, old.term, reason);
    exitHandler.exit(ExitHandler.EXIT_STATUS, reason);
  }

  private void shutdown() {
    Tenure old = tenure;
    tenure = Tenure.STOPPED; // before releasing: nobody may act while another could already lead
    if (old.state == ElectorState.LEADER && observed != null && holdsTerm(observed.record(), old.term)) {
      LeaseRecord released = new LeaseRecord("", RELEASED_LEASE_SECONDS, clock.wallTime(), clock.wallTime(),
          observed.record().leaseTransitions());
      VersionedRecord from = observed;
      try {
        call(() -> lock.update(from, released));
        log.info("election: released the lease identity={} term={}", settings.identity(), old.term);
      } catch (LockException e) {
        log.warn("election: could not release the lease identity={} cause={}: {}", settings.identity(),
            e.cause().tag(), e.getMessage());
      }
    }
    if (old.state != ElectorState.STOPPED) {
      transitioned(old.state, ElectorState.STOPPED, old.term, "shutdown");
      if (old.state == ElectorState.LEADER) {
        notifyListeners(l -> l.onDemoted(old.term, "shutdown"));
      }
    }
    watch.close();
  }

  private void transitioned(ElectorState from, ElectorState to, Term term, String cause) {
    localTransitions++;
    metrics.transition(to);
    log.info("election: {} -> {} identity={} holder={} term={} leaseTransitions={} localTransitions={} cause=\"{}\"",
        from, to, settings.identity(), observedHolder.isEmpty() ? "<none>" : observedHolder,
        term == null ? "-" : term, term == null ? lastKnownTransitions : term.transitions(), localTransitions, cause);
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private LeaseRecord newTermRecord(long transitions) {
    return new LeaseRecord(settings.identity(), leaseSeconds(), clock.wallTime(), clock.wallTime(), transitions);
  }

  private boolean holdsTerm(LeaseRecord r, Term term) {
    return term != null && r.isHeldBy(settings.identity()) && r.leaseTransitions() == term.transitions();
  }

  private int leaseSeconds() {
    return (int) settings.leaseDuration().toSeconds();
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
          } catch (RuntimeException e) {
            log.warn("election: listener {} failed", l, e);
          }
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      log.debug("election: listener executor closed, event dropped");
    }
  }

  @FunctionalInterface
  private interface LockCall<T> {
    T call() throws LockException;
  }

  /**
   * Runs a lock call with a hard bound: the lock timeout, and while leading never past the fence, so a
   * hung API cannot hold the elector thread beyond the renew deadline. A call that times out is abandoned.
   */
  private <T> T call(LockCall<T> op) throws LockException {
    long timeout = settings.lockTimeout().toNanos();
    Tenure t = tenure;
    if (t.state == ElectorState.LEADER) {
      timeout = Math.min(timeout, t.fenceDeadline - clock.nanoTime());
      if (timeout <= 0) {
        throw new LockException(LockException.Cause.TIMEOUT, "renew deadline reached before the call was sent");
      }
    }
    Future<T> future;
    try {
      future = lockCalls.submit(op::call);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      throw new LockException(LockException.Cause.OTHER, "elector is closing");
    }
    try {
      return future.get(timeout, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new LockException(LockException.Cause.TIMEOUT,
          lock.describe() + " did not answer within " + Durations.format(Duration.ofNanos(timeout)));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof LockException le) {
        throw le;
      }
      throw new LockException(LockException.Cause.OTHER, "lock call failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new LockException(LockException.Cause.OTHER, "interrupted");
    }
  }

  private void wake() {
    wakeLock.lock();
    try {
      wakeRequested = true;
      wakeCondition.signalAll();
    } finally {
      wakeLock.unlock();
    }
  }

  private void awaitWake(long nanos) {
    wakeLock.lock();
    try {
      long left = nanos;
      while (!wakeRequested && !stopRequested && left > 0) {
        left = wakeCondition.awaitNanos(left);
      }
      wakeRequested = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stopRequested = true;
    } finally {
      wakeLock.unlock();
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
      return t.termSeq == seq && t.state == ElectorState.LEADER && clock.nanoTime() - t.fenceDeadline < 0;
    }

    @Override
    public java.time.Duration timeLeft() {
      Tenure t = tenure;
      long left = t.fenceDeadline - clock.nanoTime();
      return t.termSeq == seq && t.state == ElectorState.LEADER && left > 0
          ? java.time.Duration.ofNanos(left) : java.time.Duration.ZERO;
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
