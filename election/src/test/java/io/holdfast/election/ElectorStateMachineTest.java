package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The state machine step by step, on a fake clock and an in-memory lock: no threads, no real time. */
class ElectorStateMachineTest {
  private final FakeClock clock = new FakeClock();
  private final InMemoryLeaseLock lock = new InMemoryLeaseLock();
  private final RecordingListener events = new RecordingListener();
  private final List<String> exits = new ArrayList<>();
  private final List<LeaderElector> electors = new ArrayList<>();

  private LeaderElector elector(String identity, RecoveryPolicy policy) {
    ElectionSettings settings = ElectionCluster.fastTimings().identity(identity).recovery(policy).build();
    LeaderElector e = LeaderElector.builder(settings, lock)
        .clock(clock)
        .random(() -> 0.0)
        .listenerExecutor(Runnable::run)
        .exitHandler((status, reason) -> exits.add(status + " " + reason))
        .build();
    e.addListener(events);
    electors.add(e);
    return e;
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

  @Test
  void aReleasedLeaseIsTakenAtOnce() {
    lock.put(new LeaseRecord("", 1, Instant.EPOCH, Instant.EPOCH, 3));
    LeaderElector e = elector("a");
    e.step();
    assertThat(e.currentTerm()).contains(new Term(4, "a"));
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
    assertThat(lock.record().orElseThrow().renewTime()).isEqualTo(clock.wallTime());
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
        .clock(clock).random(() -> 0.0).listenerExecutor(Runnable::run).build();
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
