package io.holdfast.it.outage;

import io.holdfast.testkit.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One {@code holdfast serve --kubernetes} process. It reaches the API through its own {@link FaultProxy} (or
 * straight, for the iptables scenario), optionally with a second proxy for its status writer alone (the hidden
 * {@code --kube-status-api-server} flag), and keeps its snapshot in its own directory. Its xDS and admin servers
 * bind port 0 at every start; the ports are learned from its log once it listens ({@link ServingPorts}).
 */
final class Replica implements AutoCloseable {
  static final String LEASE_NAMESPACE = "holdfast-system";
  private static final Duration LISTEN_BOUND = Duration.ofSeconds(60);

  private final String identity;
  private final Path dir;
  private final int apiPort;
  private final FaultProxy proxy;
  private final FaultProxy statusProxy;
  private final List<String> extraFlags;
  private final ClusterTimings timings;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
  private ManagedProcess process; // guarded by this
  private ServingPorts ports; // guarded by this; null until the running process has logged them
  private int starts;

  /**
   * @param viaProxy   whether the API is reached through a fault proxy of this replica's own
   * @param statusLink whether the status writer gets a fault proxy of its own (needs {@code viaProxy})
   */
  Replica(String identity, Path dir, int apiPort, boolean viaProxy, boolean statusLink, ClusterTimings timings,
      List<String> extraFlags) {
    if (statusLink && !viaProxy) {
      throw new IllegalArgumentException("a separate status link needs the API reached through a proxy");
    }
    this.identity = identity;
    this.dir = dir;
    this.apiPort = apiPort;
    this.timings = timings;
    this.proxy = viaProxy ? FaultProxy.start("api-" + identity, apiPort) : null;
    this.statusProxy = statusLink ? FaultProxy.start("status-" + identity, apiPort) : null;
    this.extraFlags = List.copyOf(extraFlags);
  }

  String identity() {
    return identity;
  }

  /** The xDS port of the running process, waiting until it listens. */
  int xdsPort() {
    return listening().xds();
  }

  int adminPort() {
    return listening().admin();
  }

  private ServingPorts listening() {
    ManagedProcess p;
    synchronized (this) {
      if (ports != null) {
        return ports;
      }
      p = process;
    }
    ServingPorts learned = ServingPorts.awaitListening(p, LISTEN_BOUND);
    synchronized (this) {
      if (process == p) {
        ports = learned; // unless it was restarted meanwhile: those are the old process's ports
      }
    }
    return learned;
  }

  /** The admin port if the process has said it listens; empty while it starts. */
  private synchronized Optional<Integer> adminPortIfListening() {
    if (ports == null && process != null) {
      ports = ServingPorts.parse(process.logText()).orElse(null);
    }
    return Optional.ofNullable(ports).map(ServingPorts::admin);
  }

  Path snapshotDir() {
    return dir.resolve("snapshot");
  }

  Optional<FaultProxy> proxy() {
    return Optional.ofNullable(proxy);
  }

  /** The status writer's own proxy, when the cluster was started with separate status links. */
  FaultProxy statusProxy() {
    if (statusProxy == null) {
      throw new IllegalStateException(identity + " has no separate status link");
    }
    return statusProxy;
  }

  synchronized ManagedProcess process() {
    return process;
  }

