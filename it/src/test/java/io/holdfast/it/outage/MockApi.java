package io.holdfast.it.outage;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The emulated Kubernetes API ({@code io.holdfast.testkit.MockKubeApiMain}) as a process, with the CRDs from
 * {@code deploy/crds/}. Writes go in through its standard input (so they work while its port is cut off);
 * reads go straight to its port; its write record is read back as {@link WriteRecord}s.
 */
final class MockApi implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration START_BOUND = Duration.ofSeconds(60);

  private final ManagedProcess process;
  private final Path record;
  private final int port;
  private final AtomicInteger commands = new AtomicInteger();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private MockApi(ManagedProcess process, Path record, int port) {
    this.process = process;
    this.record = record;
    this.port = port;
  }

  static MockApi start(Path dir) {
    try {
      Files.createDirectories(dir);
      Path portFile = dir.resolve("mock-api.port");
      Path record = dir.resolve("mock-api-writes.jsonl");
      Files.deleteIfExists(portFile);
      List<String> args = new ArrayList<>(List.of("--port", "0", "--port-file", portFile.toString(),
          "--record", record.toString()));
      crds().forEach(p -> args.add(p.toString()));
      ManagedProcess p = ManagedProcess.start("mock-api",
          Launcher.javaMain("io.holdfast.testkit.MockKubeApiMain", args), dir.resolve("mock-api.log"));
      await("mock API up").atMost(START_BOUND).pollInterval(Duration.ofMillis(100))
          .until(() -> Files.exists(portFile) || !p.isAlive());
      if (!p.isAlive()) {
        throw new IllegalStateException("mock API exited: " + p.logText());
      }
      return new MockApi(p, record, Integer.parseInt(Files.readString(portFile).trim()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> crds() throws IOException {
    Path dir = Launcher.repoRoot().resolve("deploy/crds");
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  int port() {
    return port;
  }

  ManagedProcess process() {
    return process;
  }

  /** Creates a resource (an {@link GatewayResources} document), through standard input; returns the HTTP code. */
  int create(GatewayResources.Resource r) {
    return submit("POST", r.collectionPath(), r.json());
  }

  int submit(String method, String path, String json) {
    String id = "c" + commands.incrementAndGet();
    process.send(id + " " + method + " " + path + " " + json);
    String prefix = "done " + id + " ";
    await("mock API answers " + id).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
        .until(() -> process.logText().lines().anyMatch(l -> l.startsWith(prefix) || l.startsWith("error " + id)));
    String answer = process.logText().lines().filter(l -> l.startsWith(prefix) || l.startsWith("error " + id))
        .findFirst().orElseThrow();
    if (answer.startsWith("error")) {
      throw new IllegalStateException("mock API refused " + method + " " + path + ": " + answer);
    }
    return Integer.parseInt(answer.substring(prefix.length()).trim());
  }

  /** GET on the API's own port (not through any proxy). */
  JsonNode get(String path) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
          .timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IllegalStateException("GET " + path + " -> " + r.statusCode() + ": " + r.body());
      }
      return JSON.readTree(r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  JsonNode get(GatewayResources.Resource r) {
    return get(r.path());
  }

  /** Everything written so far, in the order recorded. */
  List<WriteRecord> writes() {
    try {
      if (!Files.exists(record)) {
        return List.of();
      }
      String text = Files.readString(record);
      // A line still being written has no newline yet: leave it for the next read.
      String complete = text.substring(0, text.lastIndexOf('\n') + 1);
      return WriteRecord.parseAll(complete.lines().toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    process.stop();
  }
}
