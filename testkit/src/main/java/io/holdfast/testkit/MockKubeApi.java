package io.holdfast.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.InetAddress;
import java.util.HashMap;

/**
 * The emulated Kubernetes API: fabric8's mock server in CRUD mode on a loopback port. It enforces
 * resourceVersion conflicts on PUT, serves watches over WebSocket, and has no faults of its own (put a
 * {@link FaultProxy} in front of it).
 */
public final class MockKubeApi implements AutoCloseable {
  private final KubernetesMockServer server;
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(MockKubeApi.class);
  private final KubernetesClient admin;
  private final int port;

  private MockKubeApi(int port) {
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        new HashMap<>(), new KubernetesCrudDispatcher(), false);
    server.init(InetAddress.getLoopbackAddress(), port);
    this.port = server.getPort();
    admin = new KubernetesClientBuilder().withConfig(configFor(this.port)).build();
  }

  /** Starts on an ephemeral loopback port. */
  public static MockKubeApi start() {
    return new MockKubeApi(0);
  }

  /** Starts on a chosen loopback port. */
  public static MockKubeApi start(int port) {
    return new MockKubeApi(port);
  }

  public int port() {
    return server.getPort();
  }

  /** A client straight to the API, for test set-up and assertions (never through a fault proxy). */
  public KubernetesClient admin() {
    return admin;
  }

  /** The underlying mock server, e.g. to inspect recorded requests. */
  public KubernetesMockServer server() {
    return server;
  }

  /** A client configuration for an API reachable on {@code 127.0.0.1:port} (the mock, or a proxy to it). */
  public static Config configFor(int port) {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl("http://127.0.0.1:" + port)
        .withNamespace("default")
        .withTrustCerts(true)
        .withRequestRetryBackoffLimit(0)
        .build();
  }

  /**
   * Stops the server. Vert.x waits up to 10 s for connections to drain and then throws; a test's teardown
   * should neither wait that long nor fail for it, so the stop runs aside with a short bound.
   */
  @Override
  public void close() {
    admin.close();
    Thread stopper = new Thread(() -> {
      try {
        server.destroy();
      } catch (RuntimeException e) {
        log.warn("mock API on port {} did not stop cleanly: {}", port, e.toString());
      }
    }, "mock-api-stop");
    stopper.setDaemon(true);
    stopper.start();
    try {
      stopper.join(3_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
