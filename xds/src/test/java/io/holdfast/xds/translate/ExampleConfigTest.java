package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.holdfast.api.ConfigLoader;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped example in {@code examples/config/} must stay valid and translate to what it promises. */
class ExampleConfigTest {

  private static final Path EXAMPLES = Path.of("../examples/config");

  @Test
  void exampleParsesValidatesAndTranslates() throws IOException {
    List<ConfigLoader.Source> sources = new ArrayList<>();
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        sources.add(new ConfigLoader.Source(file.getFileName().toString(), Files.readString(file)));
      }
    }
    assertThat(sources).hasSize(6);
    ConfigLoader.Loaded loaded = new ConfigLoader().load(sources, Map.of());
    assertThat(loaded.errors()).isEmpty();

    // Validity judged at a fixed instant: the example certificates are long-lived, but not forever.
    ValidationResult result = new Validator(Clock.fixed(GoldenTest.NOW, ZoneOffset.UTC))
        .validate(GoldenTest.withTlsFiles(loaded.config(), EXAMPLES));
    assertThat(result.statuses()).hasSize(14);
    // The legacy redirect reaches gRPC clients of echo.test as non_forwarding_action: a warning, nothing else.
    assertThat(result.statuses().values()).filteredOn(s -> s.state() != ResourceStatus.State.ACCEPTED)
        .singleElement().satisfies(s -> {
          assertThat(s.key().toString()).isEqualTo("VirtualService/demo/echo");
          assertThat(s.state()).isEqualTo(ResourceStatus.State.WARNING);
          assertThat(s.problems()).extracting(p -> p.field() + " " + p.reason())
              .containsExactly("spec.routes[0].redirect GrpcNonForwardingRoute");
        });

    Translation translation = EnvoyConstraints.checked(new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted())));
    var snapshot = translation.snapshot();
    assertThat(snapshot.ofType(Resources.V3.CLUSTER_TYPE_URL)).containsOnlyKeys("demo/echo-v1", "demo/echo-v2",
        "demo/tls-api", "demo/tls-web", "demo/tls-fallback", "demo/docs");
    Cluster echo = (Cluster) snapshot.ofType(Resources.V3.CLUSTER_TYPE_URL).get("demo/echo-v1");
    assertThat(echo.getOutlierDetection().getFailurePercentageThreshold().getValue()).isEqualTo(50);
    Cluster docs = (Cluster) snapshot.ofType(Resources.V3.CLUSTER_TYPE_URL).get("demo/docs");
    assertThat(docs.getType()).isEqualTo(Cluster.DiscoveryType.STRICT_DNS);
    assertThat(docs.getHealthChecks(0).getHttpHealthCheck().getPath()).isEqualTo("/healthz");
    assertThat(docs.getCircuitBreakers().getThresholds(0).getMaxRequests().getValue()).isEqualTo(200);
    // A DNS cluster carries its endpoints: no EDS resource for it.
    assertThat(snapshot.ofType(Resources.V3.ENDPOINT_TYPE_URL)).containsOnlyKeys("demo/echo-v1", "demo/echo-v2",
        "demo/tls-api", "demo/tls-web", "demo/tls-fallback");
    Listener listener = (Listener) snapshot.ofType(Resources.V3.LISTENER_TYPE_URL).get("gateway/demo/public");
    assertThat(listener.getAddress().getSocketAddress().getPortValue()).isEqualTo(10080);
    RouteConfiguration routes = (RouteConfiguration) snapshot.ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("gateway/demo/public");
    var host = routes.getVirtualHosts(1);
    assertThat(host.getRoutesList()).extracting(r -> r.getName())
        .containsExactly("legacy-redirect", "demo/team-a/api", "demo/team-a/rest", "v2-opt-in", "canary");
    assertThat(host.getRoutes(0).getRedirect().getPrefixRewrite()).isEqualTo("/");
    // The delegated RouteTable's routes stand where the delegating route was.
    assertThat(host.getRoutes(1).getMatch().getPrefix()).isEqualTo("/team-a/api/");
    assertThat(host.getRoutes(1).getRoute().getCluster()).isEqualTo("demo/echo-v2");
    assertThat(host.getRoutes(1).getRoute().getPrefixRewrite()).isEqualTo("/api/");
    assertThat(host.getRoutes(2).getRoute().getCluster()).isEqualTo("demo/echo-v1");
    assertThat(host.getRoutes(3).getMatch().getHeaders(0).getName()).isEqualTo("x-echo-version");
    assertThat(host.getRoutes(4).getRoute().getWeightedClusters().getClustersList())
        .extracting(c -> c.getName() + "=" + c.getWeight().getValue())
        .containsExactly("demo/echo-v1=90", "demo/echo-v2=10");
    assertThat(snapshot.ofType(Resources.V3.LISTENER_TYPE_URL)).containsKeys("echo.test", "echo.test:10080");

    Listener passthrough =
        (Listener) snapshot.ofType(Resources.V3.LISTENER_TYPE_URL).get("TcpGateway/demo/passthrough");
    assertThat(passthrough.getAddress().getSocketAddress().getPortValue()).isEqualTo(10444);
    assertThat(passthrough.getListenerFiltersList()).extracting(f -> f.getName())
        .containsExactly(TcpChains.TLS_INSPECTOR_FILTER);
    assertThat(passthrough.getFilterChainsList())
        .extracting(c -> c.getName() + " " + c.getFilterChainMatch().getServerNamesList())
        .containsExactly("api [api.echo.test]", "web [www.echo.test]", "default []");
    // The browser-facing VirtualService shows route options: CORS and faults need their HTTP filters.
    var web = routes.getVirtualHostsList().stream().filter(h -> h.getName().equals("demo/echo-web")).findFirst()
        .orElseThrow();
    assertThat(web.getRoutesList()).extracting(r -> r.getName()).containsExactly("beta-api", "app", "chaos");
    assertThat(web.getRoutes(2).getTypedPerFilterConfigMap())
        .containsKeys("envoy.filters.http.cors", "envoy.filters.http.fault");
    var manager = listener.getFilterChains(0).getFilters(0).getTypedConfig().unpack(
        io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager.class);
    assertThat(manager.getHttpFiltersList()).extracting(f -> f.getName())
        .containsExactly("envoy.filters.http.cors", "envoy.filters.http.fault", "envoy.filters.http.router");
    // HTTPS on 10443: one chain per certificate, chosen by SNI; a.test redirected to https on the plain listener.
    Listener secure = (Listener) snapshot.ofType(Resources.V3.LISTENER_TYPE_URL).get("gateway/demo/secure");
    assertThat(secure.getAddress().getSocketAddress().getPortValue()).isEqualTo(10443);
    assertThat(secure.getFilterChainsList()).extracting(c -> c.getFilterChainMatch().getServerNames(0))
        .containsExactly("a.test", "b.test");
    assertThat(snapshot.ofType(Resources.V3.SECRET_TYPE_URL)).containsOnlyKeys("file/tls/a.crt", "file/tls/b.crt");
    var plainHosts = routes.getVirtualHostsList();
    assertThat(plainHosts).extracting(h -> h.getName()).containsExactly("demo/a", "demo/echo", "demo/echo-web");
    assertThat(plainHosts.get(0).getRoutes(0).getRedirect().getHttpsRedirect()).isTrue();
  }
}
