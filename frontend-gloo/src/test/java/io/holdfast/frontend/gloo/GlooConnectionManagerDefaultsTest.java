package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import org.junit.jupiter.api.Test;

/**
 * The connection manager a Gloo Gateway is served with holds what Gloo's translator and hcm plugin set when the
 * Gateway says nothing ({@code projects/gloo/pkg/plugins/hcm/plugin.go}, {@code translator/network_filters.go}):
 * {@code normalize_path: true}, a WebSocket upgrade and (grpcweb plugin) the {@code grpc_web} filter where Envoy's
 * defaults are false, none and none, and Envoy's defaults for every other field that changes request handling, as
 * Gloo leaves them.
 */
class GlooConnectionManagerDefaultsTest {

  private static final String SITE = """
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: site, namespace: gloo-system}
      spec:
        virtualHost:
          routes: [{directResponseAction: {status: 200}}]
      ---
      """;

  private static HttpConnectionManager hcm(String gateway) throws Exception {
    Translation translation = new Translator().translate(
        GlooFixtures.build(GlooFixtures.load(SITE + gateway)).ir());
    EnvoyConstraints.assertValid(translation.snapshot());
    Listener listener = (Listener) translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).values().iterator()
        .next();
    return listener.getFilterChains(0).getFilters(0).getTypedConfig().unpack(HttpConnectionManager.class);
  }

  private static String gateway(String httpGateway) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8080
          httpGateway: %s
        """.formatted(httpGateway);
  }

  @Test
  void aGatewayWithoutSettingsNormalisesPathsAndLeavesTheRestAtEnvoysDefaultsAsGlooDoes() throws Exception {
    HttpConnectionManager hcm = hcm(gateway("{}"));
    assertThat(hcm.hasNormalizePath()).isTrue();
    assertThat(hcm.getNormalizePath().getValue()).isTrue();
    // Gloo's hcm plugin: "enable websockets by default if no websocket upgrade was specified" (enabled unset: true).
    assertThat(hcm.getUpgradeConfigsList()).containsExactly(HttpConnectionManager.UpgradeConfig.newBuilder()
        .setUpgradeType("websocket").build());
    // Gloo copies these from httpConnectionManagerSettings, unset (nil wrappers, zero enums) when not given.
    assertThat(hcm.hasUseRemoteAddress()).isFalse();
    assertThat(hcm.getXffNumTrustedHops()).isZero();
    assertThat(hcm.getSkipXffAppend()).isFalse();
    assertThat(hcm.getVia()).isEmpty();
    assertThat(hcm.hasGenerateRequestId()).isFalse();
    assertThat(hcm.getPreserveExternalRequestId()).isFalse();
    assertThat(hcm.getMergeSlashes()).isFalse();
    assertThat(hcm.getPathWithEscapedSlashesAction())
        .isEqualTo(HttpConnectionManager.PathWithEscapedSlashesAction.IMPLEMENTATION_SPECIFIC_DEFAULT);
    assertThat(hcm.getCodecType()).isEqualTo(HttpConnectionManager.CodecType.AUTO);
    assertThat(hcm.getServerName()).isEmpty();
    assertThat(hcm.getServerHeaderTransformation())
        .isEqualTo(HttpConnectionManager.ServerHeaderTransformation.OVERWRITE);
    assertThat(hcm.getForwardClientCertDetails())
        .isEqualTo(HttpConnectionManager.ForwardClientCertDetails.SANITIZE);
    assertThat(hcm.hasStreamIdleTimeout()).isFalse();
    assertThat(hcm.hasRequestTimeout()).isFalse();
    assertThat(hcm.hasHttpProtocolOptions()).isFalse();
    assertThat(hcm.hasCommonHttpProtocolOptions()).isFalse();
    assertThat(hcm.hasMaxRequestHeadersKb()).isFalse();
    // Gloo's router: suppress_envoy_headers only when router.suppressEnvoyHeaders is true, dynamic_stats unset.
    Router router = hcm.getHttpFilters(hcm.getHttpFiltersCount() - 1).getTypedConfig().unpack(Router.class);
    assertThat(router).isEqualTo(Router.getDefaultInstance());
  }

  @Test
  void aGatewayWithoutSettingsTranslatesGrpcWebAfterAuthorisationAsGloosGrpcwebPlugin() throws Exception {
    HttpConnectionManager hcm = hcm(gateway("{}"));
    assertThat(hcm.getHttpFiltersList()).extracting(f -> f.getName())
        .containsExactly("envoy.filters.http.grpc_web", "envoy.filters.http.router");
    assertThat(hcm.getHttpFilters(0).getTypedConfig().unpack(
        io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb.class))
        .isEqualTo(io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb.getDefaultInstance());
  }

  @Test
  void grpcWebDisabledOnTheGatewayOrInTheSettingsLeavesTheFilterOut() throws Exception {
    assertThat(hcm(gateway("{options: {grpcWeb: {disable: true}}}")).getHttpFiltersList())
        .extracting(f -> f.getName()).containsExactly("envoy.filters.http.router");
    assertThat(hcm("""
        apiVersion: gloo.solo.io/v1
        kind: Settings
        metadata: {name: default, namespace: gloo-system}
        spec: {gloo: {disableGrpcWeb: true}}
        ---
        """ + gateway("{}")).getHttpFiltersList()).extracting(f -> f.getName())
        .containsExactly("envoy.filters.http.router");
  }

  @Test
  void anExplicitNormalizePathFalseIsServedAsFalse() throws Exception {
    HttpConnectionManager hcm = hcm(gateway("{options: {httpConnectionManagerSettings: {normalizePath: false}}}"));
    assertThat(hcm.hasNormalizePath()).isTrue();
    assertThat(hcm.getNormalizePath().getValue()).isFalse();
  }

  @Test
  void aWebsocketUpgradeDisabledIsServedWithoutTheUpgradeSoEnvoyRefusesItAsUnderGloo() throws Exception {
    HttpConnectionManager hcm = hcm(gateway(
        "{options: {httpConnectionManagerSettings: {upgrades: [{websocket: {enabled: false}}]}}}"));
    assertThat(hcm.getUpgradeConfigsList()).isEmpty();
  }

  @Test
  void aHybridGatewaysHttpGatewayNormalisesToo() throws Exception {
    HttpConnectionManager hcm = hcm("""
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindPort: 8080
          hybridGateway:
            matchedGateways:
            - matcher: {}
              httpGateway: {}
        """);
    assertThat(hcm.getNormalizePath().getValue()).isTrue();
    assertThat(hcm.getUpgradeConfigsCount()).isOne();
  }
}
