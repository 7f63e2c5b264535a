package io.holdfast.testkit;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The emulated Kubernetes API as a process of its own, so a test can pause, cut or kill it apart from the
 * processes under test. fabric8's mock server in CRUD mode on a loopback port; every write (any method but
 * GET) is recorded as one JSON line {@code {"method","path","userAgent","startMillis","endMillis","code"}}
 * (epoch milliseconds, flushed at once), plus {@code "resourceVersion"} and, for Leases, {@code "holder"} from
 * a JSON body, so the writers, their timing and the lease holder timeline can be checked afterwards.
 *
 * <pre>
 * java -cp ... io.holdfast.testkit.MockKubeApiMain --port 0 --port-file F --record F [CRD.yaml ...]
 * </pre>
 * The bound port is written to {@code --port-file} (atomically) once the CRDs are applied; the process runs
 * until it is terminated or its standard input closes.
 *
 * <p>Standard input also takes commands, one a line, handled inside the process (no network, so they work while
 * the port is cut off, e.g. by iptables): {@code ID METHOD PATH JSON} (METHOD is POST or PUT; JSON on one line)
 * goes through the same dispatcher as a request would, recorded with User-Agent {@code stdin}, and is answered
 * on standard output with {@code done ID CODE}.
 */
public final class MockKubeApiMain implements AutoCloseable {
  private final KubernetesMockServer server;
  private final RecordingDispatcher dispatcher;

  private MockKubeApiMain(int port, Path record) throws IOException {
    dispatcher = new RecordingDispatcher(record);
    server = new KubernetesMockServer(new Context(jsonMapper()), new MockWebServer(),
        new HashMap<>(), dispatcher, false);
    server.init(InetAddress.getLoopbackAddress(), port);
  }

  @SuppressWarnings("deprecation") // the mock's Context takes a mapper; this is the one MockKubeApi uses
  private static tools.jackson.databind.ObjectMapper jsonMapper() {
    return Serialization.jsonMapper();
  }

