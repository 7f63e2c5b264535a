package io.holdfast.server.admin;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One headless Chromium (Debian's {@code chromium}) for a whole test class, driven over the DevTools protocol on a
 * loopback port (no WebDriver): each {@link #render} opens a tab, loads the page, waits for its load event, takes
 * the DOM as the browser built it, and closes the tab. One browser start instead of one per page keeps a suite of
 * many pages fast. Missing chromium fails the test (no skip): {@code .ci/run} installs it.
 */
final class ChromiumSession implements AutoCloseable {
  /** Bound on the browser's start and on each page's load. */
  private static final Duration BOUND = Duration.ofSeconds(20);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Process process;
  private final WebSocket socket;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
  /** Load events by session id, completed when the tab's page fired {@code load}. */
  private final Map<String, CompletableFuture<Void>> loads = new ConcurrentHashMap<>();

  private ChromiumSession(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  static ChromiumSession start(Path workDir) throws IOException, InterruptedException {
    Path chromium = find().orElseThrow(() -> new AssertionError("chromium is not installed (not on PATH): the status "
        + "page is tested in a real headless browser; .ci/run installs it (apt-get install chromium)"));
    Path profile = Files.createTempDirectory(workDir, "chromium-profile-");
    Process process = new ProcessBuilder(chromium.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
        "--no-first-run", "--disable-extensions", "--disable-dev-shm-usage", "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0", "--user-data-dir=" + profile, "about:blank")
        .redirectOutput(workDir.resolve("chromium.stdout.txt").toFile())
        .redirectError(workDir.resolve("chromium.stderr.txt").toFile()).start();
    try {
      // Chromium writes the port it bound and the browser's target path here once it listens.
      Path activePort = profile.resolve("DevToolsActivePort");
      long deadline = System.nanoTime() + BOUND.toNanos();
      List<String> lines = List.of();
      while (lines.size() < 2) {
        if (System.nanoTime() > deadline || !process.isAlive()) {
          throw new AssertionError("chromium did not open its DevTools port within " + BOUND.toSeconds() + " s"
              + (process.isAlive() ? "" : " (exited " + process.exitValue() + ")"));
        }
        lines = Files.exists(activePort) ? Files.readAllLines(activePort, StandardCharsets.UTF_8) : List.of();
        if (lines.size() < 2) {
          process.waitFor(20, TimeUnit.MILLISECONDS); // polls a file another process writes; no event to wait on
        }
      }
      URI browser = URI.create("ws://127.0.0.1:" + lines.get(0).strip() + lines.get(1).strip());
      ChromiumSession[] self = new ChromiumSession[1];
      WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
          .buildAsync(browser, new Messages(message -> self[0].dispatch(message)))
          .get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
      self[0] = new ChromiumSession(process, socket);
      return self[0];
    } catch (AssertionError e) {
      kill(process);
      throw e;
    } catch (Exception e) {
      kill(process);
      throw new AssertionError("could not drive chromium: " + e, e);
    }
  }

  /** The DOM of {@code url} after its load event, serialised. */
  String render(URI url) throws Exception {
    String target = call(null, "Target.createTarget", Map.of("url", "about:blank")).path("targetId").asString();
    String session = call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true))
        .path("sessionId").asString();
    try {
      call(session, "Page.enable", Map.of());
      CompletableFuture<Void> loaded = new CompletableFuture<>();
      loads.put(session, loaded);
      JsonNode navigated = call(session, "Page.navigate", Map.of("url", url.toString()));
      if (navigated.has("errorText")) {
        throw new AssertionError("chromium could not load " + url + ": " + navigated.path("errorText").asString());
      }
      loaded.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
      JsonNode result = call(session, "Runtime.evaluate", Map.of("expression",
          "document.documentElement.outerHTML", "returnByValue", true));
      return result.path("result").path("value").asString();
    } finally {
      loads.remove(session);
      call(null, "Target.closeTarget", Map.of("targetId", target));
    }
  }

  private JsonNode call(String session, String method, Map<String, Object> params) throws Exception {
    long id = ids.incrementAndGet();
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    replies.put(id, reply);
    Map<String, Object> message = new java.util.LinkedHashMap<>();
    message.put("id", id);
    message.put("method", method);
    message.put("params", params);
    if (session != null) {
      message.put("sessionId", session);
    }
    synchronized (socket) { // one text message at a time
      socket.sendText(JSON.writeValueAsString(message), true).get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    }
    JsonNode answer = reply.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
    if (answer.has("error")) {
      throw new AssertionError("chromium refused " + method + ": " + answer.path("error"));
    }
    return answer.path("result");
  }

  private void dispatch(String text) {
    JsonNode message = JSON.readTree(text);
    if (message.has("id")) {
      Optional.ofNullable(replies.remove(message.path("id").asLong())).ifPresent(r -> r.complete(message));
    } else if ("Page.loadEventFired".equals(message.path("method").asString())) {
      Optional.ofNullable(loads.get(message.path("sessionId").asString())).ifPresent(l -> l.complete(null));
    }
  }

  @Override
  public void close() throws InterruptedException {
    socket.abort();
    kill(process);
  }

  private static void kill(Process process) throws InterruptedException {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(5, TimeUnit.SECONDS);
  }

  private static Optional<Path> find() {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Arrays.stream(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, "chromium")).filter(Files::isExecutable).findFirst();
  }

  /** Joins a message's parts and hands whole messages on. */
  private static final class Messages implements WebSocket.Listener {
    private final java.util.function.Consumer<String> sink;
    private final StringBuilder partial = new StringBuilder();

    Messages(java.util.function.Consumer<String> sink) {
      this.sink = sink;
    }

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String whole = partial.toString();
        partial.setLength(0);
        sink.accept(whole);
      }
      webSocket.request(1);
      return null;
    }
  }
}
