package io.holdfast.it.outage;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The original reproduction's fault: {@code iptables -I OUTPUT -o lo -p tcp --dport PORT -j DROP}. Each rule
 * added is removed by {@link #close()} and, should the JVM end first, by a shutdown hook.
 */
final class Iptables implements AutoCloseable {
  private final int port;
  private volatile boolean installed;
  private final Thread hook = new Thread(this::removeQuietly, "iptables-cleanup");

  Iptables(int port) {
    this.port = port;
  }

  /** Why the rule cannot be used here, or empty when it can (root, iptables present and working). */
  static Optional<String> unavailable() {
    String user = System.getProperty("user.name");
    if (!"root".equals(user)) {
      return Optional.of("not running as root (user " + user + ")");
    }
    try {
      Result r = run(List.of("iptables", "-w", "-L", "OUTPUT", "-n"));
      return r.status == 0 ? Optional.empty() : Optional.of("iptables -L failed: " + r.output.strip());
    } catch (IOException e) {
      return Optional.of("iptables not found: " + e.getMessage());
    }
  }

  void drop() throws IOException {
    Runtime.getRuntime().addShutdownHook(hook);
    Result r = run(rule("-I"));
    if (r.status != 0) {
      throw new IllegalStateException("iptables -I failed: " + r.output);
    }
    installed = true;
    Timeline.global().mark("harness", "iptables DROP on lo tcp dport " + port);
  }

  void remove() throws IOException {
    if (installed) {
      Result r = run(rule("-D"));
      if (r.status != 0) {
        throw new IllegalStateException("iptables -D failed: " + r.output);
      }
      installed = false;
      Timeline.global().mark("harness", "iptables rule removed");
    }
  }

  private void removeQuietly() {
    try {
      remove();
    } catch (IOException | RuntimeException e) {
      System.err.println("could not remove the iptables rule for port " + port + ": " + e);
    }
  }

  @Override
  public void close() {
    removeQuietly();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException | IllegalArgumentException ignored) {
      // shutting down already, or never added
    }
  }

  private List<String> rule(String op) {
    return new ArrayList<>(List.of("iptables", "-w", op, "OUTPUT", "-o", "lo", "-p", "tcp", "--dport",
        Integer.toString(port), "-j", "DROP"));
  }

  private record Result(int status, String output) {
  }

  private static Result run(List<String> cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, "timed out: " + cmd);
      }
      return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-1, "interrupted");
    }
  }
}
