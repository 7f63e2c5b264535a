package io.holdfast.server.source;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One complete read of a config directory: every readable {@code *.yaml}/{@code *.yml} file, every PEM file
 * ({@code *.pem}, {@code *.crt}, {@code *.key}, {@code *.cer}) in it or its subdirectories, and every one that could
 * not be read. Always the whole directory, never a delta, so a consumer can rebuild from it alone.
 *
 * @param contents   absolute file path to UTF-8 text (a leading byte-order mark removed), sorted by path
 * @param unreadable files that matched but failed, in path order; the other files are still in {@code contents}
 * @param readAt     when the directory was read, from the watcher's clock
 * @param tlsFiles   PEM files by path relative to the directory ({@code /}-separated, e.g. {@code tls/a.crt}), as
 *                   sslConfigs name them; may hold private keys, so never log this record's content
 */
public record ConfigFiles(SortedMap<Path, String> contents, List<FileProblem> unreadable, Instant readAt,
    SortedMap<String, String> tlsFiles) {
  public ConfigFiles {
    contents = Collections.unmodifiableSortedMap(new TreeMap<>(contents));
    tlsFiles = Collections.unmodifiableSortedMap(new TreeMap<>(tlsFiles));
    unreadable = List.copyOf(unreadable);
    Objects.requireNonNull(readAt, "readAt");
  }

  /** A read without PEM files. */
  public ConfigFiles(SortedMap<Path, String> contents, List<FileProblem> unreadable, Instant readAt) {
    this(contents, unreadable, readAt, new TreeMap<>());
  }

  /** True when both reads saw the same files with the same text and the same problems. */
  public boolean sameFilesAs(ConfigFiles other) {
    return other != null && contents.equals(other.contents) && unreadable.equals(other.unreadable)
        && tlsFiles.equals(other.tlsFiles);
  }

  /** Names files and sizes only: PEM files may hold private keys. */
  @Override
  public String toString() {
    return "ConfigFiles[contents=" + contents.keySet() + ", unreadable=" + unreadable + ", readAt=" + readAt
        + ", tlsFiles=" + tlsFiles.keySet() + "]";
  }
}
