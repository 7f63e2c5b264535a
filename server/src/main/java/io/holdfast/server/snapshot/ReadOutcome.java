package io.holdfast.server.snapshot;

import java.util.Objects;

/** The result of reading the snapshot file, before it is logged and counted. */
sealed interface ReadOutcome {
    record Found(StoredSnapshot stored) implements ReadOutcome {
        public Found {
            Objects.requireNonNull(stored, "stored");
        }
    }

    record Missing() implements ReadOutcome {}

    /** @param reason specific cause, e.g. {@code checksum mismatch (stored 1a2b3c4d, computed 00ff00ff)} */
    record Unusable(String reason) implements ReadOutcome {
        public Unusable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
