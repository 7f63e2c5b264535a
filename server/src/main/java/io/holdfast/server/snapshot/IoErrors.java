package io.holdfast.server.snapshot;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Short reasons for I/O failures: NIO exception messages are often just the path, which the log already has. */
final class IoErrors {
    private IoErrors() {}

    static String describe(Exception e) {
        if (e instanceof AccessDeniedException denied) {
            return "permission denied: " + denied.getFile();
        }
        if (e instanceof NoSuchFileException missing) {
            return "no such file or directory: " + missing.getFile();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return fs.getReason() + (fs.getFile() == null ? "" : ": " + fs.getFile());
        }
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
