package io.holdfast.server.snapshot;

/** What {@link SnapshotStore#save} did. Failures are also logged and counted; they are never thrown. */
public enum SaveOutcome {
    /** The snapshot is now on disk. */
    WRITTEN,
    /** Its version equals the last one this store wrote, so the file was left alone. */
    UNCHANGED,
    /** Nothing was written (I/O error or an unsupported resource); the previous file, if any, is intact. */
    FAILED
}
