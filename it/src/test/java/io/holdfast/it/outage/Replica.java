package io.holdfast.it.outage;

import io.holdfast.testkit.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@code holdfast serve --kubernetes} process. It reaches the API through its own {@link FaultProxy} (or
 * straight, for the iptables scenario), keeps its snapshot in its own directory, and keeps its xDS and admin
 * ports across restarts (clients' bootstraps name them).
 */
final class Replica implements AutoCloseable {
  static final String LEASE_NAMESPACE = "holdfast-system";

  private final String identity;
  private final Path dir;
  private final int apiPort;
  private final FaultProxy proxy;
  private final int xdsPort;
  private final int adminPort;
  private final List<String> extraFlags;
  private final ClusterTimings timings;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
  private ManagedProcess process;
  private int starts;

  /**
   * @param viaProxy whether the API is reached through a fault proxy of this replica's own
   */
  Replica(String identity, Path dir, int apiPort, boolean viaProxy, ClusterTimings timings, List<String> extraFlags) {
    this.identity = identity;
    this.dir = dir;
    this.apiPort = apiPort;
    this.timings = timings;
    this.proxy = viaProxy ? FaultProxy.start("api-" + identity, apiPort) : null;
    this.xdsPort = freePort();
    this.adminPort = freePort();
    this.extraFlags = List.copyOf(extraFlags);
  }

  String identity() {
    return identity;
  }

  int xdsPort() {
    return xdsPort;
  }

  int adminPort() {
    return adminPort;
  }

  Path snapshotDir() {
    return dir.resolve("snapshot");
  }

  Optional<FaultProxy> proxy() {
    return Optional.ofNullable(proxy);
  }

  ManagedProcess process() {
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
        "--kube-api-url", "http://127.0.0.1:" + via,
        "--identity", identity,
        "--lease-namespace", LEASE_NAMESPACE,
        "--lease-duration", timings.leaseFlag(),
        "--renew-deadline", timings.renewDeadline().toMillis() + "ms",
        "--retry-period", timings.retryPeriod().toMillis() + "ms",
        "--lock-timeout", timings.lockTimeout().toMillis() + "ms",
        "--snapshot-dir", snapshotDir().toString(),
        "--xds-address", "127.0.0.1", "--xds-port", Integer.toString(xdsPort),
        "--admin-address", "127.0.0.1", "--admin-port", Integer.toString(adminPort)));
    args.addAll(extraFlags);
    starts++;
    process = ManagedProcess.start(identity, Launcher.holdfast(args), dir.resolve(identity + "-" + starts + ".log"));
  }

  /** Stops the process (SIGTERM, bounded) and returns its exit status. */
  synchronized int stop() {
    return process == null ? -1 : process.stop();
  }

  /** Cuts this replica off from the API: connections hang, nothing is delivered (a partition). */
  void cut() {
    requireProxy().blackhole();
    Timeline.global().mark("harness", "cut " + identity + " off the API");
  }

  void restore() {
    requireProxy().pass();
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
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/state"))
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
    try {
      return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/readyz"))
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
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String toString() {
    return identity;
  }
}
