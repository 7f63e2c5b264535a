package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The elector on its own thread, on the real clock and an in-memory lock: closing with leader-only work in
 * flight, the bound on close(), and a thread that survives an Error. Timings: lease 4 s, renew deadline 3 s,
 * retry 0.5 s, lock timeout 1 s, leader request timeout 0.5 s, fence slack 0.25 s.
 */
class ElectorThreadTest {
  private static final Duration SLACK = Duration.ofMillis(250);

  private final List<LeaderElector> electors = new ArrayList<>();
  private final List<CountDownLatch> toOpen = new ArrayList<>();

  /** Records events in order, and when each was first recorded (System.nanoTime, the elector's clock here). */
  static final class Timeline extends CopyOnWriteArrayList<String> {
    final Map<String, Long> firstAt = new ConcurrentHashMap<>();

    @Override
    public boolean add(String event) {
      firstAt.putIfAbsent(event, System.nanoTime());
      return super.add(event);
    }
  }

  private static ElectionSettings.Builder timings(String identity) {
    return ElectionCluster.fastTimings().identity(identity)
        .leaseDuration(Duration.ofSeconds(4)).renewDeadline(Duration.ofSeconds(3)).retryPeriod(Duration.ofMillis(500))
        .lockTimeout(Duration.ofSeconds(1)).leaderRequestTimeout(Duration.ofMillis(500)).fenceSlack(SLACK);
  }

  private LeaderElector start(ElectionSettings settings, LeaseLock lock) {
    LeaderElector e = LeaderElector.builder(settings, lock).exitHandler((s, r) -> { }).build();
    electors.add(e);
    return e.start();
  }

  private CountDownLatch latch() {
    CountDownLatch l = new CountDownLatch(1);
    toOpen.add(l);
    return l;
  }

  private static Thread thread(String name, Runnable r) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @AfterEach
  void tearDown() {
    toOpen.forEach(CountDownLatch::countDown);
    electors.forEach(LeaderElector::close);
  }

