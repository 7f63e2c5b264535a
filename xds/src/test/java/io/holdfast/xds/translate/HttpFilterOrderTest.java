package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RoutePolicies;
import io.holdfast.ir.RouteTraffic;
import io.holdfast.ir.SocketOptions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The documented order of HTTP filters in the connection manager ({@link HttpFilters#beforeRouter}): CORS, then
 * (authentication, authorisation), then the health check, then external processing (at its default position), then
 * gRPC-Web (Gloo Edge's AfterStage(AuthZStage): after ext_proc by name, before rate limits), then local rate limit,
 * global rate limit, CSRF, buffer, then fault, then the compressors, then the Router. Each filter is there only when
 * a route (or, for the health check, external processing and gRPC-Web, the chain's options) uses it.
 */
class HttpFilterOrderTest {

  private static final List<String> DOCUMENTED = List.of(
      HttpFilters.CORS,
      HttpFilters.HEALTH_CHECK,
      ExtProcFilters.EXT_PROC,
      HttpFilters.GRPC_WEB,
      TrafficFilters.LOCAL_RATE_LIMIT,
      TrafficFilters.RATE_LIMIT,
      TrafficFilters.CSRF,
      TrafficFilters.BUFFER,
      HttpFilters.FAULT,
      "envoy.filters.http.compressor.brotli",
      "envoy.filters.http.compressor.zstd",
      "envoy.filters.http.compressor.gzip",
      ListenerTranslator.ROUTER_FILTER);

  @Test
  void everyFilterInTheDocumentedOrder() throws Exception {
    // Each policy on a different route, in an order unlike the documented one: the chain's order is fixed.
    Route compressing = TrafficFixtures.route("compressing", new RouteTraffic(Optional.empty(), List.of(),
        EnumSet.allOf(RouteTraffic.Compression.class), Optional.empty(), Optional.empty()));
    Route faulty = TrafficFixtures.route("faulty", new RouteAction.Forward(TrafficFixtures.UPSTREAM,
        new RouteAction.ForwardPolicy(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.of(new RoutePolicies.Fault(Optional.of(new RoutePolicies.Abort(RoutePolicies.Percent.ALL,
                Optional.of(503), Optional.empty())), Optional.empty())), List.of(), Optional.empty())),
        RouteTraffic.NONE);
    Route buffered = TrafficFixtures.route("buffered", new RouteTraffic(Optional.empty(), List.of(), EnumSet.noneOf(
        RouteTraffic.Compression.class), Optional.empty(), Optional.of(4096)));
    Route csrf = TrafficFixtures.route("csrf", new RouteTraffic(Optional.empty(), List.of(), EnumSet.noneOf(
        RouteTraffic.Compression.class), Optional.of(new RouteTraffic.Csrf(List.of(), false)), Optional.empty()));
    Route global = TrafficFixtures.route("global", new RouteTraffic(Optional.empty(), List.of(
        new RouteTraffic.Descriptor(List.of(new RouteTraffic.Entry.RemoteAddress()))), EnumSet.noneOf(
        RouteTraffic.Compression.class), Optional.empty(), Optional.empty()));
    Route local = TrafficFixtures.route("local", new RouteTraffic(Optional.of(new RouteTraffic.LocalRateLimit(10, 5,
        Duration.ofSeconds(1), true)), List.of(), EnumSet.noneOf(RouteTraffic.Compression.class), Optional.empty(),
        Optional.empty()));
    Route cors = new Route(Origin.of(TrafficFixtures.ROUTES).at("spec.routes[9]"), "cors",
        new io.holdfast.ir.RouteMatch(new io.holdfast.ir.RouteMatch.PathMatch.Prefix("/cors"), List.of(), List.of()),
        new RouteAction.Forward(TrafficFixtures.UPSTREAM, RouteAction.ForwardPolicy.NONE),
        RoutePolicies.HeaderMutation.NONE, Optional.of(new RoutePolicies.Cors(List.of("https://a.example"), List.of(),
            List.of(), List.of(), List.of(), Optional.empty(), Optional.empty())));
    ResourceKey rls = ResourceKey.upstream("demo", "rls");
    HttpListenerOptions options = new HttpListenerOptions(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
        Optional.of(new HttpListenerOptions.RateLimitService(rls, "edge", Duration.ofMillis(20), true)),
        Optional.of("/healthz")).withExtProc(Optional.of(new io.holdfast.ir.ExtProc.Service(ResourceKey.upstream(
            "demo", "processor"), io.holdfast.ir.ExtProc.Mode.DEFAULT, false, Duration.ofMillis(200),
            io.holdfast.ir.ExtProc.Position.AFTER_AUTHORIZATION))).withGrpcWeb(Optional.of(true));

    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(compressing, faulty, buffered, csrf, global, local, cors),
        List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM), TrafficFixtures.cluster(rls),
            TrafficFixtures.cluster(ResourceKey.upstream("demo", "processor"))));

    List<HttpFilter> filters = TrafficFixtures.hcm(translation).getHttpFiltersList();
    assertThat(filters).extracting(HttpFilter::getName).containsExactlyElementsOf(DOCUMENTED);
    // The traffic filters wait, disabled, for the routes that enable them; CORS, the health check, external
    // processing and gRPC-Web (listener options), fault and Router are always on.
    assertThat(filters).filteredOn(HttpFilter::getDisabled).extracting(HttpFilter::getName)
        .containsExactly(TrafficFilters.LOCAL_RATE_LIMIT, TrafficFilters.RATE_LIMIT, TrafficFilters.CSRF,
            TrafficFilters.BUFFER, "envoy.filters.http.compressor.brotli", "envoy.filters.http.compressor.zstd",
            "envoy.filters.http.compressor.gzip");
  }

  @Test
  void grpcWebIsThereOnlyWhenTheChainAsksForIt() throws Exception {
    for (Optional<Boolean> grpcWeb : List.of(Optional.<Boolean>empty(), Optional.of(false), Optional.of(true))) {
      Translation translation = TrafficFixtures.translate(SocketOptions.NONE,
          HttpListenerOptions.NONE.withGrpcWeb(grpcWeb), List.of(TrafficFixtures.route("plain", RouteTraffic.NONE)),
          List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
      List<HttpFilter> filters = TrafficFixtures.hcm(translation).getHttpFiltersList();
      if (grpcWeb.orElse(false)) {
        assertThat(filters).extracting(HttpFilter::getName)
            .containsExactly(HttpFilters.GRPC_WEB, ListenerTranslator.ROUTER_FILTER);
        assertThat(filters.get(0).getTypedConfig().unpack(
            io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb.class))
            .isEqualTo(io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb.getDefaultInstance());
        assertThat(filters.get(0).getDisabled()).isFalse();
      } else {
        assertThat(filters).extracting(HttpFilter::getName).as("%s", grpcWeb)
            .containsExactly(ListenerTranslator.ROUTER_FILTER);
      }
    }
  }

  @Test
  void theHealthCheckAnswersItsExactPathItself() throws Exception {
    HttpListenerOptions options = new HttpListenerOptions(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.of("/healthz"));
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(TrafficFixtures.route("plain", RouteTraffic.NONE)),
        List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
    List<HttpFilter> filters = TrafficFixtures.hcm(translation).getHttpFiltersList();
    assertThat(filters).extracting(HttpFilter::getName)
        .containsExactly(HttpFilters.HEALTH_CHECK, ListenerTranslator.ROUTER_FILTER);
    var check = filters.get(0).getTypedConfig()
        .unpack(io.envoyproxy.envoy.extensions.filters.http.health_check.v3.HealthCheck.class);
    // Not pass-through: the proxy answers, the upstream never sees the probe.
    assertThat(check.hasPassThroughMode()).isTrue();
    assertThat(check.getPassThroughMode().getValue()).isFalse();
    assertThat(check.getHeadersList()).singleElement().satisfies(header -> {
      assertThat(header.getName()).isEqualTo(":path");
      assertThat(header.getStringMatch().getExact()).isEqualTo("/healthz");
    });
  }

  @Test
  void filtersNoRouteUsesAreLeftOut() throws Exception {
    Route buffered = TrafficFixtures.route("buffered", new RouteTraffic(Optional.empty(), List.of(), EnumSet.noneOf(
        RouteTraffic.Compression.class), Optional.empty(), Optional.of(4096)));
    Route gzip = TrafficFixtures.route("gzip", new RouteTraffic(Optional.empty(), List.of(),
        EnumSet.of(RouteTraffic.Compression.GZIP), Optional.empty(), Optional.empty()));
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, HttpListenerOptions.NONE,
        List.of(gzip, buffered), List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
    assertThat(TrafficFixtures.hcm(translation).getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly(TrafficFilters.BUFFER, "envoy.filters.http.compressor.gzip",
            ListenerTranslator.ROUTER_FILTER);
  }

  @Test
  void descriptorsWithoutARateLimitServiceAddNoFilter() throws Exception {
    Route global = TrafficFixtures.route("global", new RouteTraffic(Optional.empty(), List.of(
        new RouteTraffic.Descriptor(List.of(new RouteTraffic.Entry.RemoteAddress()))), EnumSet.noneOf(
        RouteTraffic.Compression.class), Optional.empty(), Optional.empty()));
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, HttpListenerOptions.NONE,
        List.of(global), List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
    assertThat(TrafficFixtures.hcm(translation).getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly(ListenerTranslator.ROUTER_FILTER);
  }

  /** Every filter a chain can have, in order, with the external processor where {@code position} puts it. */
  @Test
  void externalProcessingRunsAtItsPosition() {
    HttpListenerOptions base = new HttpListenerOptions(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
        Optional.of(new HttpListenerOptions.RateLimitService(ResourceKey.upstream("demo", "rls"), "edge",
            Duration.ofMillis(20), true)), Optional.of("/healthz"));
    List<HttpFilter> security = List.of(named(SecurityFilters.JWT_AUTHN), named(SecurityFilters.EXT_AUTHZ + "/a"),
        named(SecurityFilters.JWT_AFTER_AUTHZ), named(SecurityFilters.RBAC_FILTER));
    TrafficFilters.Usage traffic = new TrafficFilters.Usage(true, true, true, true,
        EnumSet.of(RouteTraffic.Compression.GZIP));
    java.util.Map<io.holdfast.ir.ExtProc.Position, String> after = java.util.Map.of(
        io.holdfast.ir.ExtProc.Position.AFTER_CORS, HttpFilters.CORS,
        io.holdfast.ir.ExtProc.Position.BEFORE_RBAC, SecurityFilters.JWT_AFTER_AUTHZ,
        io.holdfast.ir.ExtProc.Position.AFTER_AUTHORIZATION, HttpFilters.HEALTH_CHECK,
        io.holdfast.ir.ExtProc.Position.AFTER_RATE_LIMITS, TrafficFilters.RATE_LIMIT,
        io.holdfast.ir.ExtProc.Position.LAST, "envoy.filters.http.compressor.gzip");
    List<String> without = HttpFilters.beforeRouter(true, security, true, traffic, base).stream()
        .map(HttpFilter::getName).toList();
    assertThat(without).containsExactly(HttpFilters.CORS, SecurityFilters.JWT_AUTHN, SecurityFilters.EXT_AUTHZ + "/a",
        SecurityFilters.JWT_AFTER_AUTHZ, SecurityFilters.RBAC_FILTER, HttpFilters.HEALTH_CHECK,
        TrafficFilters.LOCAL_RATE_LIMIT, TrafficFilters.RATE_LIMIT, TrafficFilters.CSRF, TrafficFilters.BUFFER,
        HttpFilters.FAULT, "envoy.filters.http.compressor.gzip");
    for (io.holdfast.ir.ExtProc.Position position : io.holdfast.ir.ExtProc.Position.values()) {
      HttpListenerOptions options = base.withExtProc(Optional.of(new io.holdfast.ir.ExtProc.Service(
          ResourceKey.upstream("demo", "processor"), io.holdfast.ir.ExtProc.Mode.DEFAULT, false,
          Duration.ofMillis(200), position)));
      List<String> names = HttpFilters.beforeRouter(true, security, true, traffic, options).stream()
          .map(HttpFilter::getName).toList();
      List<String> expected = new java.util.ArrayList<>(without);
      expected.add(position == io.holdfast.ir.ExtProc.Position.FIRST ? 0 : without.indexOf(after.get(position)) + 1,
          ExtProcFilters.EXT_PROC);
      assertThat(names).as(position.name()).containsExactlyElementsOf(expected);
    }
  }

  private static HttpFilter named(String name) {
    return HttpFilter.newBuilder().setName(name).build();
  }
}
