package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The state machine step by step, on a fake clock and an in-memory lock: no threads, no real time. */
class ElectorStateMachineTest {
  private final ManualClock clock = new ManualClock();
  private final InMemoryLeaseLock lock = new InMemoryLeaseLock();
  private final RecordingListener events = new RecordingListener();
  private final List<String> exits = new ArrayList<>();
  private final List<LeaderElector> electors = new ArrayList<>();

  private LeaderElector elector(String identity, RecoveryPolicy policy) {
    return elector(ElectionCluster.fastTimings().identity(identity).recovery(policy).build(), new SimpleMeterRegistry());
  }

  private LeaderElector elector(ElectionSettings settings, MeterRegistry registry) {
    LeaderElector e = LeaderElector.builder(settings, lock)
        .clock(ElectionClock.of(clock, clock))
        .random(() -> 0.0)
        .listenerExecutor(Runnable::run)
        .exitHandler((status, reason) -> exits.add(status + " " + reason))
        .meterRegistry(registry)
        .build();
    e.addListener(events);
    electors.add(e);
    return e;
  }

  /** Timings with a retry period long enough to have overflowed the old backoff: lease 30 s, renew 20 s, retry 10 s. */
  private static ElectionSettings.Builder slowTimings(String identity) {
    return ElectionCluster.fastTimings().identity(identity).leaseDuration(Duration.ofSeconds(30))
        .renewDeadline(Duration.ofSeconds(20)).retryPeriod(Duration.ofSeconds(10)).lockTimeout(Duration.ofSeconds(1))
        .leaderRequestTimeout(Duration.ofSeconds(2)).fenceSlack(Duration.ofSeconds(1));
  }

  /** Runs the elector as its thread would: step, then move the clock by the wait it asked for. */
  private long stepAndWait(LeaderElector e) {
    long wait = e.step();
    clock.advance(Duration.ofNanos(wait));
    return wait;
  }

  private LeaderElector elector(String identity) {
    return elector(identity, RecoveryPolicy.RECOVER);
  }

  @AfterEach
  void close() {
    electors.forEach(LeaderElector::close);
  }

  private static LeaseRecord foreign(String holder, long transitions, Instant renewTime) {
    return new LeaseRecord(holder, 2, renewTime, renewTime, transitions);
  }

  @Test
  void createsTheLeaseWhenThereIsNoneAndLeads() {
    LeaderElector e = elector("a");
    e.step();
    assertThat(e.isLeader()).isTrue();
    assertThat(e.currentTerm()).contains(new Term(0, "a"));
    assertThat(lock.record().orElseThrow().holderIdentity()).isEqualTo("a");
    assertThat(events.events).containsExactly("leader a", "elected a#0");
  }

  @Test
  void takesAForeignLeaseOnlyAfterSeeingItUnchangedForAFullLeaseOnItsOwnClock() {
    // The remote renewTime is a year old: it must not matter, only local observation counts.
    lock.put(foreign("other", 4, Instant.parse("2025-01-01T00:00:00Z")));
    LeaderElector e = elector("a");
    e.step();
    assertThat(e.isLeader()).isFalse();
    assertThat(e.observedLeader()).contains("other");

    clock.advance(Duration.ofMillis(1999));
    e.step();
    assertThat(e.isLeader()).isFalse();

    clock.advance(Duration.ofMillis(1));
    e.step();
    assertThat(e.isLeader()).isTrue();
    assertThat(e.currentTerm()).contains(new Term(5, "a"));
  }

  @Test
  void aChangedRecordRestartsTheObservationClock() {
    lock.put(foreign("other", 1, Instant.EPOCH));
    LeaderElector e = elector("a");
    e.step();
    clock.advance(Duration.ofMillis(1500));
    lock.put(foreign("other", 1, Instant.EPOCH.plusSeconds(1))); // the holder renewed
    e.step();
    clock.advance(Duration.ofMillis(1500));
    e.step();
    assertThat(e.isLeader()).as("3 s since first seen, but only 1.5 s since the renewal").isFalse();
    clock.advance(Duration.ofMillis(500));
    e.step();
    assertThat(e.isLeader()).isTrue();
  }

