package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.BackendReference;
import io.holdfast.frontend.gatewayapi.BackendResolution;
import io.holdfast.frontend.gatewayapi.Backends;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.gatewayapi.LoweredRoute;
import io.holdfast.frontend.gatewayapi.RankedRoute;
import io.holdfast.frontend.gatewayapi.RouteRules;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.VirtualHost;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * What the Gateway API's route rules become in Envoy: every feature {@link RouteRules} lowers, translated for a
 * socket listener and checked against Envoy's validate.rules, with the Envoy fields that carry its meaning.
 */
class GatewayApiRouteTranslationTest {

  private static final YAMLMapper YAML = YAMLMapper.builder().build();
  private static final String HTTP_ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: features, namespace: web}
      spec:
        rules:
        - matches:
          - path: {type: PathPrefix, value: /redirect}
          filters:
          - type: RequestRedirect
            requestRedirect: {scheme: https, hostname: example.test, statusCode: 301,
                              path: {type: ReplacePrefixMatch, replacePrefixMatch: /new}}
        - matches:
          - path: {type: Exact, value: /port}
          filters:
          - type: RequestRedirect
            requestRedirect: {port: 8443, path: {type: ReplaceFullPath, replaceFullPath: /moved}}
        - matches:
          - path: {type: PathPrefix, value: /rewrite}
            headers: [{name: X-Version, type: RegularExpression, value: "v[0-9]+"}]
            queryParams: [{name: debug, value: "1"}]
            method: GET
          filters:
          - type: URLRewrite
            urlRewrite: {hostname: backend.test, path: {type: ReplacePrefixMatch, replacePrefixMatch: /}}
          - type: RequestHeaderModifier
            requestHeaderModifier: {set: [{name: X-Set, value: a}], add: [{name: X-Add, value: b}], remove: [X-Gone]}
          - type: ResponseHeaderModifier
            responseHeaderModifier: {add: [{name: X-Served-By, value: holdfast}]}
          - type: RequestMirror
            requestMirror: {backendRef: {name: shadow, port: 80}, fraction: {numerator: 1, denominator: 4}}
          - type: CORS
            cors: {allowOrigins: ["https://*.web.test"], allowMethods: [GET], exposeHeaders: [x-trace], maxAge: 60}
          timeouts: {request: 10s, backendRequest: 2s}
          backendRefs: [{name: app, port: 80, weight: 3}, {name: app-canary, port: 80, weight: 1}]
        - matches:
          - path: {type: RegularExpression, value: "/full/[a-z]+"}
          filters:
          - type: URLRewrite
            urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /replaced}}
          backendRefs: [{name: app, port: 80}]
        - matches:
          - path: {type: PathPrefix, value: /broken}
          backendRefs: [{name: missing, port: 80}]
      """;
  private static final String GRPC_ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GRPCRoute
      metadata: {name: rpc, namespace: web}
      spec:
        rules:
        - matches:
          - method: {service: echo.Echo, method: Say}
          - method: {type: RegularExpression, service: "echo\\\\..*", method: "Get.*"}
            headers: [{name: tenant, value: a}]
          backendRefs: [{name: app, port: 9000}]
      """;

  private final Translator translator = new Translator();

  @Test
  void httpRouteFeaturesTranslateToValidEnvoyRoutes() {
    TestBackends backends = new TestBackends();
    LoweredRoute lowered = RouteRules.http(YAML.readValue(HTTP_ROUTE, HTTPRoute.class),
        new ResourceKey(GatewayApiFrontEnd.GROUP, "HTTPRoute", "web", "features"), backends);
    assertThat(lowered.notAccepted()).isEmpty();
    Map<String, Route> routes = translate(lowered, backends);

    Route redirect = routes.get("httproute/web/features/rule/0/match/0/prefix");
    assertThat(redirect.getMatch().getPrefix()).isEqualTo("/redirect/");
    assertThat(redirect.getRedirect().getSchemeRedirect()).isEqualTo("https");
    assertThat(redirect.getRedirect().getPortRedirect()).isZero(); // Location shows no port for https's 443
    assertThat(redirect.getRedirect().getHostRedirect()).isEqualTo("example.test");
    assertThat(redirect.getRedirect().getPrefixRewrite()).isEqualTo("/new/");
    assertThat(redirect.getRedirect().getResponseCodeValue()).isZero(); // MOVED_PERMANENTLY, 301
    assertThat(routes.get("httproute/web/features/rule/0/match/0/exact").getMatch().getPath()).isEqualTo("/redirect");

    Route port = routes.get("httproute/web/features/rule/1/match/0");
    assertThat(port.getRedirect().getPortRedirect()).isEqualTo(8443);
    assertThat(port.getRedirect().getPathRedirect()).isEqualTo("/moved");
    assertThat(port.getRedirect().getSchemeRedirect()).isEmpty();

    Route rewrite = routes.get("httproute/web/features/rule/2/match/0/prefix");
    assertThat(rewrite.getMatch().getHeadersList()).extracting(h -> h.getName()).containsExactly("x-version",
        ":method");
    assertThat(rewrite.getMatch().getQueryParametersList()).singleElement()
        .satisfies(q -> assertThat(q.getName()).isEqualTo("debug"));
    assertThat(rewrite.getRoute().getPrefixRewrite()).isEqualTo("/");
    assertThat(rewrite.getRoute().getHostRewriteLiteral()).isEqualTo("backend.test");
    assertThat(rewrite.getRoute().getTimeout().getSeconds()).isEqualTo(10);
    assertThat(rewrite.getRoute().getRetryPolicy().getNumRetries().getValue()).isZero();
    assertThat(rewrite.getRoute().getRetryPolicy().getPerTryTimeout().getSeconds()).isEqualTo(2);
    assertThat(rewrite.getRoute().getWeightedClusters().getClustersList()).extracting(c -> c.getWeight().getValue())
        .containsExactly(3, 1);
    assertThat(rewrite.getRoute().getRequestMirrorPoliciesList()).singleElement().satisfies(m -> {
      assertThat(m.getRuntimeFraction().getDefaultValue().getNumerator()).isEqualTo(25);
      assertThat(m.getRuntimeFraction().getDefaultValue().getDenominator())
          .isEqualTo(io.envoyproxy.envoy.type.v3.FractionalPercent.DenominatorType.HUNDRED);
    });
    assertThat(rewrite.getRequestHeadersToAddList()).extracting(h -> h.getHeader().getKey())
        .containsExactly("x-set", "x-add");
    assertThat(rewrite.getRequestHeadersToRemoveList()).containsExactly("x-gone");
    assertThat(rewrite.getResponseHeadersToAddList()).extracting(h -> h.getHeader().getKey())
        .containsExactly("x-served-by");

    assertThat(rewrite.getTypedPerFilterConfigMap()).isNotEmpty();
    // The Gateway API's CORS: expose-headers on allowed answers (preflights included, through the filter's own
    // response path), and a preflight from another origin answered by the proxy, never forwarded to the backend.
    io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy cors = unpackCors(rewrite);
    assertThat(cors.getExposeHeaders()).isEqualTo("x-trace");
    assertThat(cors.hasForwardNotMatchingPreflights()).isTrue();
    assertThat(cors.getForwardNotMatchingPreflights().getValue()).isFalse();

    Route full = routes.get("httproute/web/features/rule/3/match/0");
    assertThat(full.getMatch().getSafeRegex().getRegex()).isEqualTo("/full/[a-z]+");
    assertThat(full.getRoute().getRegexRewrite().getSubstitution()).isEqualTo("/replaced");

    Route broken = routes.get("httproute/web/features/rule/4/match/0/prefix");
    assertThat(broken.getDirectResponse().getStatus()).isEqualTo(500);
  }

  @Test
  void grpcRouteTranslatesToValidEnvoyRoutes() {
    TestBackends backends = new TestBackends();
    LoweredRoute lowered = RouteRules.grpc(YAML.readValue(GRPC_ROUTE, GRPCRoute.class),
        new ResourceKey(GatewayApiFrontEnd.GROUP, "GRPCRoute", "web", "rpc"), backends);
    Map<String, Route> routes = translate(lowered, backends);

    assertThat(routes.get("grpcroute/web/rpc/rule/0/match/0").getMatch().getPath()).isEqualTo("/echo.Echo/Say");
    assertThat(routes.get("grpcroute/web/rpc/rule/0/match/1").getMatch().getSafeRegex().getRegex())
        .isEqualTo("/(echo\\..*)/(Get.*)");
    assertThat(backends.clusters.values()).allSatisfy(c -> assertThat(c.http2()).isTrue());
  }

  /** Translates the routes on one socket listener; every resource must pass Envoy's validate.rules. */
  private Map<String, Route> translate(LoweredRoute lowered, TestBackends backends) {
    Origin gateway = Origin.of(new ResourceKey(GatewayApiFrontEnd.GROUP, "Gateway", "web", "gw"));
    VirtualHost host = new VirtualHost(gateway, List.of("*"),
        lowered.routes().stream().sorted().map(RankedRoute::route).toList());
    Listener listener = new Listener.Socket(gateway, "0.0.0.0", 10080, List.of(new Listener.FilterChain.Http(
        gateway, "http", Listener.ChainMatch.ANY, Optional.empty(), List.of(host))));
    Translation translation = EnvoyConstraints.checked(translator.translate(new Ir(List.of(listener),
        List.copyOf(backends.clusters.values()), List.of())));
    Map<String, Route> routes = new LinkedHashMap<>();
    translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL).values().stream()
        .map(RouteConfiguration.class::cast)
        .flatMap(config -> config.getVirtualHostsList().stream())
        .flatMap(vh -> vh.getRoutesList().stream())
        .forEach(route -> routes.put(route.getName(), route));
    return routes;
  }

  /** Every Service but {@code missing} exists, as a cluster of one loopback endpoint per Service port. */
  private static final class TestBackends implements Backends {
    final Map<ResourceKey, Cluster> clusters = new LinkedHashMap<>();

    @Override
    public BackendResolution resolve(String routeNamespace, BackendReference ref, BackendProtocol protocol,
        Origin origin) {
      if (ref.name().equals("missing")) {
        return new BackendResolution.Unresolved(BackendResolution.Reason.BACKEND_NOT_FOUND, "no Service missing");
      }
      int port = ref.port().orElseThrow();
      ResourceKey key = ResourceKey.core("Service", ref.namespaceOr(routeNamespace), ref.name() + ":" + port);
      clusters.computeIfAbsent(key, k -> new Cluster(Origin.of(k), Duration.ofSeconds(1),
          Cluster.LbPolicy.ROUND_ROBIN, protocol == BackendProtocol.GRPC,
          List.of(new Cluster.WeightedEndpoint("127.0.0.1", 8080, 1))));
      return new BackendResolution.Resolved(key);
    }
  }

  private static io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy unpackCors(Route route) {
    return route.getTypedPerFilterConfigMap().values().stream()
        .filter(any -> any.is(io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy.class))
        .map(any -> {
          try {
            return any.unpack(io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy.class);
          } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            throw new AssertionError(e);
          }
        })
        .findFirst().orElseThrow(() -> new AssertionError("no CORS policy on " + route.getName()));
  }
}
