package io.holdfast.it.outage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A "gateway pod": one JVM running {@code io.holdfast.it.demo.XdsCallLoop}, grpc-java's xDS client
 * bootstrapped at one replica, calling {@code xds:///DOMAIN} every {@value #INTERVAL_MS} ms.
 */
final class CallClient implements AutoCloseable {
  static final int INTERVAL_MS = 50;
  private static final JsonMapper JSON = JsonMapper.builder().build();

  record Call(long millis, long seq, boolean ok, String backend, String error) {
  }

  private final String name;
  private final Path out;
  private final ManagedProcess process;
  private final long startedMillis;

  private CallClient(String name, Path out, ManagedProcess process, long startedMillis) {
    this.name = name;
    this.out = out;
    this.process = process;
    this.startedMillis = startedMillis;
  }

  static CallClient start(String name, Replica replica, String domain, Path dir) {
    return start(name, replica.identity(), replica.xdsPort(), domain, dir);
  }

  static CallClient start(String name, String serverName, int xdsPort, String domain, Path dir) {
    Path out = dir.resolve(name + ".calls.jsonl");
    List<String> args = List.of("--xds-server", "127.0.0.1:" + xdsPort, "--target", domain,
        "--node", name, "--interval-ms", Integer.toString(INTERVAL_MS), "--call-timeout-ms", "1000",
        "--first-call-ms", "60000", "--duration-s", "600", "--out", out.toString());
    long started = System.currentTimeMillis();
    ManagedProcess p = ManagedProcess.start(name + "->" + serverName,
        Launcher.javaMain("io.holdfast.it.demo.XdsCallLoop", args), dir.resolve(name + ".log"));
    return new CallClient(name, out, p, started);
  }

  /** The record of a client run elsewhere (no process), for reading its calls. */
  static CallClient readOnly(String name, Path out) {
    return new CallClient(name, out, null, 0);
  }

  String name() {
    return name;
  }

  long startedMillis() {
    return startedMillis;
  }

  ManagedProcess process() {
    return process;
  }

  List<Call> calls() {
    try {
      if (!Files.exists(out)) {
        return List.of();
      }
      String text = Files.readString(out);
      String complete = text.substring(0, text.lastIndexOf('\n') + 1);
      List<Call> calls = new ArrayList<>();
      for (String line : complete.lines().toList()) {
        JsonNode n = JSON.readTree(line);
        calls.add(new Call(n.get("t").asLong(), n.get("seq").asLong(), n.get("ok").asBoolean(),
            n.path("backend").asString(""), n.path("error").asString("")));
      }
      return calls;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  long succeeded() {
    return calls().stream().filter(Call::ok).count();
  }

  /**
   * Calls that failed once the client had been served: failures while it is still getting its first config are
   * start-up (grpc-java fails calls fast while its xDS client backs off from a server it reached too early), not
   * a loss of service, and {@link #timeToFirstSuccess()} measures them.
   */
  long failed() {
    return failures().size();
  }

  /** Succeeded calls answered after {@code sinceMillis}, by the given backend (or any, for null). */
  long succeededSince(long sinceMillis, String backend) {
    return calls().stream().filter(c -> c.ok() && c.millis() >= sinceMillis
        && (backend == null || backend.equals(c.backend()))).count();
  }

  /** Milliseconds from starting the process to its first answered call. */
  Optional<Long> timeToFirstSuccess() {
    return calls().stream().filter(Call::ok).findFirst().map(c -> c.millis() - startedMillis);
  }

  /** Failed calls after the first success (see {@link #failed()}). */
  List<Call> failures() {
    List<Call> all = calls();
    int first = 0;
    while (first < all.size() && !all.get(first).ok()) {
      first++;
    }
    return all.subList(first, all.size()).stream().filter(c -> !c.ok()).toList();
  }

  /** Failed calls before the first success. */
  long startUpFailures() {
    return calls().stream().takeWhile(c -> !c.ok()).count();
  }

  @Override
  public void close() {
    if (process != null) {
      process.stop();
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
