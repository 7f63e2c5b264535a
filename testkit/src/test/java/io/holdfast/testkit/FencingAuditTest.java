package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.testkit.FencingAudit.Entry;
import io.holdfast.testkit.FencingAudit.Holding;
import io.holdfast.testkit.FencingAudit.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

class FencingAuditTest {

  private static Entry lease(long at, String holder) {
    return new Entry(at, holder.isEmpty() ? "x" : holder, Kind.LEASE, holder, true);
  }

  private static Entry status(long at, String writer) {
    return new Entry(at, writer, Kind.STATUS, "", true);
  }

  @Test
  void writesByTheHolderOfTheMomentPass() {
    List<Entry> record = List.of(lease(10, "a"), status(11, "a"), lease(20, "a"), status(21, "a"),
        lease(30, ""), lease(31, "b"), status(32, "b"));
    assertThat(FencingAudit.violations(record)).isEmpty();
    assertThat(FencingAudit.timeline(record))
        .containsExactly(new Holding(10, "a"), new Holding(30, ""), new Holding(31, "b"));
  }

  @Test
  void aWriteArrivingAfterTheSuccessorTookTheLeaseIsAViolationWhateverTheOrderOfTheList() {
    Entry late = status(32, "a");
    // Listed out of order on purpose: the audit orders by arrival.
    List<Entry> record = List.of(late, lease(10, "a"), status(11, "a"), lease(31, "b"));
    assertThat(FencingAudit.violations(record)).containsExactly(new FencingAudit.Violation(late, "b"));
  }

  @Test
  void writesWhileNobodyHoldsTheLeaseAndRejectedWritesCount() {
    Entry beforeAnyLease = status(1, "a");
    Entry afterRelease = new Entry(21, "a", Kind.STATUS, "", false);
    List<Entry> record = List.of(beforeAnyLease, lease(10, "a"), lease(20, ""), afterRelease);
    assertThat(FencingAudit.violations(record)).extracting(FencingAudit.Violation::write)
        .containsExactly(beforeAnyLease, afterRelease);
  }

  @Test
  void aRejectedLeaseWriteDoesNotChangeTheHolder() {
    Entry lostRace = new Entry(15, "b", Kind.LEASE, "b", false);
    List<Entry> record = List.of(lease(10, "a"), lostRace, status(16, "a"), status(17, "b"));
    assertThat(FencingAudit.violations(record)).extracting(v -> v.write().writer()).containsExactly("b");
  }
}
