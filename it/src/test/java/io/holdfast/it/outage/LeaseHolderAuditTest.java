package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaseHolderAuditTest {
  private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/holdfast-system/leases";
  private static final String LEASE = LEASES + "/holdfast";
  private static final String STATUS = "/apis/gateway.holdfast.io/v1/namespaces/demo/virtualservices/echo/status";

  /** An accepted Lease write by {@code writer} setting {@code holder}. */
  private static WriteRecord lease(String writer, String holder, long at) {
    return new WriteRecord("PUT", LEASE, "holdfast/" + writer, at, at + 3, 200, "7", Optional.of(holder));
  }

  private static WriteRecord status(String writer, long at, int code) {
    return new WriteRecord("PUT", STATUS, "holdfast/" + writer, at, at + 3, code, "9", Optional.empty());
  }

  @Test
  void aLeaseMovingAwayAndBackIsNoViolation() {
    // Seen under load in PausedLeaderIT: r3 -> r1 before the pause, r1 -> r3 after it. Judged by the order of
    // writers this is A, B, A (an "interleaving"); judged by the holder timeline every write was in term.
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(
        new WriteRecord("POST", LEASES, "holdfast/r3", 100, 104, 201, "", Optional.of("r3")),
        status("r3", 200, 200), lease("r3", "r3", 400), status("r3", 500, 200),
        lease("r1", "r1", 2600), status("r1", 2700, 200), lease("r1", "r1", 2900),
        lease("r3", "r3", 4600), status("r3", 4700, 200)));

    assertThat(audit.violations()).isEmpty();
    assertThat(audit.describe()).isEqualTo("r3 -> r1 -> r3");
    assertThat(audit.timeline()).extracting(LeaseHolderAudit.Tenure::fromMillis).containsExactly(100L, 2600L, 4600L);
    assertThat(WriterRuns.of(List.of(status("r3", 500, 200), status("r1", 2700, 200), status("r3", 4700, 200)))
        .writers()).as("the writers' order alone looks like an overlap").containsExactly("r3", "r1", "r3");
  }

  @Test
  void aStatusWriteLandingAfterAnotherReplicaTookTheLeaseIsAViolation() {
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(lease("r1", "r1", 100), status("r1", 150, 200),
        lease("r2", "r2", 2600), status("r1", 2850, 200), status("r2", 2900, 200)));

    assertThat(audit.violations()).singleElement().satisfies(v -> {
      assertThat(v.write().writer()).isEqualTo("r1");
      assertThat(v.holder()).isEqualTo("r2");
      assertThat(v.sinceChangeMs()).isEqualTo(250);
    });
    assertThat(audit.nextHolderAfter("r1", 0)).map(LeaseHolderAudit.Tenure::fromMillis).contains(2600L);
  }

  @Test
  void aWriteAfterItsWriterReleasedTheLeaseIsAViolationEvenBeforeAnyoneTakesIt() {
    // The graceful-shutdown overlap: the lease is released while a status PUT is still on its way.
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(lease("r1", "r1", 100), lease("r1", "", 1000),
        status("r1", 1100, 409), lease("r2", "r2", 1200), status("r1", 1300, 200)));

    assertThat(audit.violations()).extracting(LeaseHolderAudit.Violation::holder).containsExactly("", "r2");
    assertThat(audit.violations().get(0).write().code()).as("a rejected write was still sent off its fence")
        .isEqualTo(409);
    assertThat(audit.describe()).isEqualTo("r1 -> (released) -> r2");
  }

  @Test
  void aStatusWriteAtTheSameMillisecondAsATakeoverCountsAgainstItsWriter() {
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(lease("r1", "r1", 100), lease("r2", "r2", 500),
        status("r1", 500, 200)));

    assertThat(audit.violations()).hasSize(1);
  }

  @Test
  void onlyAcceptedLeaseWritesMoveTheHolderAndOnlyHoldfastStatusWritesAreJudged() {
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(lease("r1", "r1", 100),
        new WriteRecord("PUT", LEASE, "holdfast/r2", 200, 205, 409, "3", Optional.of("r2")),
        new WriteRecord("PUT", STATUS, "stdin", 300, 301, 200), status("r1", 400, 200),
        new WriteRecord("DELETE", LEASE, "kubectl", 500, 501, 200), status("r1", 600, 200)));

    assertThat(audit.describe()).isEqualTo("r1 -> (released)");
    assertThat(audit.statusWrites()).hasSize(2);
    assertThat(audit.violations()).extracting(v -> v.write().startMillis()).containsExactly(600L);
  }

  @Test
  void glooStatusesThroughTheObjectAndGatewayApiStatusesAreJudgedToo() {
    String glooVs = "/apis/gateway.solo.io/v1/namespaces/demo/virtualservices/shop";
    String route = "/apis/gateway.networking.k8s.io/v1/namespaces/demo/httproutes/web/status";
    WriteRecord glooByR2 = new WriteRecord("PUT", glooVs, "holdfast/r2", 300, 302, 200);
    WriteRecord routeByR2 = new WriteRecord("PUT", route, "holdfast/r2", 310, 312, 200);
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(lease("r1", "r1", 100),
        new WriteRecord("PUT", glooVs, "holdfast/r1", 200, 202, 200), glooByR2, routeByR2,
        new WriteRecord("PUT", glooVs, "stdin", 320, 321, 200), // a set-up edit: not a replica's
        new WriteRecord("POST", "/apis/gateway.solo.io/v1/namespaces/demo/virtualservices", "holdfast/r1", 330, 331,
            201)));

    assertThat(audit.statusWrites()).hasSize(3);
    assertThat(audit.violations()).extracting(LeaseHolderAudit.Violation::write).containsExactly(glooByR2, routeByR2);
  }

  @Test
  void aStatusWriteBeforeAnyLeaseWriteIsAViolationAndOldRecordsFallBackToTheSender() {
    LeaseHolderAudit audit = LeaseHolderAudit.of(List.of(status("r1", 50, 200),
        new WriteRecord("PUT", LEASE, "holdfast/r1", 100, 103, 200), status("r1", 150, 200)));

    assertThat(audit.violations()).extracting(v -> v.write().startMillis()).containsExactly(50L);
    assertThat(audit.tenureAt(120).holder()).isEqualTo("r1");
  }
}
