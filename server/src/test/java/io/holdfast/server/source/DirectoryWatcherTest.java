package io.holdfast.server.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.holdfast.common.Debounce;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DirectoryWatcherTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir
  Path dir;

  private final List<ConfigFiles> deliveries = new CopyOnWriteArrayList<>();
  private final Set<String> threads = ConcurrentHashMap.newKeySet();
  private DirectoryWatcher watcher;

  @AfterEach
  void stop() {
    if (watcher != null) {
      watcher.close();
    }
  }

  private void start() throws IOException {
    watcher = DirectoryWatcher.start(dir, files -> {
      threads.add(Thread.currentThread().getName());
      deliveries.add(files);
    });
  }

  private ConfigFiles latest() {
    return deliveries.get(deliveries.size() - 1);
  }

  private String latestContent(String name) {
    return deliveries.isEmpty() ? null : latest().contents().get(dir.resolve(name));
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  @Test
  void deliversOnceAtStartWithOnlyConfigFiles() throws IOException {
    write("a.yaml", "a: 1");
    write("b.yml", "b: 2");
    write("notes.txt", "ignored");
    write(".a.yaml.swp", "editor swap file");
    Files.createDirectory(dir.resolve("sub"));
    Instant before = Instant.now();

    start();

    await().atMost(WAIT).until(() -> deliveries.size() == 1);
    ConfigFiles first = latest();
    assertThat(first.contents()).containsOnlyKeys(dir.resolve("a.yaml"), dir.resolve("b.yml"));
    assertThat(first.contents()).containsEntry(dir.resolve("a.yaml"), "a: 1");
    assertThat(first.unreadable()).isEmpty();
    assertThat(first.readAt()).isAfterOrEqualTo(before.minusSeconds(1));
    assertThat(threads).containsExactly("holdfast-config-watcher");
  }

  @Test
  void readAtComesFromTheInjectedClock() throws IOException {
    Instant fixed = Instant.parse("2030-05-06T07:08:09Z");
    watcher = DirectoryWatcher.start(dir, deliveries::add, Debounce.Timing.DEFAULT,
        Clock.fixed(fixed, ZoneOffset.UTC));

    await().atMost(WAIT).until(() -> !deliveries.isEmpty());
    assertThat(latest().readAt()).isEqualTo(fixed);
  }

  @Test
  void editIsDeliveredOnceWithTheNewContent() throws IOException {
    write("gw.yaml", "v: 1");
    start();
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    write("gw.yaml", "v: 2");

    await().atMost(WAIT).until(() -> "v: 2".equals(latestContent("gw.yaml")));
    // An edit is one or two inotify events (truncate, write) within the hold-off: one more delivery, and no
    // further duplicate follows once the directory is quiet again. Only if the writing thread is held up
    // between its truncate and its write for longer than the hold-off (a GC pause on a loaded machine) is the
    // empty file seen on its own first: then two, never the same content twice.
    int settled = deliveries.size();
    await().during(Duration.ofMillis(700)).atMost(WAIT).until(() -> deliveries.size() == settled);
    List<String> seen = deliveries.subList(1, settled).stream()
        .map(d -> String.valueOf(d.contents().get(dir.resolve("gw.yaml")))).toList();
    assertThat(seen).as("deliveries after the first").endsWith("v: 2").doesNotHaveDuplicates()
        .hasSizeLessThanOrEqualTo(2);
    if (seen.size() == 2) {
      assertThat(seen.get(0)).as("the only content in between: the truncated file").isEmpty();
    }
  }

  @Test
  void burstOfWritesIsCoalescedAndTheLastContentWins() throws IOException {
    write("gw.yaml", "v: 0");
    start();
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    int writes = 20;
    for (int i = 1; i <= writes; i++) {
      write("gw.yaml", "v: " + i);
    }

    await().atMost(WAIT).until(() -> ("v: " + writes).equals(latestContent("gw.yaml")));
    assertThat(deliveries.size() - 1).isBetween(1, writes - 1);
  }

  @Test
  void steadyWritesStillDeliverWithinTheCap() throws Exception {
    watcher = DirectoryWatcher.start(dir, deliveries::add,
        new Debounce.Timing(Duration.ofMillis(300), Duration.ofMillis(400)), Clock.systemUTC());
    await().atMost(WAIT).until(() -> deliveries.size() == 1);
    AtomicInteger written = new AtomicInteger();
    ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
    try {
      // A write every 20 ms never leaves a 300 ms quiet gap, so only the cap can cause these deliveries.
      writer.scheduleAtFixedRate(() -> {
        try {
          write("gw.yaml", "v: " + written.incrementAndGet());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, 0, 20, TimeUnit.MILLISECONDS);

      await().atMost(WAIT).until(() -> deliveries.size() >= 3);
    } finally {
      writer.shutdownNow();
      assertThat(writer.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(deliveries.size() - 1).isLessThan(written.get());
    assertThat(deliveries.get(1).contents()).containsKey(dir.resolve("gw.yaml"));
  }

  @Test
  void deletedFileIsGone() throws IOException {
    write("a.yaml", "a: 1");
    Path b = write("b.yaml", "b: 1");
    start();
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    Files.delete(b);

    await().atMost(WAIT).until(() -> deliveries.size() == 2);
    assertThat(latest().contents()).containsOnlyKeys(dir.resolve("a.yaml"));
  }

  @Test
  void renameIntoPlaceIsSeen() throws IOException {
    write("gw.yaml", "v: old");
    start();
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    Path temp = write("gw.yaml.tmp~", "v: new");
    Files.move(temp, dir.resolve("gw.yaml"), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);

    await().atMost(WAIT).until(() -> "v: new".equals(latestContent("gw.yaml")));
    assertThat(latest().contents()).containsOnlyKeys(dir.resolve("gw.yaml"));
  }

  @Test
  void configMapStyleSymlinkSwapIsSeen() throws IOException {
    // Kubernetes mounts: gw.yaml -> ..data/gw.yaml, ..data -> ..<timestamp>; updates swap ..data atomically.
    Files.createDirectory(dir.resolve("..v1"));
    Files.writeString(dir.resolve("..v1/gw.yaml"), "v: 1");
    Files.createSymbolicLink(dir.resolve("..data"), Path.of("..v1"));
    Files.createSymbolicLink(dir.resolve("gw.yaml"), Path.of("..data/gw.yaml"));
    start();
    await().atMost(WAIT).until(() -> "v: 1".equals(latestContent("gw.yaml")));

    Files.createDirectory(dir.resolve("..v2"));
    Files.writeString(dir.resolve("..v2/gw.yaml"), "v: 2");
    Files.createSymbolicLink(dir.resolve("..data_tmp"), Path.of("..v2"));
    Files.move(dir.resolve("..data_tmp"), dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);

    await().atMost(WAIT).until(() -> "v: 2".equals(latestContent("gw.yaml")));
  }

  @Test
  void unreadableFilesAreProblemsAndTheOthersStillArrive() throws IOException {
    write("good.yaml", "ok: true");
    Files.write(dir.resolve("bad.yaml"), new byte[] {'a', ':', ' ', (byte) 0xC3, (byte) 0x28});
    Files.createDirectory(dir.resolve("folder.yaml"));
    Files.createSymbolicLink(dir.resolve("dangling.yml"), dir.resolve("nowhere"));
    Files.write(dir.resolve("bom.yaml"), new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'x', ':', '1'});

    start();

    await().atMost(WAIT).until(() -> !deliveries.isEmpty());
    assertThat(latest().contents()).containsOnlyKeys(dir.resolve("good.yaml"), dir.resolve("bom.yaml"));
    assertThat(latestContent("bom.yaml")).isEqualTo("x:1");
    assertThat(latest().unreadable()).containsExactly(
        new FileProblem(dir.resolve("bad.yaml"), "not valid UTF-8"),
        new FileProblem(dir.resolve("dangling.yml"), "broken symbolic link"),
        new FileProblem(dir.resolve("folder.yaml"), "is a directory"));
  }

  @Test
  void failingListenerDoesNotStopWatching() throws IOException {
    write("gw.yaml", "v: 1");
    watcher = DirectoryWatcher.start(dir, files -> {
      deliveries.add(files);
      throw new IllegalStateException("listener bug");
    });
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    write("gw.yaml", "v: 2");

    await().atMost(WAIT).until(() -> "v: 2".equals(latestContent("gw.yaml")));
    assertThat(watcher.isRunning()).isTrue();
  }

  @Test
  void directoryThatVanishesDeliversNothingAndResumesWhenBack() throws IOException {
    Path sub = Files.createDirectory(dir.resolve("config"));
    Files.writeString(sub.resolve("gw.yaml"), "v: 1");
    watcher = DirectoryWatcher.start(sub, deliveries::add);
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    Files.delete(sub.resolve("gw.yaml"));
    await().atMost(WAIT).until(() -> deliveries.size() == 2 && latest().contents().isEmpty());
    Files.delete(sub);
    Files.createDirectory(sub);
    Files.writeString(sub.resolve("gw.yaml"), "v: 3");

    await().atMost(WAIT).until(() -> "v: 3".equals(latest().contents().get(sub.resolve("gw.yaml"))));
    assertThat(deliveries).allSatisfy(files -> assertThat(files.unreadable()).isEmpty());
  }

  @Test
  void closeStopsTheThreadPromptly() throws IOException {
    start();
    await().atMost(WAIT).until(() -> deliveries.size() == 1);

    long started = System.nanoTime();
    watcher.close();

    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
    assertThat(watcher.isRunning()).isFalse();
    watcher.close(); // idempotent
  }

  @Test
  void rejectsAPathThatIsNotADirectory() throws IOException {
    Path file = write("gw.yaml", "");

    assertThatIllegalArgumentException().isThrownBy(() -> DirectoryWatcher.start(file, deliveries::add))
        .withMessageContaining("not a directory");
  }
}