  private static LeaseRecord released(long transitions) {
    return new LeaseRecord("", 1, Instant.EPOCH, Instant.EPOCH, transitions);
  }

  @Test
  void aReleaseByTheHolderThisReplicaSawIsTakenAtOnce() {
    lock.put(foreign("b", 3, Instant.EPOCH));
    LeaderElector e = elector("a");
    e.step();
    assertThat(e.observedLeader()).contains("b");
    lock.put(released(3)); // b's graceful hand-over: same term, holder emptied
    clock.advance(Duration.ofMillis(300));
    e.step();
    assertThat(e.currentTerm()).contains(new Term(4, "a"));
    assertThat(events.events).contains("elected a#4");
  }

  /** Regression: a release nobody here saw a holder for was taken at once, while its holder might still act. */
  @Test
  void aReleaseWithoutASeenHolderWaitsAFullLeaseNotTheSecondTheRecordStates() {
    lock.put(released(3)); // e.g. an admin emptied the holder while it still ran
    LeaderElector e = elector("a");
    e.step();
    assertThat(e.isLeader()).isFalse();
    clock.advance(Duration.ofMillis(1999)); // the record says 1 s; our lease is 2 s
    e.step();
    assertThat(e.isLeader()).as("a full lease has not passed").isFalse();
    assertThat(lock.record().orElseThrow().isReleased()).isTrue();
    clock.advance(Duration.ofMillis(1));
    e.step();
    assertThat(e.currentTerm()).contains(new Term(4, "a"));
  }

  @Test
  void aReleaseOfAnotherTermThanTheOneSeenWaitsAFullLease() {
    lock.put(foreign("b", 3, Instant.EPOCH));
    LeaderElector e = elector("a");
    e.step();
    lock.put(foreign("c", 4, Instant.EPOCH)); // unseen here: c took over, then someone "released" c's lease
    lock.put(released(4));
    clock.advance(Duration.ofMillis(300));
    e.step();
    assertThat(e.isLeader()).as("c may still be acting").isFalse();
    long waited = 300;
    while (!e.isLeader() && waited < 5_000) {
      waited += Duration.ofNanos(stepAndWait(e)).toMillis();
    }
    assertThat(e.currentTerm()).contains(new Term(5, "a"));
    assertThat(waited).as("ms until taken").isGreaterThanOrEqualTo(2_300);
  }

  /** Regression: retryNanos << 30 overflowed for retry periods above ~8.6 s after 31 failures: delay 0, a spin. */
  @Test
  void followerBackoffStaysCappedAfterFortyFailuresWithATenSecondRetryPeriod() {
    lock.put(foreign("b", 1, Instant.EPOCH));
    LeaderElector e = elector(slowTimings("a").build(), new SimpleMeterRegistry());
    long wait = e.step(); // observes b
    lock.failWith(LockException.Cause.UNREACHABLE);
    int callsBefore = lock.calls();
    List<Long> waits = new ArrayList<>();
    for (int failure = 1; failure <= 40; failure++) {
      clock.advance(Duration.ofNanos(wait));
      wait = e.step();
      waits.add(Duration.ofNanos(wait).toSeconds());
    }
    assertThat(lock.calls() - callsBefore).as("one attempt per wait").isEqualTo(40);
    assertThat(waits.subList(0, 3)).containsExactly(10L, 20L, 40L);
    assertThat(waits.subList(3, 40)).as("capped at 4 retry periods, never 0").containsOnly(40L);
  }

