package io.holdfast.server.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Routes admin requests by exact path. Never throws: every failure becomes a short plain-text response. */
final class AdminHandler implements HttpHandler {
  static final String TEXT = "text/plain; charset=utf-8";
  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  static final String JSON = "application/json";
  static final String HTML = "text/html; charset=utf-8";
  private static final int MAX_MESSAGE = 200;
  private static final Response HEALTHY = Response.text(200, "ok");
  private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);

  private final JsonMapper json = JsonMapper.builder()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
      .build();
  private final Map<String, Callable<Response>> routes;
  private final ExecutorService supplierPool;
  private final Duration supplierTimeout;

  record Response(int status, String contentType, byte[] body) {
    static Response text(int status, String text) {
      return new Response(status, TEXT, (text + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  AdminHandler(AdminSources sources, ExecutorService supplierPool, Duration supplierTimeout) {
    this.supplierPool = supplierPool;
    this.supplierTimeout = supplierTimeout;
    this.routes = Map.of(
        "/healthz", () -> HEALTHY,
        "/readyz", () -> readiness(sources),
        "/metrics", () -> new Response(200, PROMETHEUS_TEXT,
            sources.metrics().scrape().getBytes(StandardCharsets.UTF_8)),
        "/state", () -> new Response(200, JSON,
            json.writeValueAsBytes(Objects.requireNonNull(sources.state().get(), "state is null"))),
        "/", () -> new Response(200, HTML, StatusPage.render(
            Objects.requireNonNull(sources.state().get(), "state is null")).getBytes(StandardCharsets.UTF_8)));
  }

  private static Response readiness(AdminSources sources) {
    if (sources.ready().getAsBoolean()) {
      return Response.text(200, "ready");
    }
    String reason = sources.notReadyReason().get();
    return Response.text(503, "not ready: " + (reason == null || reason.isBlank() ? "no reason given" : reason));
  }

  @Override
  public void handle(HttpExchange exchange) {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      Callable<Response> route = routes.get(path);
      Response response;
      if (route == null) {
        response = Response.text(404, "not found; try / /healthz /readyz /metrics /state");
      } else if (!"GET".equals(method) && !"HEAD".equals(method)) {
        exchange.getResponseHeaders().set("Allow", "GET, HEAD");
        response = Response.text(405, "method not allowed: " + shorten(method));
      } else if ("/healthz".equals(path)) {
        response = HEALTHY; // liveness: answered inline, depends on nothing
      } else {
        response = callBounded(path, route);
      }
      send(exchange, response, "HEAD".equals(method));
    } catch (IOException | RuntimeException e) {
      LOG.debug("admin response not sent error={}", e.toString()); // usually the client went away
    }
  }

  /** Runs a supplier-backed route on the supplier pool so a hung supplier cannot hold an HTTP thread forever. */
  private Response callBounded(String path, Callable<Response> route) {
    Future<Response> future;
    try {
      future = supplierPool.submit(route);
    } catch (RejectedExecutionException e) {
      return Response.text(503, "shutting down");
    }
    try {
      return future.get(supplierTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      LOG.warn("admin endpoint timed out path={} timeoutMs={}", path, supplierTimeout.toMillis());
      return Response.text(500, path + " timed out after " + supplierTimeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      LOG.warn("admin endpoint failed path={} error={}", path, cause.toString(), cause);
      return Response.text(500, path + " failed: " + shorten(cause.getClass().getSimpleName()
          + (cause.getMessage() == null ? "" : ": " + cause.getMessage())));
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      return Response.text(503, "shutting down");
    }
  }

  private static void send(HttpExchange exchange, Response response, boolean head) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    // -1 means no body; 0 would mean chunked, so an empty body also uses -1.
    long length = head || response.body().length == 0 ? -1 : response.body().length;
    exchange.sendResponseHeaders(response.status(), length);
    if (length > 0) {
      try (OutputStream body = exchange.getResponseBody()) {
        body.write(response.body());
      }
    }
  }

  private static String shorten(String text) {
    String oneLine = text.replaceAll("\\s+", " ").trim();
    return oneLine.length() <= MAX_MESSAGE ? oneLine : oneLine.substring(0, MAX_MESSAGE) + "...";
  }
}
