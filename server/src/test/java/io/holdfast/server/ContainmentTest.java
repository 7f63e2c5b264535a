package io.holdfast.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.common.WorkerFailures;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.RouteAction;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running file-mode server keeps applying edits whatever one object does to the build: a fully rejected
 * Gateway API route, a front end breaking an IR invariant, a front end hitting an error that leaves the JVM
 * unsound. Each time, a later unrelated edit is served within 2 s, and the status page, {@code /state} and the
 * metrics say what happened.
 */
class ContainmentTest {
  private static final Duration EDIT_SERVED_WITHIN = Duration.ofSeconds(2);
  private static final String ROUTE_TYPE = "type.googleapis.com/envoy.config.route.v3.RouteConfiguration";

  private static final String HOLDFAST = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: echo, namespace: demo}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: public, namespace: demo}
      spec: {port: 10080}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web, namespace: demo}
      spec:
        domains: [web.test]
        routes: [{match: {prefix: /}, route: {upstream: echo}}]
      """;

  private static final ResourceKey TYPO = new ResourceKey("gateway.networking.k8s.io", "HTTPRoute", "shop", "typo");

  @TempDir
  Path dir;
  private final List<String> fatal = new CopyOnWriteArrayList<>();
  private WorkerFailures.FatalHandler previous;
  private HoldfastServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void recordFatalErrors() {
    // In production a fatal error ends the process; here it is recorded, so the test can see it and go on.
    previous = WorkerFailures.onFatal((worker, error) -> fatal.add(worker + " " + error));
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    WorkerFailures.onFatal(previous);
  }

  @Test
  void aFullyRejectedRouteCostsNothingElseAndALaterEditIsServedWithinTwoSeconds() throws Exception {
    Files.writeString(dir.resolve("holdfast.yaml"), HOLDFAST);
    Files.writeString(dir.resolve("gateway-api.yaml"), HostileInputs.INVALID_ENUM_ROUTE);
    start(ConfigCheck::new);
    await().atMost(Duration.ofSeconds(15)).until(() -> serves("web.test"));

    ResourceStatus typo = server.statusBoard().statusOf(TYPO).orElseThrow();
    assertThat(typo.state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(typo.problems()).isNotEmpty();
    assertThat(server.statusBoard().lastOutcome().orElseThrow().problems()).isEmpty();

    assertLaterEditServedInTime("later");
    assertThat(page())
        .contains("path match type Prefix is not one of Exact, PathPrefix, RegularExpression (InvalidEnumValue)")
        .contains("served as given").doesNotContain("internal error");
    assertThat(fatal).isEmpty();
  }

  @Test
  void anInjectedInvariantBreachIsShownCountedAndCostsOnlyItsObject() throws Exception {
    Files.writeString(dir.resolve("holdfast.yaml"), HOLDFAST);
    Files.writeString(dir.resolve("gateway-api.yaml"), HostileInputs.INVALID_ENUM_ROUTE);
    // The Gateway API front end, plus a bug: for the route "typo" it also lowers a listener forwarding to a
    // cluster nobody adds, which the IR refuses.
    start(settings -> ConfigCheck.of(withFault(settings, (config, builder) -> {
      if (config.apiObjects().stream().anyMatch(o -> o.key().equals(TYPO))) {
        builder.add(new Listener.Socket(Origin.of(TYPO), "0.0.0.0", 9000, List.of(new Listener.FilterChain.Tcp(
            Origin.of(TYPO), "tcp", Listener.ChainMatch.ANY, Optional.empty(),
            List.of(new RouteAction.WeightedCluster(new ResourceKey("Upstream", "shop", "nowhere"), 1))))));
      }
    })));
    await().atMost(Duration.ofSeconds(15)).until(() -> serves("web.test"));

    await().atMost(Duration.ofSeconds(5)).until(() -> metric("holdfast_config_build_failures_total", "stage=\"ir\"")
        >= 1);
    assertThat(server.statusBoard().statusOf(TYPO).orElseThrow().problems())
        .anySatisfy(p -> assertThat(p.reason()).isEqualTo("InternalError"));
    assertThat(page()).contains("internal error").contains("stage ir");
    assertThat(get("/state")).contains("\"outcome\" : \"degraded\"").contains("nowhere");
    assertThat(metric("holdfast_config_build_failures_total", "stage=\"frontend\"")).isZero();

    assertLaterEditServedInTime("later");
  }

  /**
   * Regression: an OutOfMemoryError in a build killed the config watcher ("stopped unexpectedly") behind green
   * probes, and no edit was applied again. Now it goes to the fatal handler (which ends the process, so Kubernetes
   * restarts it from its snapshot) and is counted; the watcher itself never dies.
   */
  @Test
  void anErrorThatLeavesTheJvmUnsoundReachesTheFatalHandlerAndTheWatcherLivesOn() throws Exception {
    Files.writeString(dir.resolve("holdfast.yaml"), HOLDFAST);
    start(settings -> ConfigCheck.of(withFault(settings, (config, builder) -> {
      if (config.virtualServices().stream().anyMatch(vs -> vs.key().name().equals("overflow"))) {
        throw new StackOverflowError("injected");
      }
    })));
    await().atMost(Duration.ofSeconds(15)).until(() -> serves("web.test"));
    assertThat(metric("holdfast_worker_failures_total", "kind=\"fatal\"", "thread=\"config-watcher\"")).isZero();

    Files.writeString(dir.resolve("overflow.yaml"), virtualService("overflow"));
    await().atMost(Duration.ofSeconds(5)).until(() -> !fatal.isEmpty());
    assertThat(fatal).singleElement().asString().startsWith("config-watcher").contains("StackOverflowError");
    assertThat(metric("holdfast_worker_failures_total", "kind=\"fatal\"", "thread=\"config-watcher\"")).isEqualTo(1);

    Files.delete(dir.resolve("overflow.yaml"));
    assertLaterEditServedInTime("later");
  }

  private void assertLaterEditServedInTime(String name) throws IOException {
    long start = System.nanoTime();
    Files.writeString(dir.resolve(name + ".yaml"), virtualService(name));
    await().atMost(EDIT_SERVED_WITHIN).pollInterval(Duration.ofMillis(20)).until(() -> serves(name + ".test"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(EDIT_SERVED_WITHIN);
  }

  private static String virtualService(String name) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: demo}
        spec:
          domains: [%s.test]
          routes: [{match: {prefix: /}, route: {upstream: echo}}]
        """.formatted(name, name);
  }

  /** The standard front ends, the Gateway API one followed by {@code fault} in the same turn. */
  private static List<FrontEnd<GatewayConfig>> withFault(PipelineSettings settings, FrontEnd<GatewayConfig> fault) {
    List<FrontEnd<GatewayConfig>> out = new ArrayList<>(ConfigCheck.frontEnds(settings));
    FrontEnd<GatewayConfig> last = out.remove(out.size() - 1);
    out.add((config, builder) -> {
      last.lower(config, builder);
      fault.lower(config, builder);
    });
    return out;
  }

  private void start(Function<PipelineSettings, ConfigCheck> checks) throws IOException {
    server = HoldfastServer.start(new ServeSettings(dir, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
        LogFormat.TEXT), Clock.systemUTC(), checks);
  }

  private boolean serves(String domain) {
    return server.cache().currentSnapshot()
        .map(s -> s.ofType(ROUTE_TYPE).values().stream().anyMatch(r -> r.toString().contains(domain)))
        .orElse(false);
  }

  private String page() throws Exception {
    return get("/");
  }

  /** The value of the series {@code name} with every label of {@code labels} ({@code key="value"}); -1 if none. */
  private double metric(String name, String... labels) throws Exception {
    return get("/metrics").lines()
        .filter(l -> l.startsWith(name + "{") && java.util.Arrays.stream(labels).allMatch(l::contains))
        .findFirst().map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(-1.0);
  }

  private String get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort() + path))
        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
  }
}