  /**
   * Regression (issue 10, item 2): close() released the lease at once, so a status write that had passed
   * its fence check reached the API after the successor's first Lease write.
   */
  @Test
  void aLeaderClosedWithAWriteInFlightReleasesTheLeaseOnlyAfterTheWriteLanded() throws Exception {
    Timeline timeline = new Timeline();
    InMemoryLeaseLock lock = new InMemoryLeaseLock(timeline);
    LeaderElector a = start(timings("a").build(), lock);
    await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
    CountingLock bLock = new CountingLock(lock);
    LeaderElector b = start(timings("b").build(), bLock);
    await().atMost(Duration.ofSeconds(5)).until(() -> b.observedLeader().equals(Optional.of("a")));

    CountDownLatch writing = latch();
    CountDownLatch landed = latch();
    AtomicReference<Fence> fence = new AtomicReference<>();
    thread("writer", () -> a.runIfLeader(f -> {
      f.check();
      fence.set(f);
      writing.countDown();
      try {
        landed.await(30, TimeUnit.SECONDS); // the write is on its way to the API until the test lets it land
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      timeline.add("write:a");
    }));
    assertThat(writing.await(5, TimeUnit.SECONDS)).isTrue();

    Thread closer = thread("closer", a::close);
    await().atMost(Duration.ofSeconds(2)).until(() -> !a.isLeader());
    assertThat(fence.get().isValid()).as("the running action's fence fails its next check").isFalse();
    assertThat(fence.get().timeLeft()).isZero();
    assertThat(a.runIfLeader(f -> timeline.add("late:a"))).as("no new leader-only work").isFalse();

    // b polls every retry period (no watch here): let it try twice while the write is held. Had the lease
    // been released, its first try would have taken it (then it stops polling: it renews).
    int polls = bLock.reads.get();
    await().atMost(Duration.ofSeconds(5))
        .until(() -> bLock.reads.get() >= polls + 2 || timeline.contains("lease:b"));
    landed.countDown();
    closer.join(timings("a").build().maxCloseTime().toMillis());
    await().atMost(Duration.ofSeconds(5)).until(b::isLeader);

    assertThat(timeline).doesNotContain("late:a");
    assertThat(timeline.indexOf("write:a")).as("the write landed before the successor took the lease: %s", timeline)
        .isLessThan(timeline.indexOf("lease:b"));
    assertThat(timeline).containsSubsequence("lease:a", "write:a", "lease:<none>", "lease:b");
    assertThat(timeline.firstAt.get("lease:<none>") - timeline.firstAt.get("write:a"))
        .as("fenceSlack passed between the write's end and the release").isGreaterThanOrEqualTo(SLACK.toNanos());
  }

  @Test
  void anActionThatNeverEndsDelaysTheReleaseOnlyUntilTheFenceEndPlusSlackAndIsLogged() throws Exception {
    Timeline timeline = new Timeline();
    InMemoryLeaseLock lock = new InMemoryLeaseLock(timeline);
    ElectionSettings settings = ElectionCluster.fastTimings().identity("a").build(); // renew deadline 1.5 s
    Duration slack = settings.fenceSlack();
    LeaderElector a = start(settings, lock);
    await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
    LeaderElector b = start(ElectionCluster.fastTimings().identity("b").build(), lock);
    await().atMost(Duration.ofSeconds(5)).until(() -> b.observedLeader().equals(Optional.of("a")));

    CountDownLatch running = latch();
    CountDownLatch never = latch(); // opened only in tearDown
    AtomicLong fenceEnd = new AtomicLong();
    thread("stuck-writer", () -> a.runIfLeader(f -> {
      fenceEnd.set(System.nanoTime() + f.timeLeft().toNanos()); // the fence ends no earlier than this
      running.countDown();
      try {
        never.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }));
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

    try (LogCapture logs = LogCapture.of(LeaderElector.class)) {
      long start = System.nanoTime();
      a.close();
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(took).as("close() stays within its stated bound").isLessThanOrEqualTo(settings.maxCloseTime());
      assertThat(timeline.firstAt).containsKey("lease:<none>");
      assertThat(timeline.firstAt.get("lease:<none>")).as("released no earlier than the fence's end plus fenceSlack")
          .isGreaterThanOrEqualTo(fenceEnd.get() + slack.toNanos());
      assertThat(logs.atLeast(Level.WARN)).anySatisfy(m -> assertThat(m)
          .contains("1 leader-only action(s) still running", "identity=a", "releasing the lease anyway"));
    }
    await().atMost(Duration.ofSeconds(5)).until(b::isLeader);
  }

  /**
   * Regression: close() joined the elector thread for 2 x lockTimeout + 1 s, less than a renewal that met a
   * conflict takes (update, re-read, update) plus the release: it returned with the lease still held and
   * the release still to come.
   */
  @Test
  void closeReturnsOnlyOnceTheLeaseIsReleasedEvenWhenClosedDuringTheLongestRenewal() throws Exception {
    ElectionSettings settings = timings("a").leaseDuration(Duration.ofSeconds(6)).renewDeadline(Duration.ofSeconds(5))
        .build();
    InMemoryLeaseLock memory = new InMemoryLeaseLock();
    SlowConflictingLock lock = new SlowConflictingLock(memory, Duration.ofMillis(900)); // each call: 0.9 of 1 s
    LeaderElector a = start(settings, lock);
    await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

    CountDownLatch renewing = lock.conflictOnNextUpdate();
    assertThat(renewing.await(10, TimeUnit.SECONDS)).isTrue();
    long start = System.nanoTime();
    a.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(memory.record().orElseThrow().isReleased()).as("released by the time close() returned").isTrue();
    assertThat(a.state()).isEqualTo(ElectorState.STOPPED);
    assertThat(took).isLessThanOrEqualTo(settings.maxCloseTime());
  }

  /** Regression: the watch set-up caught only RuntimeException; an Error ended the elector thread silently. */
  @Test
  void anErrorFromTheWatchSetUpIsLoggedAndTheElectorLeadsByPolling() {
    InMemoryLeaseLock memory = new InMemoryLeaseLock();
    LeaseLock lock = new DelegatingLock(memory) {
      @Override
      public LockWatch watch(Consumer<Optional<VersionedRecord>> onChange) {
        throw new NoClassDefFoundError("io/fabric8/simulated/Informer");
      }
    };
    try (LogCapture logs = LogCapture.of(LeaderElector.class)) {
      LeaderElector a = start(timings("a").build(), lock);
      await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
      assertThat(logs.atLeast(Level.ERROR)).anySatisfy(m -> assertThat(m)
          .contains("could not start watching", "polling instead", "identity=a"));
    }
  }

  /** Forwards every call to another lock. */
  static class DelegatingLock implements LeaseLock {
    final LeaseLock delegate;

    DelegatingLock(LeaseLock delegate) {
      this.delegate = delegate;
    }

    @Override
    public Optional<VersionedRecord> get() throws LockException {
      return delegate.get();
    }

    @Override
    public VersionedRecord create(LeaseRecord record) throws LockException {
      return delegate.create(record);
    }

    @Override
    public VersionedRecord update(VersionedRecord current, LeaseRecord next) throws LockException {
      return delegate.update(current, next);
    }

    @Override
    public String describe() {
      return delegate.describe();
    }
  }

  /**
   * Once armed, a slow API (every call takes {@code latency}, the simulated fault itself) whose next update
   * meets a conflict: someone edited the Lease meanwhile, so the renewal takes its longest path.
   */
  static final class SlowConflictingLock extends DelegatingLock {
    private final InMemoryLeaseLock memory;
    private final Duration latency;
    private final AtomicReference<CountDownLatch> armed = new AtomicReference<>();
    private volatile boolean slow;

    SlowConflictingLock(InMemoryLeaseLock memory, Duration latency) {
      super(memory);
      this.memory = memory;
      this.latency = latency;
    }

    CountDownLatch conflictOnNextUpdate() {
      CountDownLatch started = new CountDownLatch(1);
      armed.set(started);
      slow = true;
      return started;
    }

    private void slow() {
      if (!slow) {
        return;
      }
      try {
        Thread.sleep(latency.toMillis()); // the fault: a slow API server
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    @Override
    public Optional<VersionedRecord> get() throws LockException {
      slow();
      return super.get();
    }

    @Override
    public VersionedRecord create(LeaseRecord record) throws LockException {
      slow();
      return super.create(record);
    }

    @Override
    public VersionedRecord update(VersionedRecord current, LeaseRecord next) throws LockException {
      CountDownLatch started = armed.getAndSet(null);
      if (started != null) {
        started.countDown();
        slow();
        memory.put(memory.record().orElseThrow()); // an edit that keeps the holder: a new resourceVersion
        return super.update(current, next); // 409
      }
      slow();
      return super.update(current, next);
    }
  }

  /** Counts the reads made through it: how often one elector polled. */
  static final class CountingLock extends DelegatingLock {
    final AtomicInteger reads = new AtomicInteger();

    CountingLock(LeaseLock delegate) {
      super(delegate);
    }

    @Override
    public Optional<VersionedRecord> get() throws LockException {
      reads.incrementAndGet();
      return super.get();
    }
  }
}