  /**
   * Regression: the renewal failures carried over into the follower's backoff, which scheduled the next
   * attempt past the recovery deadline; at the deadline it exited without trying, the API already back.
   */
  @Test
  void maxRecoveryDoesNotExitWhenTheApiIsBackBeforeTheDeadlineButTheBackoffReachesPastIt() {
    ElectionSettings s = ElectionCluster.fastTimings().identity("a").leaseDuration(Duration.ofSeconds(4))
        .renewDeadline(Duration.ofSeconds(3)).retryPeriod(Duration.ofMillis(500)).lockTimeout(Duration.ofSeconds(1))
        .leaderRequestTimeout(Duration.ofMillis(500)).fenceSlack(Duration.ofMillis(250))
        .recovery(RecoveryPolicy.recoverWithin(Duration.ofSeconds(1))).build();
    LeaderElector e = elector(s, new SimpleMeterRegistry());
    e.step();
    lock.failWith(LockException.Cause.UNREACHABLE);
    long wait = 0;
    for (int i = 0; i < 20 && e.state() == ElectorState.LEADER; i++) { // five failed renewals, then the fence ends
      clock.advance(Duration.ofNanos(wait));
      wait = e.step();
    }
    assertThat(e.state()).isEqualTo(ElectorState.FOLLOWER);
    assertThat(Duration.ofNanos(wait)).as("first follower retry: a new streak, one retry period")
        .isEqualTo(Duration.ofMillis(500));
    clock.advance(Duration.ofNanos(wait));
    wait = e.step(); // fails again: the next attempt would be 1 s later, past the deadline
    lock.heal(); // the API is back before the deadline
    clock.advance(Duration.ofNanos(wait));
    e.step();
    assertThat(exits).isEmpty();
    assertThat(e.isLeader()).as("re-took its own lease").isTrue();
  }

  @Test
  void aMissingLeaseNamespaceIsAnErrorOncePerStreakWithAMetricAndLastError() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    lock.failCreatesWith(LockException.Cause.NAMESPACE_NOT_FOUND, "lease namespace 'typo' not found (HTTP 404)");
    LeaderElector e = elector(ElectionCluster.fastTimings().identity("a").build(), registry);
    List<Long> waits = new ArrayList<>();
    try (LogCapture logs = LogCapture.of(LeaderElector.class)) {
      for (int i = 0; i < 5; i++) {
        waits.add(Duration.ofNanos(stepAndWait(e)).toMillis());
      }
      assertThat(logs.atLeast(ch.qos.logback.classic.Level.ERROR)).singleElement().asString()
          .contains("cause=namespace_not_found", "namespace=" + ElectionCluster.NAMESPACE, "'typo' not found");
    }
    assertThat(e.lastError()).contains("lease namespace 'typo' not found (HTTP 404)");
    assertThat(registry.get("holdfast.election.acquire.failures").tag("cause", "namespace_not_found").counter().count())
        .isEqualTo(5);
    assertThat(waits).as("backs off like any failure, not a lost race").containsExactly(300L, 600L, 1200L, 1200L, 1200L);

