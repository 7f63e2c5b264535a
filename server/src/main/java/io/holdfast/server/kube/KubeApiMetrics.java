package io.holdfast.server.kube;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Counts and times every Kubernetes API call a client makes: {@code holdfast_kube_api_requests_total{client,
 * verb, code}} ({@code code="error"} when no answer came) and {@code holdfast_kube_api_latency_seconds{client,
 * verb}}. Installed as a fabric8 HTTP interceptor, so it sees what the API actually got, retries included.
 *
 * <p>Registered at start, so they are exported before the first request: for every verb, its success code
 * ({@code 201} for create, else {@code 200}) and {@code error} at 0, and the latency timer. Other HTTP codes
 * (404, 409, 5xx, ...) appear with their first occurrence: the set of codes an API server may answer is open.
 */
public final class KubeApiMetrics implements Interceptor {
  private final MeterRegistry registry;
  private final String client;
  private final LongSupplier nanoTime;
  /**
   * Start times by method and URI: fabric8 hands {@code after} a different request object than {@code before}.
   * Two identical requests in flight at once share an entry, so their latencies are approximate.
   */
  private final Map<String, Long> started = new ConcurrentHashMap<>();

  public KubeApiMetrics(MeterRegistry registry, String client, LongSupplier nanoTime) {
    this.registry = registry;
    this.client = client;
    this.nanoTime = nanoTime;
    for (String verb : VERBS) {
      requests(verb, verb.equals("create") ? "201" : "200");
      requests(verb, "error");
      latency(verb);
    }
  }

  /** The verbs {@link #verb} names. */
  static final List<String> VERBS = List.of("get", "watch", "create", "update", "patch", "delete");

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    if (started.size() > 10_000) {
      started.clear(); // requests that failed without a callback must not pile up through a long outage
    }
    started.put(key(request), nanoTime.getAsLong());
  }

  @Override
  public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    record(request, Integer.toString(response.code()));
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    record(request, "error");
  }

  private void record(HttpRequest request, String code) {
    String verb = verb(request);
    requests(verb, code).increment();
    Long start = started.remove(key(request));
    if (start != null) {
      latency(verb).record(nanoTime.getAsLong() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
  }

  private Counter requests(String verb, String code) {
    return Counter.builder("holdfast.kube.api.requests")
        .description("Kubernetes API requests by client, verb and HTTP status")
        .tags("client", client, "verb", verb, "code", code)
        .register(registry);
  }

  private Timer latency(String verb) {
    return Timer.builder("holdfast.kube.api.latency")
        .description("Kubernetes API request latency (watches: until the response headers)")
        .tags("client", client, "verb", verb)
        .register(registry);
  }

  private static String key(HttpRequest request) {
    return request.method() + " " + request.uri();
  }

  static String verb(HttpRequest request) {
    String query = request.uri().getRawQuery();
    return switch (request.method().toUpperCase(Locale.ROOT)) {
      case "GET" -> query != null && query.contains("watch=true") ? "watch" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> "delete";
      default -> request.method().toLowerCase(Locale.ROOT);
    };
  }
}
