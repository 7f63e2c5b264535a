package io.holdfast.server.webhook;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.holdfast.common.WorkerFailures;
import io.holdfast.server.webhook.AdmissionJson.MalformedReview;
import io.holdfast.server.webhook.AdmissionJson.Request;
import io.holdfast.server.webhook.AdmissionJson.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers {@code POST /validate}. Never throws: every failure is a short plain-text answer (400 malformed
 * review, 404, 405, 413 too large, 503 no view yet, 500 a bug), and a request that takes longer than the
 * request timeout (a client that stops sending its body, say) has its connection closed. The check itself runs
 * within its {@link CheckBudget}: over it, the answer is a denial.
 */
final class AdmissionHandler implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(AdmissionHandler.class);
  /** The webhook's label in {@code holdfast_worker_failures_total}. */
  static final String WORKER = "webhook";
  private static final String TEXT = "text/plain; charset=utf-8";
  private static final String JSON = "application/json";

  private final AdmissionCheck check;
  private final CheckBudget budget;
  private final Semaphore checkSlots;
  private final ScheduledExecutorService timer;
  private final Duration requestTimeout;
  private final int maxRequestBytes;
  private final WebhookMetrics metrics;

  /** @param body null for none (the connection is then closed if the request body was not read to its end) */
  private record Reply(int status, String contentType, byte[] body, Map<String, String> headers) {
    static Reply text(int status, String text) {
      return new Reply(status, TEXT, (text + "\n").getBytes(StandardCharsets.UTF_8), Map.of());
    }

    Reply with(String header, String value) {
      return new Reply(status, contentType, body, Map.of(header, value));
    }
  }

  AdmissionHandler(AdmissionCheck check, CheckBudget budget, Semaphore checkSlots, ScheduledExecutorService timer, Duration requestTimeout,
      int maxRequestBytes, WebhookMetrics metrics) {
    this.check = check;
    this.budget = budget;
    this.checkSlots = checkSlots;
    this.timer = timer;
    this.requestTimeout = requestTimeout;
    this.maxRequestBytes = maxRequestBytes;
    this.metrics = metrics;
  }

  @Override
  public void handle(HttpExchange exchange) {
    AtomicBoolean settled = new AtomicBoolean();
    // Closing an exchange whose answer has not started closes its connection, which also ends a blocked read.
    ScheduledFuture<?> deadline = timer.schedule(() -> {
      if (settled.compareAndSet(false, true)) {
        metrics.outcome(WebhookMetrics.Outcome.TIMED_OUT);
        log.warn("admission request timed out, closing the connection after {} remote={}", requestTimeout,
            exchange.getRemoteAddress());
        exchange.close();
      }
    }, requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      Reply reply;
      try {
        reply = reply(exchange);
      } catch (RuntimeException | Error e) {
        // The pool thread survives any failure; a fatal one (out of memory, ...) ends the process there.
        log.error("admission request failed error={}", e.toString());
        WorkerFailures.caught(WORKER, e);
        metrics.outcome(WebhookMetrics.Outcome.ERROR);
        reply = Reply.text(500, "internal error: " + e.getClass().getSimpleName());
      }
      if (settled.compareAndSet(false, true)) {
        send(exchange, reply);
      }
    } catch (IOException e) {
      log.debug("admission request: connection failed remote={} error={}", exchange.getRemoteAddress(), e.toString());
    } finally {
      deadline.cancel(false);
      exchange.close();
    }
  }

  private boolean awaitCheckSlot() {
    try {
      return checkSlots.tryAcquire(requestTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private Reply reply(HttpExchange exchange) throws IOException {
    String declared = exchange.getRequestHeaders().getFirst("Content-Length");
    if (declared != null && declaredLength(declared) > maxRequestBytes) {
      return tooLarge();
    }
    // Read first, whatever the path: an answer sent over an unread body makes the server drain it, unbounded.
    byte[] body = readAtMost(exchange.getRequestBody(), maxRequestBytes);
    if (body == null) {
      return tooLarge();
    }
    if (!AdmissionWebhook.PATH.equals(exchange.getRequestURI().getPath())) {
      return Reply.text(404, "not found; the webhook answers POST " + AdmissionWebhook.PATH);
    }
    if (!"POST".equals(exchange.getRequestMethod())) {
      return Reply.text(405, "method not allowed; use POST").with("Allow", "POST");
    }
    Request request;
    try {
      request = AdmissionJson.readRequest(body);
    } catch (MalformedReview e) {
      metrics.outcome(WebhookMetrics.Outcome.MALFORMED);
      log.info("admission request refused: malformed review remote={} reason=\"{}\"", exchange.getRemoteAddress(),
          e.getMessage());
      return Reply.text(400, "malformed AdmissionReview: " + e.getMessage());
    }
    Verdict verdict;
    // More workers read connections than checks may run: a review waits here for a check slot (up to its
    // timeout) rather than being denied as busy. Without a slot the budget answers for itself.
    boolean slot = awaitCheckSlot();
    try {
      verdict = budget.decide(() -> check.decide(request));
    } catch (AdmissionCheck.ViewUnavailable e) {
      metrics.outcome(WebhookMetrics.Outcome.UNAVAILABLE);
      return Reply.text(503, e.getMessage());
    } finally {
      if (slot) {
        checkSlots.release();
      }
    }
    boolean overBudget = verdict.causes().stream().anyMatch(c -> c.reason().equals(CheckBudget.OVER_BUDGET)
        || c.reason().equals(CheckBudget.BUSY));
    metrics.outcome(overBudget ? WebhookMetrics.Outcome.OVER_BUDGET
        : verdict.allowed() ? WebhookMetrics.Outcome.ALLOWED : WebhookMetrics.Outcome.DENIED);
    if (!verdict.allowed()) {
      log.info("admission denied uid={} operation={} kind={} namespace={} name={} reason=\"{}\"",
          request.uid(), request.operation(), request.kind().kind(), request.namespace(), request.name(),
          verdict.message());
    } else {
      log.debug("admission allowed uid={} operation={} kind={} namespace={} name={} warnings={}", request.uid(),
          request.operation(), request.kind().kind(), request.namespace(), request.name(), verdict.warnings().size());
    }
    return new Reply(200, JSON, AdmissionJson.writeResponse(request.uid(), verdict, Optional.of(request.kind()),
        request.name()), Map.of());
  }

  /**
   * 413 with an empty body: the JDK server drains an unread request body when a response body is closed (and
   * would wait on a client that stops sending), but closes the connection instead after a response without one.
   */
  private Reply tooLarge() {
    metrics.outcome(WebhookMetrics.Outcome.TOO_LARGE);
    return new Reply(413, TEXT, null, Map.of("X-Holdfast-Reason",
        "request body larger than " + maxRequestBytes + " bytes"));
  }

  /** A Content-Length that is not a number counts as too large: the server would refuse it anyway. */
  private static long declaredLength(String value) {
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }

  /** The body, or null once it proves longer than {@code max} (the rest is left unread). */
  private static byte[] readAtMost(InputStream in, int max) throws IOException {
    byte[] bytes = in.readNBytes(max + 1);
    return bytes.length > max ? null : bytes;
  }

  private static void send(HttpExchange exchange, Reply reply) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", reply.contentType());
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    reply.headers().forEach(exchange.getResponseHeaders()::set);
    if (reply.body() == null) {
      exchange.sendResponseHeaders(reply.status(), -1);
      return;
    }
    exchange.sendResponseHeaders(reply.status(), reply.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(reply.body());
    }
  }
}
