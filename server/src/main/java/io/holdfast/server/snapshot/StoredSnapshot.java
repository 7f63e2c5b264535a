package io.holdfast.server.snapshot;

import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Instant;
import java.util.Objects;

/**
 * A snapshot as read back from disk, with when and by which replica it was written. A loaded snapshot is the
 * last-known config, not a fresh one: serve it as stale until a source has synced.
 *
 * @param snapshot the resources exactly as saved ({@code equals} the saved snapshot, same version)
 * @param savedAt  the saving store's clock when it was written
 * @param savedBy  identity of the replica that wrote it
 */
public record StoredSnapshot(XdsSnapshot snapshot, Instant savedAt, String savedBy) {
    public StoredSnapshot {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(savedAt, "savedAt");
        Objects.requireNonNull(savedBy, "savedBy");
    }
}
