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
  private final KubernetesClient admin;

  private MockKubeApi(int port) {
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        new HashMap<>(), new KubernetesCrudDispatcher(), false);
    server.init(InetAddress.getLoopbackAddress(), port);
    admin = new KubernetesClientBuilder().withConfig(configFor(server.getPort())).build();
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

  @Override
  public void close() {
    admin.close();
    server.destroy();
  }
}
