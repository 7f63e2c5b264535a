package io.holdfast.election;

import java.util.Objects;

/**
 * A lease record together with the storage version it was read or written at. {@link LeaseLock#update}
 * takes it back, so a write based on a stale read fails with {@link LockException.Cause#CONFLICT}.
 */
public record VersionedRecord(LeaseRecord record, String resourceVersion) {
  public VersionedRecord {
    Objects.requireNonNull(record, "record");
    Objects.requireNonNull(resourceVersion, "resourceVersion");
  }
}
