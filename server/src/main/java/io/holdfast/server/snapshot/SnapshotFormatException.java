package io.holdfast.server.snapshot;

/** A stored snapshot file that cannot be used; the message is a short specific reason for the log. */
final class SnapshotFormatException extends Exception {
    private static final long serialVersionUID = 1L;

    SnapshotFormatException(String reason) {
        super(reason, null, false, false); // an expected outcome: the stack trace would only be noise
    }
}