    lock.heal();
    e.step();
    assertThat(e.isLeader()).isTrue();
    assertThat(e.lastError()).isEmpty();
  }

  @Test
  void everyStateChangeIsLoggedOnceWithHolderAndTransitionCount() {
    try (LogCapture logs = LogCapture.of(LeaderElector.class)) {
      LeaderElector e = elector("a");
      e.step();
      lock.put(foreign("intruder", 7, Instant.EPOCH));
      clock.advance(Duration.ofMillis(300));
      e.step();
      e.close();
      assertThat(logs.messages().stream().filter(m -> m.contains(" -> ")).toList()).satisfiesExactly(
          m -> assertThat(m).contains("FOLLOWER -> LEADER", "holder=a ", "leaseTransitions=0", "localTransitions=1"),
          m -> assertThat(m).contains("LEADER -> FOLLOWER", "holder=intruder ", "leaseTransitions=0", "localTransitions=2"),
          m -> assertThat(m).contains("FOLLOWER -> STOPPED", "holder=intruder ", "leaseTransitions=7", "localTransitions=3"));
    }
  }

  @Test
  void closingANeverStartedLeaderReleasesItsLease() {
    LeaderElector e = elector("a");
    e.step();
    e.close();
    assertThat(e.state()).isEqualTo(ElectorState.STOPPED);
    assertThat(lock.record().orElseThrow().isReleased()).isTrue();
  }

  @Test
  void renewsEveryRetryPeriodAndStaysLeader() {
    LeaderElector e = elector("a");
    e.step();
    for (int i = 0; i < 20; i++) {
      clock.advance(Duration.ofMillis(300));
      e.step();
      assertThat(e.isLeader()).isTrue();
    }
    assertThat(events.demotions).isEmpty();
    assertThat(lock.record().orElseThrow().renewTime()).isEqualTo(clock.instant());
  }

  @Test
  void failedRenewalsDemoteExactlyAtTheRenewDeadlineAndTheFenceClosesWithoutTheElectorThread() {
    LeaderElector e = elector("a");
    e.step();
    lock.failWith(LockException.Cause.UNREACHABLE);
    AtomicInteger ran = new AtomicInteger();

    clock.advance(Duration.ofMillis(1499));
    assertThat(e.runIfLeader(f -> ran.incrementAndGet())).isTrue();
    clock.advance(Duration.ofMillis(1));
    // No step() has run: the fence is closed by the clock alone, as after a long GC pause.
    assertThat(e.isLeader()).isFalse();
    assertThat(e.runIfLeader(f -> ran.incrementAndGet())).isFalse();
    assertThat(ran).hasValue(1);

    e.step();
    assertThat(e.state()).isEqualTo(ElectorState.FOLLOWER);
    assertThat(events.demotions).singleElement().asString().startsWith("renew deadline passed");
  }

  @Test
  void aDemotedLeaderCampaignsAgainAndWinsWithANewTerm() {
    LeaderElector e = elector("a");
    e.step();
    lock.failWith(LockException.Cause.TIMEOUT);
    clock.advance(Duration.ofMillis(1600));
    e.step();
    assertThat(e.isLeader()).isFalse();

    lock.heal();
    clock.advance(Duration.ofSeconds(2)); // past any backoff
    e.step();
    assertThat(e.isLeader()).isTrue();
    assertThat(e.currentTerm()).contains(new Term(1, "a"));
    assertThat(events.elected).containsExactly(new Term(0, "a"), new Term(1, "a"));
  }

  /**
   * Regression: a demoted replica re-took a record naming itself at once. Over a link slower than the lock
   * timeout each such write timed out yet landed, so the record kept changing, no other replica ever saw it
   * unchanged for a lease, and nobody led (seen: 13 s without a leader, leaseTransitions 0 to 6). Its own
   * stale record must wait a full lease like anyone's.
   */
  @Test
  void aDemotedReplicaWhoseWritesLandButTimeOutDoesNotStarveTheOthers() {
    LandsButTimesOut aLink = new LandsButTimesOut(lock);
    LeaderElector a = LeaderElector.builder(ElectionCluster.fastTimings().identity("a").build(), aLink)
        .clock(ElectionClock.of(clock, clock)).random(() -> 0.0).listenerExecutor(Runnable::run)
        .exitHandler((status, reason) -> exits.add(status + " " + reason)).build();
    electors.add(a);
    LeaderElector b = elector("b");
    a.step();
    assertThat(a.isLeader()).isTrue();
    b.step();
    aLink.slow = true;

    long deadline = clock.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!b.isLeader() && clock.nanoTime() - deadline < 0) {
      a.step();
      b.step();
      clock.advance(Duration.ofMillis(100));
    }
    assertThat(a.isLeader()).isFalse();
    assertThat(b.isLeader()).as("b leads within 10 s while a's writes land late").isTrue();
  }

  /** Reads work; writes are applied but answered with a timeout, as over a link slower than the lock timeout. */
  private static final class LandsButTimesOut implements LeaseLock {
    private final InMemoryLeaseLock inner;
    volatile boolean slow;

    LandsButTimesOut(InMemoryLeaseLock inner) {
      this.inner = inner;
    }

    @Override
    public java.util.Optional<VersionedRecord> get() throws LockException {
      return inner.get();
    }

    @Override
    public VersionedRecord create(LeaseRecord record) throws LockException {
      VersionedRecord r = inner.create(record);
      if (slow) {
        throw new LockException(LockException.Cause.TIMEOUT, "landed, answer late");
      }
      return r;
    }

    @Override
    public VersionedRecord update(VersionedRecord from, LeaseRecord next) throws LockException {
      VersionedRecord r = inner.update(from, next);
      if (slow) {
        throw new LockException(LockException.Cause.TIMEOUT, "landed, answer late");
      }
      return r;
    }

    @Override
    public String describe() {
      return "lands-but-times-out";
    }
  }

  @Test
  void workFromAnOldTermFailsItsFenceAfterReElection() {
    LeaderElector e = elector("a");
    e.step();
    List<Fence> fences = new ArrayList<>();
    e.runIfLeader(fences::add);
    lock.failWith(LockException.Cause.UNREACHABLE);
    clock.advance(Duration.ofMillis(1600));
    e.step();
    lock.heal();
    clock.advance(Duration.ofSeconds(2));
    e.step();
    assertThat(e.isLeader()).isTrue();
    assertThat(fences.get(0).isValid()).as("old term's fence").isFalse();
    assertThat(e.runIfLeader(f -> f.check())).isTrue();
  }

  @Test
  void aForeignOverwriteDemotesOnTheNextRenewal() {
    LeaderElector e = elector("a");
    e.step();
    lock.put(foreign("intruder", 7, Instant.EPOCH));
    clock.advance(Duration.ofMillis(300));
    e.step();
    assertThat(e.state()).isEqualTo(ElectorState.FOLLOWER);
    assertThat(events.demotions).singleElement().asString().contains("taken by intruder");
  }

  @Test
  void aDeletedLeaseDemotesThenIsRecreatedWithAHigherTransitionCount() {
    LeaderElector e = elector("a");
    e.step();
    lock.delete();
    clock.advance(Duration.ofMillis(300));
    e.step();
    assertThat(events.demotions).singleElement().asString().isEqualTo("lease was deleted");
    e.step();
    assertThat(e.currentTerm()).contains(new Term(1, "a"));
  }

  @Test
  void aFollowerWaitsAFullLeaseBeforeRecreatingALeaseThatWasDeletedUnderItsHolder() {
    lock.put(foreign("other", 3, Instant.EPOCH));
    LeaderElector e = elector("a");
    e.step();
    lock.delete(); // "other" may not know yet and may still be acting
    clock.advance(Duration.ofMillis(300));
    e.step();
    clock.advance(Duration.ofMillis(1999));
    e.step();
    assertThat(e.isLeader()).isFalse();
    assertThat(lock.record()).isEmpty();
    clock.advance(Duration.ofMillis(1));
    e.step();
    assertThat(e.currentTerm()).contains(new Term(4, "a"));
  }

  /** Regression: a candidate that lost the create race, then saw the lease deleted, created it at once. */
  @Test
  void aCandidateThatLostACreateRaceToAnUnseenHolderWaitsAFullLeaseBeforeCreating() {
    LeaderElector e = elector("a");
    LeaseLock racing = new LeaseLock() {
      boolean first = true;

      @Override
      public java.util.Optional<VersionedRecord> get() throws LockException {
        return lock.get();
      }

      @Override
      public VersionedRecord create(LeaseRecord record) throws LockException {
        if (first) {
          first = false;
          lock.put(foreign("b", 0, Instant.EPOCH)); // b wins the race, and a never reads b's record
          lock.delete(); // then an admin deletes the lease while b still acts
          throw new LockException(LockException.Cause.ALREADY_EXISTS, "b was first");
        }
        return lock.create(record);
      }

      @Override
      public VersionedRecord update(VersionedRecord current, LeaseRecord next) throws LockException {
        return lock.update(current, next);
      }

      @Override
      public String describe() {
        return "racing";
      }
    };
    LeaderElector a = LeaderElector.builder(ElectionCluster.fastTimings().identity("a").build(), racing)
        .clock(ElectionClock.of(clock, clock)).random(() -> 0.0).listenerExecutor(Runnable::run).build();
    electors.add(a);
    a.step();
    assertThat(a.isLeader()).isFalse();
    clock.advance(Duration.ofMillis(1999));
    a.step();
    assertThat(a.isLeader()).as("b may still be acting").isFalse();
    clock.advance(Duration.ofMillis(1));
    a.step();
    assertThat(a.isLeader()).isTrue();
    e.close();
  }

  @Test
  void exitPolicyCallsTheExitHandlerOnLoss() {
    LeaderElector e = elector("a", RecoveryPolicy.EXIT);
    e.step();
    lock.failWith(LockException.Cause.UNREACHABLE);
    clock.advance(Duration.ofMillis(1500));
    e.step();
    assertThat(exits).singleElement().asString().startsWith("1 lost leadership");
    assertThat(e.state()).isEqualTo(ElectorState.STOPPED);
  }

  @Test
  void maxRecoveryExitsWhenNoLeaseReadSucceedsInTime() {
    LeaderElector e = elector("a", RecoveryPolicy.recoverWithin(Duration.ofSeconds(3)));
    e.step();
    lock.failWith(LockException.Cause.UNREACHABLE);
    clock.advance(Duration.ofMillis(1500));
    e.step();
    assertThat(e.state()).isEqualTo(ElectorState.FOLLOWER);
    clock.advance(Duration.ofMillis(2999));
    e.step();
    assertThat(exits).isEmpty();
    clock.advance(Duration.ofMillis(1));
    e.step();
    assertThat(exits).singleElement().asString().contains("unable to recover from failed leader election within 3s");
  }

  @Test
  void maxRecoveryIsCancelledByAnySuccessfulRead() {
    LeaderElector e = elector("a", RecoveryPolicy.recoverWithin(Duration.ofSeconds(3)));
    e.step();
    lock.failWith(LockException.Cause.UNREACHABLE);
    clock.advance(Duration.ofMillis(1500));
    e.step();
    lock.heal();
    lock.put(foreign("b", 9, Instant.EPOCH)); // someone else leads now: still counts as recovery
    clock.advance(Duration.ofSeconds(1));
    e.step();
    clock.advance(Duration.ofSeconds(10));
    e.step();
    assertThat(exits).isEmpty();
    assertThat(e.state()).isNotEqualTo(ElectorState.STOPPED);
  }

  @Test
  void followersNeverExitBecauseTheApiIsDown() {
    lock.put(foreign("b", 1, Instant.EPOCH));
    LeaderElector e = elector("a", RecoveryPolicy.recoverWithin(Duration.ofSeconds(1)));
    e.step();
    lock.failWith(LockException.Cause.UNREACHABLE);
    for (int i = 0; i < 30; i++) {
      clock.advance(Duration.ofSeconds(1));
      e.step();
    }
    assertThat(exits).isEmpty();
  }

  @Test
  void twoCandidatesNeverBothLead() {
    LeaderElector a = elector("a");
    LeaderElector b = elector("b");
    for (int i = 0; i < 50; i++) {
      a.step();
      b.step();
      assertThat(a.isLeader() && b.isLeader()).isFalse();
      clock.advance(Duration.ofMillis(100));
    }
    assertThat(a.isLeader() ^ b.isLeader()).isTrue();
  }
}
