package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.accesslog.v3.AccessLog;
import io.envoyproxy.envoy.config.accesslog.v3.ComparisonFilter;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.access_loggers.file.v3.FileAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.grpc.v3.HttpGrpcAccessLogConfig;
import io.envoyproxy.envoy.extensions.access_loggers.open_telemetry.v3.OpenTelemetryAccessLogConfig;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StderrAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StdoutAccessLog;
import io.envoyproxy.envoy.extensions.common.ratelimit.v3.XRateLimitHeadersRFCVersion;
import io.envoyproxy.envoy.extensions.compression.brotli.compressor.v3.Brotli;
import io.envoyproxy.envoy.extensions.compression.gzip.compressor.v3.Gzip;
import io.envoyproxy.envoy.extensions.compression.zstd.compressor.v3.Zstd;
import io.envoyproxy.envoy.extensions.filters.http.buffer.v3.Buffer;
import io.envoyproxy.envoy.extensions.filters.http.buffer.v3.BufferPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.compressor.v3.Compressor;
import io.envoyproxy.envoy.extensions.filters.http.compressor.v3.CompressorPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.csrf.v3.CsrfPolicy;
import io.envoyproxy.envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimit;
import io.envoyproxy.envoy.extensions.filters.http.ratelimit.v3.RateLimitPerRoute;
import io.envoyproxy.envoy.extensions.filters.listener.proxy_protocol.v3.ProxyProtocol;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteTraffic;
import io.holdfast.ir.SocketOptions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each traffic option through translation: the Envoy field it sets, the Envoy validation rules (every translation
 * here goes through {@code EnvoyConstraints.checked}), and each typed config parsed back into its message class.
 */
class TrafficTranslationTest {

  private static final ResourceKey RLS = ResourceKey.upstream("demo", "rls");
  private static final ResourceKey OTEL = ResourceKey.upstream("demo", "otel");

  @Test
  void socketOptionsPutProxyProtocolFirstAndSetTheBufferLimit() throws Exception {
    Translation translation = TrafficFixtures.translate(new SocketOptions(true, Optional.of(32768)),
        HttpListenerOptions.NONE, List.of(TrafficFixtures.route("a", RouteTraffic.NONE)),
        List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
    Listener listener = TrafficFixtures.listener(translation);
    assertThat(listener.getListenerFilters(0).getName()).isEqualTo(ConnectionOptions.PROXY_PROTOCOL_FILTER);
    assertThat(listener.getListenerFilters(0).getTypedConfig().unpack(ProxyProtocol.class))
        .isEqualTo(ProxyProtocol.getDefaultInstance());
    assertThat(listener.getPerConnectionBufferLimitBytes().getValue()).isEqualTo(32768);
  }

  @Test
  void withoutOptionsTheListenerIsAsBefore() throws Exception {
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, HttpListenerOptions.NONE,
        List.of(TrafficFixtures.route("a", RouteTraffic.NONE)), List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
    Listener listener = TrafficFixtures.listener(translation);
    assertThat(listener.getListenerFiltersCount()).isZero();
    assertThat(listener.hasPerConnectionBufferLimitBytes()).isFalse();
    HttpConnectionManager hcm = TrafficFixtures.hcm(translation);
    assertThat(hcm.getXffNumTrustedHops()).isZero();
    assertThat(hcm.hasCommonHttpProtocolOptions()).isFalse();
    assertThat(hcm.getAccessLogCount()).isZero();
    assertThat(hcm.hasNormalizePath()).isFalse();
    assertThat(hcm.getUpgradeConfigsCount()).isZero();
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly(ListenerTranslator.ROUTER_FILTER);
    assertThat(TrafficFixtures.routes(translation).getResponseHeadersToRemoveList()).isEmpty();
  }

  @Test
  void pathNormalisationIsWrittenAsSetTrueOrFalse() throws Exception {
    for (boolean normalize : List.of(true, false)) {
      Translation translation = TrafficFixtures.translate(SocketOptions.NONE,
          HttpListenerOptions.NONE.withNormalizePath(Optional.of(normalize)),
          List.of(TrafficFixtures.route("a", RouteTraffic.NONE)),
          List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
      HttpConnectionManager hcm = TrafficFixtures.hcm(translation);
      assertThat(hcm.hasNormalizePath()).isTrue();
      assertThat(hcm.getNormalizePath().getValue()).isEqualTo(normalize);
    }
  }

  @Test
  void webSocketsTrueAddsTheWebsocketUpgradeAndFalseLeavesEnvoysRefusal() throws Exception {
    for (boolean on : List.of(true, false)) {
      Translation translation = TrafficFixtures.translate(SocketOptions.NONE,
          HttpListenerOptions.NONE.withWebSockets(Optional.of(on)),
          List.of(TrafficFixtures.route("a", RouteTraffic.NONE)),
          List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
      assertThat(TrafficFixtures.hcm(translation).getUpgradeConfigsList())
          .extracting(HttpConnectionManager.UpgradeConfig::getUpgradeType)
          .isEqualTo(on ? List.of("websocket") : List.of());
    }
  }

  @Test
  void connectionManagerOptions() throws Exception {
    HttpListenerOptions options = new HttpListenerOptions(Optional.of(2), Optional.of(Duration.ofMinutes(5)),
        Optional.of(Duration.ofSeconds(10)), Optional.of(96),
        Optional.of(new HttpListenerOptions.Http2(Optional.of(100), Optional.of(65536), Optional.of(1048576))),
        Optional.of(new HttpListenerOptions.ServerHeader.Name("edge")), List.of(), Optional.empty());
    HttpConnectionManager hcm = TrafficFixtures.hcm(TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(TrafficFixtures.route("a", RouteTraffic.NONE)), List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM))));
    assertThat(hcm.getXffNumTrustedHops()).isEqualTo(2);
    assertThat(hcm.getCommonHttpProtocolOptions().getIdleTimeout().getSeconds()).isEqualTo(300);
    assertThat(hcm.getRequestHeadersTimeout().getSeconds()).isEqualTo(10);
    assertThat(hcm.getMaxRequestHeadersKb().getValue()).isEqualTo(96);
    assertThat(hcm.getHttp2ProtocolOptions().getMaxConcurrentStreams().getValue()).isEqualTo(100);
    assertThat(hcm.getHttp2ProtocolOptions().getInitialStreamWindowSize().getValue()).isEqualTo(65536);
    assertThat(hcm.getHttp2ProtocolOptions().getInitialConnectionWindowSize().getValue()).isEqualTo(1048576);
    assertThat(hcm.getServerName()).isEqualTo("edge");
    assertThat(hcm.getServerHeaderTransformation())
        .isEqualTo(HttpConnectionManager.ServerHeaderTransformation.OVERWRITE);
  }

