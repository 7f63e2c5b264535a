package io.holdfast.it.outage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A child process the suite started: output to a log file, standard input held open (children that watch it
 * exit when the harness dies), stopped by its own pid only. Every instance is registered until stopped, and a
 * JVM shutdown hook plus {@link ProcessCleanup} stop whatever is left, so a failing test leaks nothing.
 */
final class ManagedProcess implements AutoCloseable {
  private static final Set<ManagedProcess> LIVE = ConcurrentHashMap.newKeySet();
  private static final Duration STOP_BOUND = Duration.ofSeconds(10);

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(ManagedProcess::stopAll, "outage-suite-reaper"));
  }

  private final String name;
  private final Path log;
  private final Process process;
  private volatile boolean paused;

  private ManagedProcess(String name, Path log, Process process) {
    this.name = name;
    this.log = log;
    this.process = process;
  }

  /** Starts {@code command}, appending stdout and stderr to {@code log}. */
  static ManagedProcess start(String name, List<String> command, Path log) {
    try {
      Files.createDirectories(log.getParent());
      Process p = new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
      ManagedProcess mp = new ManagedProcess(name, log, p);
      LIVE.add(mp);
      Timeline.global().mark("harness", "started " + name + " pid=" + p.pid());
      return mp;
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name + ": " + command, e);
    }
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  Path logFile() {
    return log;
  }

  String logText() {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes one line to the process's standard input. */
  synchronized void send(String line) {
    try {
      process.getOutputStream().write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    } catch (IOException e) {
      throw new UncheckedIOException("could not write to " + name, e);
    }
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Optional<Integer> exitCode() {
    return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
  }

  /** SIGSTOP: the process freezes mid-flight, sockets stay open, as in a long GC pause or a frozen VM. */
  void pause() {
    signal("STOP");
    paused = true;
  }

  /** SIGCONT. */
  void resume() {
    signal("CONT");
    paused = false;
  }

  private void signal(String sig) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start();
      if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new IllegalStateException("kill -" + sig + " " + process.pid() + " failed");
      }
      Timeline.global().mark("harness", "SIG" + sig + " " + name + " pid=" + process.pid());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted signalling " + name, e);
    }
  }

  /** SIGTERM, then SIGKILL if it has not ended within a bound; returns the exit status. */
  int stop() {
    try {
      if (paused && process.isAlive()) {
        resume(); // a stopped process cannot handle SIGTERM
      }
      process.destroy();
      if (!process.waitFor(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        process.waitFor(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      LIVE.remove(this);
    }
    return process.isAlive() ? -1 : process.exitValue();
  }

  /** Waits up to {@code bound} for the process to end on its own; the exit status, if it did. */
  Optional<Integer> awaitExit(Duration bound) {
    try {
      if (process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
        LIVE.remove(this);
        return Optional.of(process.exitValue());
      }
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  @Override
  public void close() {
    stop();
  }

  /** Stops every process still registered; safe to call more than once. */
  static void stopAll() {
    for (ManagedProcess p : new ArrayList<>(LIVE)) {
      p.stop();
    }
  }

  static int live() {
    return LIVE.size();
  }

  @Override
  public String toString() {
    return name + "(pid " + process.pid() + ")";
  }
}
