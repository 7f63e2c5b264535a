package io.holdfast.it.demo;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Everything the demo runs, on loopback: the emulated Kubernetes API (fabric8's mock, a process of its own), two
 * backends in this JVM, three {@code holdfast serve --kubernetes} processes each behind a cut-able
 * {@link DemoRelay}, and one grpc-java xDS client process. {@link #close()} stops all of it.
 */
final class DemoWorld implements AutoCloseable {
  static final String MOCK_MAIN = "io.holdfast.testkit.MockKubeApiMain";
  static final String XDS_RESOLVER = "io.grpc.xds.XdsNameResolverProvider";
  static final String NS = "demo";
  static final String DOMAIN = "echo.demo";
  static final String VS_PATH = "/apis/gateway.holdfast.io/v1/namespaces/" + NS + "/virtualservices/echo";
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String[][] KINDS = {{"Upstream", "upstreams"}, {"VirtualService", "virtualservices"},
      {"Gateway", "gateways"}};

  record Replica(String identity, DemoRelay relay, int xdsPort, int adminPort, DemoProcess process) {
  }

  record Role(String role, String holder) {
  }

  record Calls(long ok, long failed, String lastBackend) {
  }

  private final Path dir;
  private final List<AutoCloseable> started = new ArrayList<>();
  private final Map<String, Replica> replicas = new LinkedHashMap<>();
  private final Map<String, EchoBackend> backends = new LinkedHashMap<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
  private final AtomicInteger commands = new AtomicInteger();
  private DemoProcess api;
  private int apiPort;
  private Path clientOut;

  DemoWorld(Path dir) {
    this.dir = dir;
  }

  /** What is missing from this JVM's class path for the demo, or empty. */
  static Optional<String> missing() {
    List<String> missing = new ArrayList<>();
    for (String[] c : new String[][] {{MOCK_MAIN, "io.holdfast:holdfast-testkit (the emulated API)"},
        {XDS_RESOLVER, "io.grpc:grpc-xds (the gateway client)"}}) {
      try {
        Class.forName(c[0], false, DemoWorld.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        missing.add(c[1]);
      }
    }
    return missing.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", missing));
  }

  void startApi() throws IOException {
    Path portFile = dir.resolve("api.port");
    List<String> args = new ArrayList<>(List.of("--port", "0", "--port-file", portFile.toString(),
        "--record", dir.resolve("api-writes.jsonl").toString()));
    for (String[] k : KINDS) {
      Path crd = dir.resolve(k[1] + ".crd.yaml");
      Files.writeString(crd, crd(k[0], k[1]));
      args.add(crd.toString());
    }
    api = DemoProcess.start("api", dir.resolve("api.log"), MOCK_MAIN, args);
    started.add(api);
    waitFor(Duration.ofSeconds(30), () -> Files.exists(portFile) || !api.isAlive(), "the emulated API to start");
    if (!api.isAlive()) {
      throw new IllegalStateException("the emulated API exited: " + api.logText());
    }
    apiPort = Integer.parseInt(Files.readString(portFile).trim());
  }

  void startBackends(String... names) {
    for (String n : names) {
      EchoBackend b = EchoBackend.start(n);
      backends.put(n, b);
      started.add(b);
    }
  }

  int backendPort(String name) {
    return backends.get(name).port();
  }

  void startReplicas(int count) throws IOException {
    for (int i = 1; i <= count; i++) {
      String id = "r" + i;
      DemoRelay relay = new DemoRelay(id, apiPort);
      started.add(relay);
      int xds = freePort();
      int admin = freePort();
      Path snapshots = Files.createDirectories(dir.resolve(id + "-snapshot"));
      DemoProcess p = DemoProcess.start(id, dir.resolve(id + ".log"), "io.holdfast.server.cli.HoldfastCli",
          List.of("serve", "--kubernetes", "--upstream-allow-loopback", // the demo backends are local processes
              "--kube-api-url", "http://127.0.0.1:" + relay.port(), "--identity", id,
              "--lease-namespace", "holdfast-system", "--lease-duration", "2s", "--renew-deadline", "1500ms",
              "--retry-period", "300ms", "--lock-timeout", "500ms", "--leader-request-timeout", "300ms",
              "--fence-slack", "150ms", "--snapshot-dir", snapshots.toString(),
              "--xds-port", Integer.toString(xds), "--admin-port", Integer.toString(admin)));
      started.add(p);
      replicas.put(id, new Replica(id, relay, xds, admin, p));
    }
  }

  void startClient(Replica on) throws IOException {
    clientOut = dir.resolve("client.jsonl");
    DemoProcess p = DemoProcess.start("client", dir.resolve("client.log"), XdsCallLoop.class.getName(),
        List.of("--xds-server", "127.0.0.1:" + on.xdsPort(), "--target", DOMAIN, "--node", "gateway-pod",
            "--interval-ms", "50", "--call-timeout-ms", "1000", "--duration-s", "120", "--out", clientOut.toString()));
    started.add(p);
  }

  List<Replica> replicas() {
    return List.copyOf(replicas.values());
  }

  /** Creates (POST) or replaces (PUT) a resource on the API through its standard input; the HTTP code. */
  int write(String method, String path, String json) throws IOException {
    String id = "w" + commands.incrementAndGet();
    api.send(id + " " + method + " " + path + " " + json.replace('\n', ' '));
    String prefix = "done " + id + " ";
    String[] answer = new String[1];
    waitFor(Duration.ofSeconds(10), () -> {
      try {
        answer[0] = api.logText().lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return answer[0] != null;
    }, "the API to take " + method + " " + path);
    return Integer.parseInt(answer[0].substring(prefix.length()).trim());
  }

  /**
   * The replica's role from its {@code /state}; "starting" until its elector runs (before that the server
   * reports its single-replica placeholder, which says leader).
   */
  Optional<Role> role(Replica r) {
    return get(r.adminPort(), "/state").map(n -> new Role(
        n.path("electionMode").asString("").equals("lease") ? n.path("role").asString("?") : "starting",
        n.path("election").path("holder").asString("")));
  }

  /** The Accepted condition of the echo VirtualService as the API holds it, e.g. "True", or "" if none yet. */
  String echoAccepted() {
    Optional<JsonNode> vs = get(apiPort, VS_PATH);
    if (vs.isEmpty()) {
      return "";
    }
    for (JsonNode c : vs.get().path("status").path("conditions")) {
      if (c.path("type").asString("").equals("Accepted")) {
        return c.path("status").asString("");
      }
    }
    return "";
  }

  /** Who wrote the echo VirtualService's status last, from the API's write record. */
  String lastStatusWriter() throws IOException {
    Path record = dir.resolve("api-writes.jsonl");
    String writer = "";
    for (String line : Files.readAllLines(record)) {
      if (line.endsWith("}")) {
        JsonNode n = JSON.readTree(line);
        if (n.path("path").asString("").equals(VS_PATH + "/status") && n.path("code").asInt() == 200) {
          writer = n.path("userAgent").asString("").replace("holdfast/", "");
        }
      }
    }
    return writer;
  }

  Calls calls() throws IOException {
    if (clientOut == null || !Files.exists(clientOut)) {
      return new Calls(0, 0, "");
    }
    long ok = 0;
    long failed = 0;
    String last = "";
    for (String line : Files.readAllLines(clientOut)) {
      if (!line.endsWith("}")) {
        continue; // being written
      }
      JsonNode n = JSON.readTree(line);
      if (n.path("ok").asBoolean(false)) {
        ok++;
        last = n.path("backend").asString("");
      } else {
        failed++;
      }
    }
    return new Calls(ok, failed, last);
  }

  private Optional<JsonNode> get(int port, String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofMillis(800)).build(), HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? Optional.of(JSON.readTree(r.body())) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Polls {@code done} every 50 ms up to {@code bound}; throws naming {@code what} if it never holds. */
  static void waitFor(Duration bound, BooleanSupplier done, String what) {
    long end = System.nanoTime() + bound.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new IllegalStateException("gave up after " + bound.toSeconds() + "s waiting for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
  }

  static String upstream(String name, int port) {
    return """
        {"apiVersion":"gateway.holdfast.io/v1","kind":"Upstream","metadata":{"name":"%s","namespace":"%s"},\
        "spec":{"static":{"hosts":[{"address":"127.0.0.1","port":%d}]},"http2":true}}""".formatted(name, NS, port);
  }

  static String virtualService(String upstream) {
    return """
        {"apiVersion":"gateway.holdfast.io/v1","kind":"VirtualService","metadata":{"name":"echo","namespace":"%s"},\
        "spec":{"domains":["%s"],"routes":[{"name":"all","match":{"prefix":"/"},"route":{"upstream":"%s"}}]}}"""
        .formatted(NS, DOMAIN, upstream);
  }

  /** A minimal CRD: enough for the emulated API to give the kind a status subresource. */
  private static String crd(String kind, String plural) {
    return """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: %2$s.gateway.holdfast.io}
        spec:
          group: gateway.holdfast.io
          scope: Namespaced
          names: {kind: %1$s, listKind: %1$sList, plural: %2$s, singular: %3$s}
          versions:
            - name: v1
              served: true
              storage: true
              subresources: {status: {}}
              schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
        """.formatted(kind, plural, kind.toLowerCase(java.util.Locale.ROOT));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Stops everything, newest first. */
  @Override
  public void close() {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        System.err.println("demo: could not stop " + started.get(i) + ": " + e);
      }
    }
    started.clear();
  }
}
