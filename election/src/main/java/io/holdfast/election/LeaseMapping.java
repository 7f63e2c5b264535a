package io.holdfast.election;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/** The two pure functions between a {@link LeaseRecord} and a {@code coordination.k8s.io/v1} Lease. */
final class LeaseMapping {
  private LeaseMapping() {}

  static VersionedRecord toRecord(Lease lease) {
    LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
    LeaseRecord record = new LeaseRecord(
        spec.getHolderIdentity(),
        spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds(),
        toInstant(spec.getAcquireTime()),
        toInstant(spec.getRenewTime()),
        spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions());
    String rv = lease.getMetadata() == null ? null : lease.getMetadata().getResourceVersion();
    return new VersionedRecord(record, rv == null ? "" : rv);
  }

  /** A Lease carrying {@code record}; with a non-empty {@code resourceVersion} a stale write gets 409. */
  static Lease toLease(String namespace, String name, LeaseRecord record, String resourceVersion) {
    return new LeaseBuilder()
        .withNewMetadata()
          .withNamespace(namespace)
          .withName(name)
          .withResourceVersion(resourceVersion == null || resourceVersion.isEmpty() ? null : resourceVersion)
        .endMetadata()
        .withNewSpec()
          .withHolderIdentity(record.holderIdentity())
          .withLeaseDurationSeconds(record.leaseDurationSeconds())
          .withAcquireTime(toZoned(record.acquireTime()))
          .withRenewTime(toZoned(record.renewTime()))
          .withLeaseTransitions(Math.toIntExact(record.leaseTransitions()))
        .endSpec()
        .build();
  }

  private static Instant toInstant(ZonedDateTime t) {
    return t == null ? null : t.toInstant();
  }

  private static ZonedDateTime toZoned(Instant t) {
    return t == null ? null : t.atZone(ZoneOffset.UTC);
  }
}