  /** Starts the server in this JVM and applies the CRD files (YAML, one CRD each); for tests and {@link #main}. */
  public static MockKubeApiMain start(int port, Path record, List<Path> crds) throws IOException {
    MockKubeApiMain api = new MockKubeApiMain(port, record);
    try (KubernetesClient admin = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port())).build()) {
      for (Path crd : crds) {
        try (InputStream in = Files.newInputStream(crd)) {
          CustomResourceDefinition def = admin.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
          admin.apiextensions().v1().customResourceDefinitions().resource(def).create();
        }
      }
    } catch (IOException | RuntimeException e) {
      api.close();
      throw e;
    }
    return api;
  }

  public int port() {
    return server.getPort();
  }

  /** Runs one write as if it had come over HTTP; returns the response code. */
  public int submit(String method, String path, String json) {
    RecordedRequest request = new RecordedRequest("HTTP/1.1", HttpMethod.valueOf(method), path,
        Headers.builder().add("Content-Type", "application/json").add("User-Agent", "stdin").build(),
        new Buffer(json.getBytes(StandardCharsets.UTF_8)));
    MockResponse response = dispatcher.dispatch(request);
    return response == null ? 0 : response.code();
  }

  /** Handles one command line; the answer line, or null for a blank line. */
  String command(String line) {
    String[] parts = line.trim().split(" ", 4);
    if (parts.length == 1 && parts[0].isEmpty()) {
      return null;
    }
    if (parts.length < 4 || !(parts[1].equals("POST") || parts[1].equals("PUT"))) {
      return "error " + parts[0] + " expected: ID POST|PUT PATH JSON";
    }
    try {
      return "done " + parts[0] + " " + submit(parts[1], parts[2], parts[3]);
    } catch (RuntimeException e) {
      return "error " + parts[0] + " " + e;
    }
  }

  @Override
  public void close() {
    dispatcher.closeRecord();
    try {
      server.destroy();
    } catch (RuntimeException e) {
      // Vert.x may complain about draining connections; the process is going away anyway.
    }
  }

  public static void main(String[] args) throws Exception {
    int port = 0;
    Path portFile = null;
    Path record = null;
    List<Path> crds = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port" -> port = Integer.parseInt(args[++i]);
        case "--port-file" -> portFile = Path.of(args[++i]);
        case "--record" -> record = Path.of(args[++i]);
        default -> crds.add(Path.of(args[i]));
      }
    }
    if (portFile == null || record == null) {
      System.err.println("usage: MockKubeApiMain [--port P] --port-file FILE --record FILE [CRD.yaml ...]");
      System.exit(2);
    }
    MockKubeApiMain api = start(port, record, crds);
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      api.close();
      stop.countDown();
    }, "mock-api-stop"));
    Path tmp = portFile.resolveSibling(portFile.getFileName() + ".tmp");
    Files.writeString(tmp, Integer.toString(api.port()));
    Files.move(tmp, portFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    System.out.println("mock-api ready port=" + api.port() + " crds=" + crds.size() + " record=" + record);
    Thread stdinWatch = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          String answer = api.command(line);
          if (answer != null) {
            System.out.println(answer);
          }
        }
      } catch (IOException ignored) {
        // treated as end of input
      }
      System.exit(0); // end of input: the parent went away
    }, "mock-api-stdin");
    stdinWatch.setDaemon(true);
    stdinWatch.start();
    stop.await();
  }

  /**
   * Delegates to the CRUD dispatcher (which answers 409 to a status PUT with a stale resourceVersion, as a real
   * API server does), then appends one line per write to the record file.
   */
  static final class RecordingDispatcher extends KubeApiDispatcher {
    private static final JsonMapper BODY_READER = JsonMapper.builder().build();
    private final BufferedWriter out;

    RecordingDispatcher(Path record) throws IOException {
      out = Files.newBufferedWriter(record, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      long start = System.currentTimeMillis();
      String bodyFields = bodyFields(request); // before dispatching, which consumes the body
      MockResponse response = super.dispatch(request);
      if (!"GET".equalsIgnoreCase(request.getMethod())) {
        record(request, start, response == null ? 0 : response.code(), bodyFields);
      }
      return response;
    }

    private synchronized void record(RecordedRequest request, long start, int code, String bodyFields) {
      String agent = request.getHeader("User-Agent");
      String line = "{\"method\":" + quote(request.getMethod()) + ",\"path\":" + quote(request.getPath())
          + ",\"userAgent\":" + quote(agent == null ? "" : agent) + ",\"startMillis\":" + start
          + ",\"endMillis\":" + System.currentTimeMillis() + ",\"code\":" + code + bodyFields + "}";
      try {
        out.write(line);
        out.newLine();
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException("write record failed", e);
      }
    }

    /**
     * What the body says that an audit needs: {@code "resourceVersion"} (the version the writer based the write
     * on, "" if none) and, for a Lease, {@code "holder"} ({@code spec.holderIdentity}; "" when released), so the
     * lease holder timeline can be read off the record without trusting who sent the write.
     */
    private static String bodyFields(RecordedRequest request) {
      JsonNode body;
      try {
        byte[] bytes = request.getBody() == null ? new byte[0] : request.getBody().getBytes();
        body = bytes.length == 0 ? null : BODY_READER.readTree(bytes);
      } catch (RuntimeException e) {
        body = null; // not JSON (e.g. a patch in another format): nothing to add
      }
      if (body == null || !body.isObject()) {
        return "";
      }
      String fields = ",\"resourceVersion\":" + quote(body.path("metadata").path("resourceVersion").asString(""));
      if (request.getPath().startsWith("/apis/coordination.k8s.io/") && body.path("spec").isObject()) {
        fields += ",\"holder\":" + quote(body.path("spec").path("holderIdentity").asString(""));
      }
      return fields;
    }

    synchronized void closeRecord() {
      try {
        out.close();
      } catch (IOException ignored) {
        // nothing more to record
      }
    }

    private static String quote(String s) {
      StringBuilder b = new StringBuilder("\"");
      for (char c : s.toCharArray()) {
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          default -> {
            if (c < 0x20) {
              b.append(String.format("\\u%04x", (int) c));
            } else {
              b.append(c);
            }
          }
        }
      }
      return b.append('"').toString();
    }
  }
}