  synchronized void start() {
    try {
      Files.createDirectories(snapshotDir());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int via = proxy == null ? apiPort : proxy.port();
    List<String> args = new ArrayList<>(List.of("serve", "--kubernetes",
        "--upstream-allow-loopback", // the backends of the outage worlds are local processes
        "--kube-api-url", "http://127.0.0.1:" + via,
        "--identity", identity,
        "--lease-namespace", LEASE_NAMESPACE,
        "--lease-duration", timings.leaseFlag(),
        "--renew-deadline", timings.renewDeadline().toMillis() + "ms",
        "--retry-period", timings.retryPeriod().toMillis() + "ms",
        "--lock-timeout", timings.lockTimeout().toMillis() + "ms",
        "--snapshot-dir", snapshotDir().toString(),
        "--xds-address", "127.0.0.1", "--xds-port", "0",
        "--admin-address", "127.0.0.1", "--admin-port", "0"));
    args.addAll(timings.fenceFlags());
    if (statusProxy != null) {
      args.addAll(List.of("--kube-status-api-server", "http://127.0.0.1:" + statusProxy.port()));
    }
    args.addAll(extraFlags);
    starts++;
    ports = null;
    process = ManagedProcess.start(identity, Launcher.holdfast(args), dir.resolve(identity + "-" + starts + ".log"));
  }

  /** Stops the process (SIGTERM, bounded) and returns its exit status. */
  int stop() {
    ManagedProcess p = process();
    return p == null ? -1 : p.stop(); // not under the lock: /state polls of a stopping replica just fail
  }

  /**
   * When the running process logged a line containing {@code text}, at or after {@code sinceMillis}: the
   * replica's own account of a moment (its log lines start with an ISO-8601 UTC time), free of polling delay.
   */
  OptionalLong loggedAt(String text, long sinceMillis) {
    ManagedProcess p = process();
    if (p == null) {
      return OptionalLong.empty();
    }
    for (String line : p.logText().lines().toList()) {
      int space = line.indexOf(' ');
      if (space > 0 && line.contains(text)) {
        try {
          long at = Instant.parse(line.substring(0, space)).toEpochMilli();
          if (at >= sinceMillis) {
            return OptionalLong.of(at);
          }
        } catch (DateTimeParseException e) {
          // a continuation line (stack trace): no time of its own
        }
      }
    }
    return OptionalLong.empty();
  }

  /** Cuts this replica off from the API: connections hang, nothing is delivered (a partition). */
  void cut() {
    requireProxy().blackhole();
    if (statusProxy != null) {
      statusProxy.blackhole();
    }
    Timeline.global().mark("harness", "cut " + identity + " off the API");
  }

  /**
   * Delays everything between this replica and the API (nothing is dropped): the main link (Lease, informers) by
   * {@code main} each way, the status writer's own link by {@code status}.
   */
  void delay(Duration main, Duration status) {
    requireProxy().latency(main);
    statusProxy().latency(status);
    Timeline.global().mark("harness", "delayed " + identity + "'s API link by " + main.toMillis() + " ms, its status"
        + " link by " + status.toMillis() + " ms");
  }

  void restore() {
    requireProxy().pass();
    if (statusProxy != null) {
      statusProxy.pass();
    }
    Timeline.global().mark("harness", "restored " + identity + "'s API access");
  }

  private FaultProxy requireProxy() {
    if (proxy == null) {
      throw new IllegalStateException(identity + " reaches the API directly; there is no proxy to cut");
    }
    return proxy;
  }

  /** {@code GET /state}, or empty when the admin server does not answer (starting, paused, exited). */
  Optional<ReplicaState> state() {
    Optional<Integer> adminPort = adminPortIfListening();
    if (adminPort.isEmpty()) {
      return Optional.empty();
    }
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort.get()
              + "/state"))
          .timeout(Duration.ofMillis(800)).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Optional.of(ReplicaState.parse(r.body())) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** {@code GET /readyz} answers 200: a snapshot is being served. */
  boolean ready() {
    Optional<Integer> adminPort = adminPortIfListening();
    if (adminPort.isEmpty()) {
      return false;
    }
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort.get() + "/readyz"))
          .timeout(Duration.ofMillis(800)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  boolean isLeader() {
    return state().map(ReplicaState::isLeader).orElse(false);
  }

  @Override
  public void close() {
    stop();
    if (proxy != null) {
      proxy.close();
    }
    if (statusProxy != null) {
      statusProxy.close();
    }
  }

  @Override
  public String toString() {
    return identity;
  }
}