  @Test
  void strippedServerHeaderPassesThroughAndTheRoutesRemoveIt() throws Exception {
    HttpListenerOptions options = new HttpListenerOptions(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.of(new HttpListenerOptions.ServerHeader.Strip()), List.of(),
        Optional.empty());
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(TrafficFixtures.route("a", RouteTraffic.NONE)), List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM)));
    assertThat(TrafficFixtures.hcm(translation).getServerHeaderTransformation())
        .isEqualTo(HttpConnectionManager.ServerHeaderTransformation.PASS_THROUGH);
    RouteConfiguration routes = TrafficFixtures.routes(translation);
    assertThat(routes.getResponseHeadersToRemoveList()).containsExactly("server");
    // The snapshot's digest of the route configuration covers the removal (a hash tree over the hosts).
    assertThat(io.holdfast.xds.snapshot.XdsSnapshot.digest(routes)).isEqualTo(
        io.holdfast.xds.snapshot.XdsSnapshot.digest(RouteConfiguration.parseFrom(routes.toByteArray())));
  }

  @Test
  void accessLogsOfEverySinkWithFilters() throws Exception {
    TreeMap<String, String> json = new TreeMap<>(Map.of("status", "%RESPONSE_CODE%", "path", "%REQ(:PATH)%"));
    HttpListenerOptions options = new HttpListenerOptions(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), List.of(
            new HttpListenerOptions.AccessLog(new HttpListenerOptions.Sink.Stdout(),
                new HttpListenerOptions.Format.Default(), HttpListenerOptions.LogFilter.ALL),
            new HttpListenerOptions.AccessLog(new HttpListenerOptions.Sink.Stderr(),
                new HttpListenerOptions.Format.Text("%START_TIME% %RESPONSE_CODE%"),
                new HttpListenerOptions.LogFilter(Optional.of(500), Optional.empty(), Optional.empty())),
            new HttpListenerOptions.AccessLog(new HttpListenerOptions.Sink.File("/var/log/envoy/access.log"),
                new HttpListenerOptions.Format.Json(json),
                new HttpListenerOptions.LogFilter(Optional.of(400), Optional.of(499),
                    Optional.of(Duration.ofMillis(250)))),
            new HttpListenerOptions.AccessLog(new HttpListenerOptions.Sink.Grpc(TrafficFixtures.LOGS, "edge"),
                new HttpListenerOptions.Format.Default(), HttpListenerOptions.LogFilter.ALL),
            new HttpListenerOptions.AccessLog(new HttpListenerOptions.Sink.OpenTelemetry(OTEL, "edge-otel",
                Optional.of("collector.example.test")),
                new HttpListenerOptions.Format.Text("%REQ(:METHOD)% %RESPONSE_CODE%"),
                HttpListenerOptions.LogFilter.ALL)),
        Optional.empty());
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(TrafficFixtures.route("a", RouteTraffic.NONE)), List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM),
            TrafficFixtures.cluster(TrafficFixtures.LOGS), TrafficFixtures.cluster(OTEL)));
    List<AccessLog> logs = TrafficFixtures.hcm(translation).getAccessLogList();
    assertThat(logs).extracting(AccessLog::getName).containsExactly(AccessLogs.STDOUT, AccessLogs.STDERR,
        AccessLogs.FILE, AccessLogs.GRPC, AccessLogs.OPEN_TELEMETRY);

    assertThat(logs.get(0).getTypedConfig().unpack(StdoutAccessLog.class).hasLogFormat()).isFalse();
    assertThat(logs.get(0).hasFilter()).isFalse();
    StderrAccessLog stderr = logs.get(1).getTypedConfig().unpack(StderrAccessLog.class);
    assertThat(stderr.getLogFormat().getTextFormatSource().getInlineString())
        .isEqualTo("%START_TIME% %RESPONSE_CODE%\n");
    assertThat(logs.get(1).getFilter().getStatusCodeFilter().getComparison().getOp())
        .isEqualTo(ComparisonFilter.Op.GE);
    assertThat(logs.get(1).getFilter().getStatusCodeFilter().getComparison().getValue().getDefaultValue())
        .isEqualTo(500);

    FileAccessLog file = logs.get(2).getTypedConfig().unpack(FileAccessLog.class);
    assertThat(file.getPath()).isEqualTo("/var/log/envoy/access.log");
    assertThat(file.getLogFormat().getJsonFormat().getFieldsMap()).containsOnlyKeys("path", "status");
    assertThat(logs.get(2).getFilter().getAndFilter().getFiltersList()).hasSize(3);
    assertThat(logs.get(2).getFilter().getAndFilter().getFilters(2).getDurationFilter().getComparison().getValue()
        .getDefaultValue()).isEqualTo(250);

    HttpGrpcAccessLogConfig als = logs.get(3).getTypedConfig().unpack(HttpGrpcAccessLogConfig.class);
    assertThat(als.getCommonConfig().getLogName()).isEqualTo("edge");
    assertThat(als.getCommonConfig().getGrpcService().getEnvoyGrpc().getClusterName()).isEqualTo("demo/als");
    OpenTelemetryAccessLogConfig otel = logs.get(4).getTypedConfig().unpack(OpenTelemetryAccessLogConfig.class);
    assertThat(otel.getCommonConfig().getGrpcService().getEnvoyGrpc().getClusterName()).isEqualTo("demo/otel");
    assertThat(otel.getCommonConfig().getGrpcService().getEnvoyGrpc().getAuthority())
        .isEqualTo("collector.example.test");
    assertThat(als.getCommonConfig().getGrpcService().getEnvoyGrpc().getAuthority()).isEmpty();
    assertThat(otel.getBody().getStringValue()).isEqualTo("%REQ(:METHOD)% %RESPONSE_CODE%");

    // The proxy is served the log services' clusters though no route forwards to them.
    assertThat(translation.snapshot().scopes().byProxy().values().iterator().next().names()
        .get(io.envoyproxy.controlplane.cache.Resources.V3.CLUSTER_TYPE_URL))
        .contains("demo/als", "demo/otel");
  }

  @Test
  void tracingSetsTheOpenTelemetryTracerSamplingAndHeaderTags() throws Exception {
    HttpListenerOptions options = HttpListenerOptions.NONE.withTracing(Optional.of(new HttpListenerOptions.Tracing(
        OTEL, Optional.of("edge"), Optional.of("collector.example.test"), 100, 12.5, 50, true,
        List.of("x-tenant"))));
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(TrafficFixtures.route("a", RouteTraffic.NONE)),
        List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM), TrafficFixtures.cluster(OTEL)));
    HttpConnectionManager.Tracing tracing = TrafficFixtures.hcm(translation).getTracing();
    assertThat(tracing.getClientSampling().getValue()).isEqualTo(100);
    assertThat(tracing.getRandomSampling().getValue()).isEqualTo(12.5);
    assertThat(tracing.getOverallSampling().getValue()).isEqualTo(50);
    assertThat(tracing.getVerbose()).isTrue();
    assertThat(tracing.getCustomTagsList()).singleElement().satisfies(tag -> {
      assertThat(tag.getTag()).isEqualTo("x-tenant");
      assertThat(tag.getRequestHeader().getName()).isEqualTo("x-tenant");
    });
    assertThat(tracing.getProvider().getName()).isEqualTo(ConnectionOptions.OPEN_TELEMETRY_TRACER);
    io.envoyproxy.envoy.config.trace.v3.OpenTelemetryConfig otel = tracing.getProvider().getTypedConfig()
        .unpack(io.envoyproxy.envoy.config.trace.v3.OpenTelemetryConfig.class);
    assertThat(otel.getServiceName()).isEqualTo("edge");
    assertThat(otel.getGrpcService().getEnvoyGrpc().getClusterName()).isEqualTo("demo/otel");
    assertThat(otel.getGrpcService().getEnvoyGrpc().getAuthority()).isEqualTo("collector.example.test");
    // The collector's cluster is served though no route forwards to it.
    assertThat(translation.snapshot().scopes().byProxy().values().iterator().next().names()
        .get(io.envoyproxy.controlplane.cache.Resources.V3.CLUSTER_TYPE_URL)).contains("demo/otel");
  }

  @Test
  void routePoliciesEnableTheirFiltersPerRoute() throws Exception {
    RouteTraffic traffic = new RouteTraffic(
        Optional.of(new RouteTraffic.LocalRateLimit(20, 10, Duration.ofSeconds(1), true)),
        List.of(new RouteTraffic.Descriptor(List.of(new RouteTraffic.Entry.RemoteAddress(),
                new RouteTraffic.Entry.RequestHeader("x-tenant", "tenant"),
                new RouteTraffic.Entry.GenericKey("route", "checkout"),
                new RouteTraffic.Entry.Metadata("subject", "envoy.filters.http.jwt_authn", List.of("claims", "sub"))))),
        EnumSet.of(RouteTraffic.Compression.GZIP, RouteTraffic.Compression.BROTLI, RouteTraffic.Compression.ZSTD),
        Optional.of(new RouteTraffic.Csrf(List.of("https://app.example"), false)), Optional.of(65536));
    HttpListenerOptions options = new HttpListenerOptions(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
        Optional.of(new HttpListenerOptions.RateLimitService(RLS, "edge", Duration.ofMillis(100), false)));
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, options,
        List.of(TrafficFixtures.route("limited", traffic), TrafficFixtures.route("plain", RouteTraffic.NONE)),
        List.of(TrafficFixtures.cluster(TrafficFixtures.UPSTREAM), TrafficFixtures.cluster(RLS)));

    HttpConnectionManager hcm = TrafficFixtures.hcm(translation);
    Map<String, Any> filters = new TreeMap<>();
    hcm.getHttpFiltersList().forEach(f -> filters.put(f.getName(), f.getTypedConfig()));
    assertThat(filters.get(TrafficFilters.LOCAL_RATE_LIMIT).unpack(LocalRateLimit.class).hasTokenBucket()).isFalse();
    RateLimit global = filters.get(TrafficFilters.RATE_LIMIT).unpack(RateLimit.class);
    assertThat(global.getDomain()).isEqualTo("edge");
    assertThat(global.getFailureModeDeny()).isTrue();
    assertThat(global.getRateLimitService().getGrpcService().getEnvoyGrpc().getClusterName()).isEqualTo("demo/rls");
    assertThat(filters.get(TrafficFilters.CSRF).unpack(CsrfPolicy.class).getFilterEnabled().getDefaultValue()
        .getNumerator()).isZero();
    assertThat(filters.get(TrafficFilters.BUFFER).unpack(Buffer.class).getMaxRequestBytes().getValue()).isPositive();
    assertThat(filters.get("envoy.filters.http.compressor.gzip").unpack(Compressor.class).getCompressorLibrary()
        .getTypedConfig().unpack(Gzip.class)).isEqualTo(Gzip.getDefaultInstance());
    assertThat(filters.get("envoy.filters.http.compressor.brotli").unpack(Compressor.class).getCompressorLibrary()
        .getTypedConfig().unpack(Brotli.class)).isEqualTo(Brotli.getDefaultInstance());
    assertThat(filters.get("envoy.filters.http.compressor.zstd").unpack(Compressor.class).getCompressorLibrary()
        .getTypedConfig().unpack(Zstd.class)).isEqualTo(Zstd.getDefaultInstance());

    RouteConfiguration routes = TrafficFixtures.routes(translation);
    Route limited = routes.getVirtualHosts(0).getRoutes(0);
    Map<String, Any> perRoute = limited.getTypedPerFilterConfigMap();
    LocalRateLimit local = perRoute.get(TrafficFilters.LOCAL_RATE_LIMIT).unpack(LocalRateLimit.class);
    assertThat(local.getTokenBucket().getMaxTokens()).isEqualTo(20);
    assertThat(local.getTokenBucket().getTokensPerFill().getValue()).isEqualTo(10);
    assertThat(local.getTokenBucket().getFillInterval().getSeconds()).isEqualTo(1);
    assertThat(local.getFilterEnforced().getDefaultValue().getNumerator()).isEqualTo(100);
    assertThat(local.getEnableXRatelimitHeaders()).isEqualTo(XRateLimitHeadersRFCVersion.DRAFT_VERSION_03);
    assertThat(perRoute.get(TrafficFilters.RATE_LIMIT).unpack(RateLimitPerRoute.class))
        .isEqualTo(RateLimitPerRoute.getDefaultInstance());
    CsrfPolicy csrf = perRoute.get(TrafficFilters.CSRF).unpack(CsrfPolicy.class);
    assertThat(csrf.getFilterEnabled().getDefaultValue().getNumerator()).isEqualTo(100);
    assertThat(csrf.getAdditionalOrigins(0).getExact()).isEqualTo("https://app.example");
    assertThat(perRoute.get(TrafficFilters.BUFFER).unpack(BufferPerRoute.class).getBuffer().getMaxRequestBytes()
        .getValue()).isEqualTo(65536);
    assertThat(perRoute.get("envoy.filters.http.compressor.gzip").unpack(CompressorPerRoute.class).hasOverrides())
        .isTrue();
    List<io.envoyproxy.envoy.config.route.v3.RateLimit.Action> actions =
        limited.getRoute().getRateLimits(0).getActionsList();
    assertThat(actions).hasSize(4);
    assertThat(actions.get(0).hasRemoteAddress()).isTrue();
    assertThat(actions.get(1).getRequestHeaders().getHeaderName()).isEqualTo("x-tenant");
    assertThat(actions.get(2).getGenericKey().getDescriptorValue()).isEqualTo("checkout");
    assertThat(actions.get(3).getMetadata().getMetadataKey().getKey()).isEqualTo("envoy.filters.http.jwt_authn");
    assertThat(actions.get(3).getMetadata().getMetadataKey().getPathList()).extracting(p -> p.getKey())
        .containsExactly("claims", "sub");

    Route plain = routes.getVirtualHosts(0).getRoutes(1);
    assertThat(plain.getTypedPerFilterConfigMap()).isEmpty();
    assertThat(plain.getRoute().getRateLimitsList()).isEmpty();
  }

  @Test
  void redirectsAreNotRateLimitedByDescriptors() throws Exception {
    RouteTraffic traffic = new RouteTraffic(Optional.empty(), List.of(new RouteTraffic.Descriptor(
        List.of(new RouteTraffic.Entry.RemoteAddress()))), EnumSet.noneOf(RouteTraffic.Compression.class),
        Optional.empty(), Optional.empty());
    Translation translation = TrafficFixtures.translate(SocketOptions.NONE, HttpListenerOptions.NONE,
        List.of(TrafficFixtures.route("moved", new RouteAction.Redirect(Optional.of("b.example"), Optional.empty(),
            Optional.empty(), 301, false), traffic)), List.of());
    Route moved = TrafficFixtures.routes(translation).getVirtualHosts(0).getRoutes(0);
    assertThat(moved.hasRedirect()).isTrue();
    assertThat(moved.getTypedPerFilterConfigMap()).doesNotContainKey(TrafficFilters.RATE_LIMIT);
  }
}
