package io.holdfast.election;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LeaseMappingTest {
  @Test
  void recordSurvivesARoundTripThroughALease() {
    LeaseRecord r = new LeaseRecord("pod-a_1234", 15, Instant.parse("2026-12-01T10:00:00.123456Z"),
        Instant.parse("2026-12-01T10:05:00Z"), 7);
    Lease lease = LeaseMapping.toLease("ns", "holdfast", r, "42");
    assertThat(lease.getMetadata().getResourceVersion()).isEqualTo("42");
    assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(7);
    VersionedRecord back = LeaseMapping.toRecord(lease);
    assertThat(back).isEqualTo(new VersionedRecord(r, "42"));
  }

  @Test
  void anEmptyLeaseReadsAsReleasedWithZeroes() {
    Lease lease = new LeaseBuilder().withNewMetadata().withName("x").withResourceVersion("1").endMetadata().build();
    VersionedRecord v = LeaseMapping.toRecord(lease);
    assertThat(v.record().isReleased()).isTrue();
    assertThat(v.record().leaseTransitions()).isZero();
    assertThat(v.record().leaseDurationSeconds()).isZero();
  }

  @Test
  void aCreateCarriesNoResourceVersion() {
    Lease lease = LeaseMapping.toLease("ns", "n", new LeaseRecord("a", 15, null, null, 0), "");
    assertThat(lease.getMetadata().getResourceVersion()).isNull();
  }
}
