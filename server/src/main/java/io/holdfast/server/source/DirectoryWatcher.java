package io.holdfast.server.source;

import static java.nio.file.StandardWatchEventKinds.ENTRY_CREATE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_DELETE;
import static java.nio.file.StandardWatchEventKinds.ENTRY_MODIFY;
import static java.nio.file.StandardWatchEventKinds.OVERFLOW;

import io.holdfast.common.Debounce;
import io.holdfast.common.WorkerFailures;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one config directory and delivers a full {@link ConfigFiles} read to a listener: once at start, then
 * after each burst of changes (see {@link Debounce}). A read identical to the previous delivery is dropped.
 *
 * <p>One dedicated thread waits on the {@link WatchService}, coalesces events, reads and calls the listener, so
 * reads never overlap and the listener is never called concurrently. Events are not filtered to exact file
 * names beyond a cheap check: renames into place and Kubernetes ConfigMap updates (which swap a {@code ..data}
 * symlink) are caught because any relevant event triggers a re-read of the whole directory.
 *
 * <p>Subdirectories (not dot-directories) are watched too, for the PEM files sslConfigs name there: any event in
 * one triggers a re-read, and each read registers subdirectories that appeared since. So replacing a certificate
 * file (or a mounted Secret's content) is served like a YAML edit.
 *
 * <p>If the directory itself cannot be listed (unmounted, deleted) nothing is delivered, rather than an empty
 * set that would wipe the config; the watcher retries every {@link #RETRY} and resumes when it is back.
 */
public final class DirectoryWatcher implements AutoCloseable {
  static final Duration RETRY = Duration.ofSeconds(1);
  /** Longest single wait, so the loop re-checks its clock and state even when nothing happens. */
  private static final Duration MAX_WAIT = Duration.ofSeconds(1);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
  private static final Logger LOG = LoggerFactory.getLogger(DirectoryWatcher.class);
  /** The watcher's label in {@code holdfast_worker_failures_total}. */
  public static final String WORKER = "config-watcher";

  private final Path directory;
  private final ConfigFilesListener listener;
  private final Clock clock;
  private final WatchService watchService;
  private final DirectoryReader reader;
  private final Debounce debouncer;
  private final Thread thread;
  private volatile boolean closed;

  // Loop state, touched only by the watcher thread.
  private WatchKey key;
  private final java.util.Map<Path, WatchKey> subdirectoryKeys = new java.util.HashMap<>();
  private Instant retryAt;
  private boolean listingFailed;
  private ConfigFiles lastDelivered;

  private DirectoryWatcher(Path directory, ConfigFilesListener listener, Debounce.Timing timing, Clock clock)
      throws IOException {
    this.directory = directory;
    this.listener = listener;
    this.clock = clock;
    this.reader = new DirectoryReader(directory, clock);
    this.debouncer = new Debounce(timing);
    this.watchService = directory.getFileSystem().newWatchService();
    try {
      // Registered before the first read, so no change between the two can be missed.
      this.key = register();
    } catch (IOException | RuntimeException e) {
      watchService.close();
      throw e;
    }
    this.thread = new Thread(this::run, "holdfast-config-watcher");
    this.thread.setDaemon(true);
  }

  /** Starts watching with {@link Debounce.Timing#DEFAULT} and the UTC system clock. */
  public static DirectoryWatcher start(Path directory, ConfigFilesListener listener) throws IOException {
    return start(directory, listener, Debounce.Timing.DEFAULT, Clock.systemUTC());
  }

  /**
   * Starts watching; the first delivery follows shortly on the watcher thread.
   *
   * @throws IllegalArgumentException if {@code directory} is not a directory
   * @throws IOException              if the directory cannot be watched
   */
  public static DirectoryWatcher start(Path directory, ConfigFilesListener listener, Debounce.Timing timing,
      Clock clock) throws IOException {
    Path dir = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("not a directory: " + dir);
    }
    DirectoryWatcher watcher = new DirectoryWatcher(dir, Objects.requireNonNull(listener, "listener"),
        Objects.requireNonNull(timing, "timing"), Objects.requireNonNull(clock, "clock"));
    watcher.thread.start();
    LOG.info("config watcher started dir={} holdOffMs={} capMs={}", dir, timing.holdOff().toMillis(),
        timing.cap().toMillis());
    return watcher;
  }

  public Path directory() {
    return directory;
  }

  /** Stops the thread; waits for a listener call in progress up to a bound, then interrupts it. Idempotent. */
  @Override
  public void close() {
    closed = true;
    try {
      watchService.close(); // wakes the poll at once
    } catch (IOException e) {
      LOG.warn("config watcher close failed dir={} error={}", directory, e.toString());
    }
    if (Thread.currentThread() == thread) {
      return; // closed from inside the listener: the loop ends after this call returns
    }
    try {
      thread.join(CLOSE_WAIT.toMillis());
      if (thread.isAlive()) {
        LOG.warn("config watcher still busy in listener after {}ms, interrupting dir={}",
            CLOSE_WAIT.toMillis(), directory);
        thread.interrupt();
        thread.join(CLOSE_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  boolean isRunning() {
    return thread.isAlive();
  }

  private WatchKey register() throws IOException {
    return directory.register(watchService, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY);
  }

  private void run() {
    try {
      boolean first = true;
      while (!closed) {
        try {
          if (first) {
            first = false;
            refresh(clock.instant());
          }
          step();
        } catch (ClosedWatchServiceException e) {
          throw e;
        } catch (InterruptedException e) {
          throw e;
        } catch (Throwable e) {
          // Never let one bad iteration end watching; the bounded wait keeps this from spinning. A fatal error
          // (out of memory, stack overflow) ends the process instead, through WorkerFailures: a dead watcher
          // would apply no edit again while every probe stayed green.
          LOG.error("config watcher iteration failed dir={} error={}", directory, e.toString());
          WorkerFailures.caught(WORKER, e);
          retryAt = clock.instant().plus(RETRY);
        }
      }
    } catch (ClosedWatchServiceException | InterruptedException e) {
      // close() was called
    } finally {
      LOG.info("config watcher stopped dir={}", directory);
    }
  }

  private void step() throws InterruptedException {
    WatchKey signalled = watchService.poll(waitMillis(clock.instant()), TimeUnit.MILLISECONDS);
    while (signalled != null) {
      if (hasRelevantEvent(signalled, signalled != key)) {
        debouncer.eventAt(nanos(clock.instant()));
      }
      if (!signalled.reset() && signalled == key) {
        LOG.warn("config directory no longer watchable, will retry dir={}", directory);
        key = null;
        retryAt = clock.instant().plus(RETRY);
      } else if (!signalled.isValid()) {
        subdirectoryKeys.values().remove(signalled); // a subdirectory went away; a re-read follows its event
      }
      signalled = watchService.poll(); // drain whatever else is queued
    }
    Instant now = clock.instant();
    if (retryAt != null && !now.isBefore(retryAt)) {
      retryAt = null;
      if (key == null) {
        tryRegister();
      }
      refresh(now);
    } else if (debouncer.isDue(nanos(now))) {
      refresh(now);
    }
  }

  /** The wall clock on the debounce's nanosecond timeline (good until 2262); a step back makes a burst due. */
  private static long nanos(Instant t) {
    return TimeUnit.SECONDS.toNanos(t.getEpochSecond()) + t.getNano();
  }

  private long waitMillis(Instant now) {
    Duration wait = MAX_WAIT;
    if (debouncer.pending()) {
      wait = min(wait, Duration.ofNanos(debouncer.dueAt() - nanos(now)));
    }
    if (retryAt != null) {
      wait = min(wait, Duration.between(now, retryAt));
    }
    return Math.max(1, wait.toMillis());
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static boolean hasRelevantEvent(WatchKey signalled, boolean subdirectory) {
    for (WatchEvent<?> event : signalled.pollEvents()) {
      if (event.kind() == OVERFLOW || subdirectory) {
        return true; // events were lost: only a re-read is safe; a subdirectory holds only what PEM reads want
      }
      String name = String.valueOf(event.context());
      // "..data" and "..<timestamp>" are how a mounted ConfigMap swaps in new content; a created entry may be a
      // new subdirectory of PEM files.
      if (name.startsWith("..") || DirectoryReader.isConfigName(name) || DirectoryReader.isTlsName(name)
          || (event.kind() == ENTRY_CREATE && !name.startsWith("."))) {
        return true;
      }
    }
    return false;
  }

  /** Watches the subdirectories PEM files are read from that are not watched yet. */
  private void watchSubdirectories() {
    for (Path dir : reader.tlsDirectories()) {
      if (!subdirectoryKeys.containsKey(dir)) {
        try {
          subdirectoryKeys.put(dir, dir.register(watchService, ENTRY_CREATE, ENTRY_DELETE, ENTRY_MODIFY));
        } catch (IOException | RuntimeException e) {
          LOG.warn("config subdirectory not watchable, its PEM files are re-read with the next change dir={} "
              + "error={}", dir, e.toString());
        }
      }
    }
  }

  private void tryRegister() {
    try {
      key = register();
      LOG.info("config directory watchable again dir={}", directory);
    } catch (IOException | RuntimeException e) {
      retryAt = clock.instant().plus(RETRY);
    }
  }

  private void refresh(Instant now) {
    debouncer.clear();
    watchSubdirectories(); // before the read, so no change between the two can be missed
    ConfigFiles files;
    try {
      files = reader.read();
    } catch (IOException e) {
      if (!listingFailed) {
        LOG.warn("config directory unreadable, keeping last delivered config dir={} error={}",
            directory, e.toString());
      }
      listingFailed = true;
      retryAt = now.plus(RETRY);
      return;
    }
    listingFailed = false;
    if (files.sameFilesAs(lastDelivered)) {
      return;
    }
    lastDelivered = files;
    for (FileProblem problem : files.unreadable()) {
      LOG.warn("config file unreadable path={} reason={}", problem.path(), problem.reason());
    }
    LOG.info("config directory read dir={} files={} unreadable={}", directory, files.contents().size(),
        files.unreadable().size());
    try {
      listener.onConfigFiles(files);
    } catch (RuntimeException e) {
      LOG.error("config listener failed dir={} error={}", directory, e.toString());
      WorkerFailures.caught(WORKER, e);
    }
  }
}
