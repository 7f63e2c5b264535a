package io.holdfast.server.source;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One complete read of a config directory: every readable {@code *.yaml}/{@code *.yml} file and every one that
 * could not be read. Always the whole directory, never a delta, so a consumer can rebuild from it alone.
 *
 * @param contents   absolute file path to UTF-8 text (a leading byte-order mark removed), sorted by path
 * @param unreadable files that matched but failed, in path order; the other files are still in {@code contents}
 * @param readAt     when the directory was read, from the watcher's clock
 */
public record ConfigFiles(SortedMap<Path, String> contents, List<FileProblem> unreadable, Instant readAt) {
  public ConfigFiles {
    contents = Collections.unmodifiableSortedMap(new TreeMap<>(contents));
    unreadable = List.copyOf(unreadable);
    Objects.requireNonNull(readAt, "readAt");
  }

  /** True when both reads saw the same files with the same text and the same problems. */
  public boolean sameFilesAs(ConfigFiles other) {
    return other != null && contents.equals(other.contents) && unreadable.equals(other.unreadable);
  }
}
