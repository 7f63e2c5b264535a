package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The listener and routes of a gRPC server Gateway: only what grpc-java's xDS server accepts (no listener filters,
 * no connection-manager options, RBAC and the Router only), every route non-forwarding, and fail-closed routes.
 * The golden case {@code grpc-server-rbac} shows the whole output; this pins the rules one by one.
 */
class GrpcServerListenersTest {

  private static final String NAME = "gateway/default/grpc";

  private static Translation translate(String routes, String gatewayOptions) {
    return EnvoyConstraints.checked(new Translator().translate(lower(routes, gatewayOptions)));
  }

  private static io.holdfast.ir.Ir lower(String routes, String gatewayOptions) {
    ValidationResult result = new Validator().validate(TestManifests.config(TestManifests.upstream("app", 9101), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: svc}
        spec:
          domains: ['*']
          options:
            security:
              extAuthz: {http: {upstream: app}}
              jwtProviders:
                - {name: idp, issuer: https://idp.test, remoteJwks: {uri: 'https://idp.test/jwks', upstream: app}}
          routes: %s
        """.formatted(routes), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: grpc}
        spec: {port: 50051, grpcServer: true, options: %s}
        """.formatted(gatewayOptions)));
    assertThat(result.accepted().virtualServices()).as("the VirtualService is accepted").hasSize(1);
    return HoldfastFrontEnd.lowerAccepted(result.accepted());
  }

  private static Listener listener(Translation translation) {
    return (Listener) translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).get(NAME);
  }

  private static HttpConnectionManager connectionManager(Translation translation) throws Exception {
    return listener(translation).getFilterChains(0).getFilters(0).getTypedConfig()
        .unpack(HttpConnectionManager.class);
  }

  private static List<Route> routes(Translation translation) {
    return ((RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL).get(NAME))
        .getVirtualHosts(0).getRoutesList();
  }

  @Test
  void withoutRulesTheConnectionManagerHasTheRouterOnlyAndNoOptions() throws Exception {
    Translation translation = translate("""
        [{match: {prefix: /}, route: {upstream: app},
          options: {faults: {abort: {percentage: 100, grpcStatus: 14}}, security: {extAuthz: {disabled: true}},
                    rateLimit: {local: {maxTokens: 10, fillInterval: 1s}}, compression: [gzip]}}]""",
        "{proxyProtocol: false, xffNumTrustedHops: 2, idleTimeout: 60s, accessLogs: [{stdout: {}}]}");
    Listener listener = listener(translation);
    assertThat(listener.getListenerFiltersList()).isEmpty();
    assertThat(listener.getAddress().getSocketAddress().getAddress()).isEqualTo("0.0.0.0");
    assertThat(listener.getAddress().getSocketAddress().getPortValue()).isEqualTo(50051);
    HttpConnectionManager hcm = connectionManager(translation);
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly(ListenerTranslator.ROUTER_FILTER);
    assertThat(hcm.getXffNumTrustedHops()).isZero();
    assertThat(hcm.getAccessLogList()).isEmpty();
    assertThat(hcm.hasCommonHttpProtocolOptions()).isFalse();
    Route route = routes(translation).get(0);
    assertThat(route.hasNonForwardingAction()).isTrue();
    assertThat(route.getTypedPerFilterConfigMap()).isEmpty();
    assertThat(translation.snapshot().ofType(Resources.V3.CLUSTER_TYPE_URL)).containsKey("default/app");
  }

  @Test
  void rulesAddTheRbacFilterAndTheirPerRouteConfig() throws Exception {
    Translation translation = translate("""
        [{match: {prefix: /}, route: {upstream: app},
          options: {security: {extAuthz: {disabled: true}, rbac: {rules: [{directClientIp: [192.0.2.0/24]}]}}}}]""",
        "{}");
    assertThat(connectionManager(translation).getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly(SecurityFilters.RBAC_FILTER, ListenerTranslator.ROUTER_FILTER);
    RBACPerRoute rules = routes(translation).get(0).getTypedPerFilterConfigOrThrow(SecurityFilters.RBAC_FILTER)
        .unpack(RBACPerRoute.class);
    assertThat(rules.getRbac().getRules().getPoliciesMap()).containsKey("rule-0");
  }

  @Test
  void routesRequiringAuthenticationDenyEveryCall() throws Exception {
    Translation translation = translate("""
        [{match: {prefix: /authz}, route: {upstream: app}},
         {match: {prefix: /jwt}, route: {upstream: app},
          options: {security: {extAuthz: {disabled: true}, jwt: {providers: [idp]}}}},
         {match: {prefix: /}, route: {upstream: app}, options: {security: {extAuthz: {disabled: true}}}}]""",
        "{}");
    List<Route> routes = routes(translation);
    for (Route denied : routes.subList(0, 2)) {
      RBACPerRoute rules = denied.getTypedPerFilterConfigOrThrow(SecurityFilters.RBAC_FILTER)
          .unpack(RBACPerRoute.class);
      assertThat(rules.getRbac().getRules().getAction())
          .isEqualTo(io.envoyproxy.envoy.config.rbac.v3.RBAC.Action.ALLOW);
      assertThat(rules.getRbac().getRules().getPoliciesMap()).as(denied.getName()).isEmpty();
    }
    assertThat(routes.get(2).getTypedPerFilterConfigMap()).isEmpty();
    assertThat(connectionManager(translation).getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly(SecurityFilters.RBAC_FILTER, ListenerTranslator.ROUTER_FILTER);
  }

  /** A translator that remembers the previous build gives what a fresh one gives, as the rules change. */
  @Test
  void anIncrementalTranslationEqualsAFreshOne() {
    Translator incremental = new Translator();
    for (String user : List.of("mallory", "alice", "alice", "mallory")) {
      io.holdfast.ir.Ir ir = lower("""
          [{match: {prefix: /}, route: {upstream: app}, options: {security: {extAuthz: {disabled: true},
            rbac: {action: Deny, rules: [{headers: [{name: x-user, exact: %s}]}]}}}}]""".formatted(user), "{}");
      Translation again = incremental.translate(ir);
      Translation fresh = new Translator().translate(ir);
      assertThat(again.snapshot().resources()).as(user).isEqualTo(fresh.snapshot().resources());
      assertThat(again.snapshot().version()).as(user).isEqualTo(fresh.snapshot().version());
    }
  }
}
