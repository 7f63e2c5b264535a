package io.holdfast.server.hostile;

import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code java -Xmx256m RunningServerProbe DIR}: starts a file-mode server on {@code DIR/config} and, in the
 * corpus's order, drops each hostile input into it, waits until the server reports the input's reason (at most
 * {@link #REPORTED}), then adds an unrelated VirtualService and waits until that is served (at most
 * {@link #EDIT_APPLIED}). One server receives every input one after another, as a real one would: a fault an input
 * leaves behind (a dead watcher, a pinned thread, retained memory) shows on the inputs after it.
 *
 * <p>Each input is its own file, removed (and its removal built) before the next is written. Prints one line per
 * input, {@code SERVED NAME reportedMs=N editMs=N peakHeapMiB=N retainedBeforeMiB=N}, then {@code PROBE ok};
 * on a missed wait, {@code PROBE failed NAME: WHAT} and exit status 1. An OutOfMemoryError or StackOverflowError in
 * a worker ends this process with status 70 (the server's own rule), so {@code HostileInputTest} sees it too.
 */
public final class RunningServerProbe {

  /** How long the server may take to report an input's reason; inputs are a few MB at most. */
  static final Duration REPORTED = Duration.ofSeconds(10);
  /** The promise: a later unrelated edit is applied within 2 s after each hostile input. */
  static final Duration EDIT_APPLIED = Duration.ofSeconds(2);

  private RunningServerProbe() {
  }

  public static void main(String[] args) throws Exception {
    Path config = Files.createDirectories(Path.of(args[0]).resolve("config"));
    Files.writeString(config.resolve("base.yaml"), HostileCorpus.BASE);
    String current = "start";
    try (HoldfastServer server = HoldfastServer.start(new ServeSettings(config, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      await("first build").atMost(Duration.ofSeconds(30)).until(() -> server.statusBoard().current().isPresent());
      int edit = 0;
      for (HostileCorpus.Input input : HostileCorpus.inputs()) {
        current = input.name();
        long retained = retainedHeapMiB();
        resetPeaks();
        Path hostile = config.resolve("hostile-" + input.name() + ".yaml");
        long start = System.nanoTime();
        Files.writeString(hostile, input.yaml());
        await(input.name() + " reported").atMost(REPORTED).until(() -> reported(server, input));
        long reportedMs = (System.nanoTime() - start) / 1_000_000;
        String name = "edit-" + ++edit;
        long editStart = System.nanoTime();
        Files.writeString(config.resolve(name + ".yaml"), """
            apiVersion: gateway.holdfast.io/v1
            kind: VirtualService
            metadata: {name: %s, namespace: default}
            spec:
              domains: [%s.example]
              routes: [{match: {prefix: /}, route: {upstream: up}}]
            """.formatted(name, name));
        ResourceKey key = new ResourceKey("VirtualService", "default", name);
        await("the edit after " + input.name()).atMost(EDIT_APPLIED).until(() -> server.statusBoard()
            .statusOf(key).map(s -> s.state() != ResourceStatus.State.REJECTED).orElse(false));
        long editMs = (System.nanoTime() - editStart) / 1_000_000;
        System.out.println("SERVED " + input.name() + " reportedMs=" + reportedMs + " editMs=" + editMs
            + " peakHeapMiB=" + peakHeapMiB() + " retainedBeforeMiB=" + retained);
        // Gone before the next arrives: written over at once, a broken input's file would keep the previous
        // input's last good version served under it, and every later input would meet both.
        Files.delete(hostile);
        await(input.name() + " removed").atMost(REPORTED).until(() -> removed(server, input, hostile));
      }
    } catch (Throwable t) {
      System.out.println("PROBE failed " + current + ": " + t);
      System.out.flush();
      System.exit(1);
    }
    System.out.println("PROBE ok");
    System.out.flush();
    System.exit(0);
  }

  /** Whether the server's latest build shows the input's reason, on its object or as a file error. */
  static boolean reported(HoldfastServer server, HostileCorpus.Input input) {
    if (input.object().isEmpty()) {
      return server.statusBoard().current().map(b -> b.manifestErrors().toString().contains(input.expected()))
          .orElse(false);
    }
    return server.statusBoard().statusOf(input.key())
        .map(s -> s.problems().toString().contains(input.expected())).orElse(false);
  }

  /** Whether the server's latest build no longer has the input's object nor an error in its file. */
  static boolean removed(HoldfastServer server, HostileCorpus.Input input, Path file) {
    boolean fileErrors = server.statusBoard().current()
        .map(b -> b.manifestErrors().toString().contains(file.getFileName().toString())).orElse(true);
    if (fileErrors || input.object().isEmpty()) {
      return !fileErrors;
    }
    return server.statusBoard().statusOf(input.key()).isEmpty();
  }

  /** Heap in use after a full collection: what the server holds between inputs, to show nothing piles up. */
  private static long retainedHeapMiB() {
    System.gc();
    Runtime runtime = Runtime.getRuntime();
    return (runtime.totalMemory() - runtime.freeMemory()) >> 20;
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  /** The heap pools' peak usage since {@link #resetPeaks}: garbage included, so an upper bound of what it held. */
  private static long peakHeapMiB() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    return peak >> 20;
  }
}
