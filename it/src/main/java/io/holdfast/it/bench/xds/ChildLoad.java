package io.holdfast.it.bench.xds;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** The parent's handle on a {@link LoadClient} JVM: starts it, sends commands, waits for its answers. */
final class ChildLoad implements AutoCloseable {
  private final Process process;
  private final PrintStream commands;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  /** Counters the child reports; {@code bytes} is every response's serialized size plus its gRPC header. */
  record Count(long responses, long cpuNanos, long errors, long bytes) {
  }

  /**
   * The child's machine budget: one event loop thread for all its connections (responses are handled on it),
   * one GC thread and two JIT compiler threads (the least tiered compilation takes), so in steady state it
   * uses at most about one of the machine's two cores; the server JVM has the whole machine. Its CPU time is measured and reported beside the server's.
   */
  static final int EVENT_LOOP_THREADS = 1;

  private ChildLoad(Process process) {
    this.process = process;
    this.commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("ERROR " + e);
      }
      lines.add("EXITED");
    }, "load-client-reader");
    reader.setDaemon(true);
    reader.start();
  }

  static ChildLoad start(int port, int streams, int channels, boolean nack, boolean delta, Path log) {
    String java = ProcessHandle.current().info().command().orElse("java");
    List<String> cmd = new ArrayList<>(List.of(java, "-Xms1g", "-Xmx3g", "-XX:+UseParallelGC",
        "-XX:ParallelGCThreads=1", "-XX:CICompilerCount=2", "-XX:-UseDynamicNumberOfCompilerThreads",
        "-Dio.grpc.netty.shaded.io.netty.eventLoopThreads=" + EVENT_LOOP_THREADS,
        "-cp", System.getProperty("java.class.path"), LoadClient.class.getName(),
        String.valueOf(port), String.valueOf(streams), String.valueOf(channels), nack ? "nack" : "ack",
        delta ? "delta" : "sotw", String.valueOf(EVENT_LOOP_THREADS)));
    try {
      return new ChildLoad(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the load client JVM", e);
    }
  }

  /** The next line starting with one of {@code prefixes}; fails on EXITED, ERROR or after {@code bound}. */
  String await(Duration bound, String... prefixes) {
    long deadline = System.nanoTime() + bound.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      String line;
      try {
        line = left <= 0 ? null : lines.poll(left, TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for the load client", e);
      }
      if (line == null) {
        throw new IllegalStateException("load client gave no " + String.join("/", prefixes) + " within " + bound);
      }
      if (line.startsWith("EXITED") || line.startsWith("ERROR")) {
        throw new IllegalStateException("load client failed: " + line);
      }
      for (String p : prefixes) {
        if (line.startsWith(p)) {
          return line;
        }
      }
    }
  }

  /** Checks the child's System.nanoTime() lies between ours before and after asking: one clock for both. */
  void checkSharedClock() {
    long before = System.nanoTime();
    commands.println("PING");
    long theirs = Long.parseLong(await(Duration.ofSeconds(10), "PONG").split(" ")[1]);
    long after = System.nanoTime();
    if (theirs < before || theirs > after) {
      throw new IllegalStateException("the load client's monotonic clock differs from ours: " + before + " <= "
          + theirs + " <= " + after + " does not hold; latencies across JVMs would be wrong");
    }
  }

  /** Arms an expectation for {@code versions}; returns once the child confirmed it. */
  void expect(Map<String, String> versions, Duration timeout) {
    commands.println("EXPECT " + timeout.toMillis() + " " + versions.entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" ")));
    await(Duration.ofSeconds(10), "ARMED");
  }

  Count count() {
    commands.println("COUNT");
    String[] w = await(Duration.ofSeconds(30), "COUNT ").split(" ");
    return new Count(Long.parseLong(w[1]), Long.parseLong(w[2]), Long.parseLong(w[3]), Long.parseLong(w[4]));
  }

  /** Null if every stream holds the same (complete) state of each type, else what differs. */
  String verify() {
    commands.println("VERIFY");
    String line = await(Duration.ofSeconds(60), "VERIFIED", "MISMATCH");
    return line.startsWith("VERIFIED") ? null : line;
  }

  @Override
  public void close() {
    commands.println("QUIT");
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
