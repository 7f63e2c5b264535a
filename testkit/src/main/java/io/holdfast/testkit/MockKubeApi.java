package io.holdfast.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The emulated Kubernetes API: fabric8's mock server in CRUD mode on a loopback port. It enforces
 * resourceVersion conflicts on PUT, including on {@code /status} subresources as a real API server does (see
 * {@link KubeApiDispatcher}), serves watches over WebSocket, and has no network faults of its own (put a
 * {@link FaultProxy} in front of it).
 *
 * <p>It records every request ({@link #requests()}), so a test can check what a client asked for (paths,
 * selectors) and that its RBAC allows it ({@link RbacRules}). Lists and watches honour field selectors on any
 * field, such as a Secret's {@code type} (see {@link FieldSelectors}).
 *
 * <p>It records every write it receives ({@link #writes()}), with the time it took effect and the writer's user
 * agent, so a test can audit what the API actually got ({@link FencingAudit}); and status writes (through
 * {@code /status}, or through the whole object for Gloo Edge's kinds: {@link ApiWrite#isStatus()}) can be made to
 * fail ({@link #failStatusWrites}).
 */
public final class MockKubeApi implements AutoCloseable {
  /**
   * The user agent of {@link #admin()}: its writes are test set-up, never taken as status writes (a set-up edit of a
   * Gloo Edge object is a PUT of the whole object, as Holdfast's status write of one is).
   */
  public static final String ADMIN_USER_AGENT = "holdfast-testkit/admin";

  private final KubernetesMockServer server;
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(MockKubeApi.class);
  private final RecordingDispatcher dispatcher = new RecordingDispatcher();
  private final KubernetesClient admin;
  private final int port;

  private MockKubeApi(int port) {
    server = new KubernetesMockServer(new Context(Serialization.jsonMapper()), new MockWebServer(),
        new HashMap<>(), dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), port);
    this.port = server.getPort();
    admin = new KubernetesClientBuilder().withConfig(new ConfigBuilder(configFor(this.port))
        .withUserAgent(ADMIN_USER_AGENT).build()).build();
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

  /** Every write received so far (any method but GET), in the order they took effect. */
  public List<ApiWrite> writes() {
    return List.copyOf(dispatcher.writes);
  }

  /** Every request received so far (reads, watches and writes), in arrival order. */
  public List<ApiRequest> requests() {
    return List.copyOf(dispatcher.requests);
  }

  /** The writes received from clients with this user agent. */
  public List<ApiWrite> writesFrom(String userAgent) {
    return dispatcher.writes.stream().filter(w -> userAgent.equals(w.userAgent())).toList();
  }

  /**
   * The Lease writes and the replicas' leader-only writes as {@link FencingAudit} entries (see
   * {@link ApiWrite#auditEntry}).
   *
   * @param replicaOf the replica identity behind a user agent, empty for a client that is not a replica
   */
  public List<FencingAudit.Entry> auditEntries(Function<String, Optional<String>> replicaOf) {
    return dispatcher.writes.stream().map(w -> w.auditEntry(replicaOf)).flatMap(Optional::stream).toList();
  }

  /**
   * Answer every status write ({@link ApiWrite#isStatus()}: to a {@code /status} subresource, or a PUT of a Gloo Edge
   * object by a client other than {@link #admin()}) with {@code code} (e.g. 500) until
   * {@link #stopFailingStatusWrites()}.
   */
  public void failStatusWrites(int code) {
    dispatcher.failStatusWith = code;
  }

  public void stopFailingStatusWrites() {
    dispatcher.failStatusWith = 0;
  }

  /**
   * Answer every read (list, get, watch) whose path contains {@code pathFragment} with {@code code}, as a real API
   * answers 404 for a resource whose CRD is not installed or 403 for one RBAC does not grant; {@code 0} serves
   * them again. One fragment at a time.
   */
  public void refuseReads(String pathFragment, int code) {
    dispatcher.refusedReads = code == 0 ? null : new Refusal(pathFragment, code);
  }

  private record Refusal(String pathFragment, int code) {
  }

  /**
   * Hold back the events of every watch whose path contains {@code pathFragment} (e.g. {@code "/secrets"}) until
   * {@link #releaseWatchEvents()}: an object written meanwhile is listed, but watching informers have not seen it,
   * as during a real API's watch delay. One fragment at a time.
   */
  public void holdWatchEvents(String pathFragment) {
    dispatcher.hold.hold(java.util.Objects.requireNonNull(pathFragment, "pathFragment"));
  }

  /** Sends the held watch events, in order, and lets events flow again. */
  public void releaseWatchEvents() {
    dispatcher.hold.release();
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

  /** Records each write with its arrival time and answer; fails status writes on request. */
  private static final class RecordingDispatcher extends KubeApiDispatcher {
    final List<ApiWrite> writes = new CopyOnWriteArrayList<>();
    final List<ApiRequest> requests = new CopyOnWriteArrayList<>();
    volatile int failStatusWith;
    volatile Refusal refusedReads;
    final WatchHold hold = new WatchHold();

    @Override
    public MockResponse handleWatch(String path) {
      MockResponse response = super.handleWatch(path);
      return response.getWebSocketListener() == null ? response
          : response.withWebSocketUpgrade(hold.wrap(path, response.getWebSocketListener()));
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      MockResponse response = dispatchRecordingWrites(request);
      String agent = request.getHeader("User-Agent");
      requests.add(new ApiRequest(agent == null ? "" : agent, request.getMethod(), request.getPath(),
          response == null ? 0 : response.code()));
      return response;
    }

    private MockResponse dispatchRecordingWrites(RecordedRequest request) {
      if ("GET".equalsIgnoreCase(request.getMethod())) {
        Refusal refusal = refusedReads;
        if (refusal != null && request.getPath() != null && request.getPath().contains(refusal.pathFragment())) {
          return failure(refusal.code(), refusal.code() == 404 ? "NotFound" : "Forbidden", "injected refusal");
        }
        return super.dispatch(request);
      }
      synchronized (this) { // the same lock as the write handlers: arrival order is the order of effect
        long received = System.nanoTime();
        String body = bodyOf(request);
        int fail = failStatusWith;
        String agent = request.getHeader("User-Agent");
        MockResponse response = fail != 0 && ApiWrite.isStatus(request.getMethod(), request.getPath(), agent)
            ? failure(fail, "InternalError", "injected failure")
            : super.dispatch(request);
        writes.add(new ApiWrite(received, agent == null ? "" : agent, request.getMethod(), request.getPath(),
            resourceVersionOf(body), response == null ? 0 : response.code(), body));
        return response;
      }
    }
  }
}
