package io.holdfast.server.snapshot;

import io.holdfast.api.ResourceKey;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Instant;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A snapshot as read back from disk, with when and by which replica it was written. A loaded snapshot is the
 * last-known config, not a fresh one: serve it as stale until a source has synced.
 *
 * @param snapshot    the resources exactly as saved ({@code equals} the saved snapshot, same version)
 * @param savedAt     the saving store's clock when it was written
 * @param savedBy     identity of the replica that wrote it
 * @param firstServed file mode: when each object (without a creationTimestamp of its own) was first served, the
 *                    age "older wins" goes by; empty in Kubernetes mode and in files of format version 1
 */
public record StoredSnapshot(XdsSnapshot snapshot, Instant savedAt, String savedBy,
    SortedMap<ResourceKey, Instant> firstServed) {
    public StoredSnapshot {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(savedAt, "savedAt");
        Objects.requireNonNull(savedBy, "savedBy");
        firstServed = Collections.unmodifiableSortedMap(new TreeMap<>(firstServed));
    }

    /** Without first-served times (Kubernetes mode, where objects carry their own creationTimestamp). */
    public StoredSnapshot(XdsSnapshot snapshot, Instant savedAt, String savedBy) {
        this(snapshot, savedAt, savedBy, new TreeMap<>());
    }
}
