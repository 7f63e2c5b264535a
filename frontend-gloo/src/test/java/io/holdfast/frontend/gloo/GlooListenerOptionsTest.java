package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.TrafficOptions;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Gloo Gateway's listener options ({@code useProxyProto}, {@code options}, {@code httpGateway.options}) read as
 * Holdfast's Gateway options with Gloo's meaning; what has no Holdfast equivalent rejects the Gateway by field.
 */
class GlooListenerOptionsTest {

  private static final String GRPC_UPSTREAM = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: als, namespace: gloo-system}
      spec:
        static: {hosts: [{addr: 192.0.2.30, port: 8083}]}
        useHttp2: true
      ---
      """;

  private static String gateway(String specExtra, String httpOptions) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          httpGateway:
            options: %s
        %s
        """.formatted(httpOptions, specExtra.indent(2).stripTrailing());
  }

  /** The Holdfast Gateway options the Gloo Gateway {@code gloo-system/gw} reads as (it must be read). */
  private static TrafficOptions.Listener read(String yaml) {
    GlooReading reading = GlooReading.of(GlooFixtures.load(yaml));
    assertThat(reading.rejected()).as("rejected").isEmpty();
    return reading.holdfastConfig().gateways().stream().filter(g -> g.metadata().name().equals("gw")).findFirst()
        .orElseThrow().options();
  }

  private static ObjectStatus status(String yaml) {
    return GlooFixtures.gateway(GlooFixtures.build(GlooFixtures.load(yaml)), "gloo-system", "gw");
  }

  private static List<Finding> errors(String yaml) {
    ObjectStatus status = status(yaml);
    assertThat(status.isAccepted()).as("%s", status.findings()).isFalse();
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  @Test
  void fileSinksKeepTheirPathAndFormat() {
    TrafficOptions.Listener options = read(gateway("""
        options:
          accessLoggingService:
            accessLog:
            - fileSink: {path: /dev/stdout, stringFormat: ""}
            - fileSink:
                path: /dev/stdout
                stringFormat: "test-header: %REQ(test-header)%\\n"
            - fileSink:
                path: /var/log/access.json
                jsonFormat: {protocol: '%PROTOCOL%', duration: '%DURATION%'}
        """, "{}"));
    assertThat(options.accessLogs()).extracting(TrafficOptions.AccessLog::sink).containsOnly(
        new TrafficOptions.Sink.File("/dev/stdout"), new TrafficOptions.Sink.File("/var/log/access.json"));
    // stringFormat "" is Envoy's default format in Gloo (no format set).
    assertThat(options.accessLogs().get(0).text()).isEmpty();
    assertThat(options.accessLogs().get(0).json()).isEmpty();
    assertThat(options.accessLogs().get(1).text()).contains("test-header: %REQ(test-header)%\n");
    assertThat(options.accessLogs().get(2).json())
        .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("duration", "%DURATION%", "protocol", "%PROTOCOL%")));
    assertThat(options.accessLogs()).extracting(TrafficOptions.AccessLog::filter)
        .containsOnly(TrafficOptions.LogFilter.ALL);
  }

  @Test
  void statusAndDurationFiltersBecomeBoundsAndTheRuntimeKeyNotKeptIsSaid() {
    String yaml = gateway("""
        options:
          accessLoggingService:
            accessLog:
            - fileSink: {path: /dev/stdout}
              filter:
                statusCodeFilter:
                  comparison: {op: GE, value: {defaultValue: 400, runtimeKey: "400"}}
            - fileSink: {path: /dev/stdout}
              filter:
                andFilter:
                  filters:
                  - statusCodeFilter: {comparison: {op: LE, value: {defaultValue: 499, runtimeKey: a}}}
                  - durationFilter: {comparison: {op: GE, value: {defaultValue: 250, runtimeKey: b}}}
            - fileSink: {path: /dev/stdout}
              filter:
                statusCodeFilter: {comparison: {value: {defaultValue: 503, runtimeKey: c}}}
        """, "{}");
    TrafficOptions.Listener options = read(yaml);
    assertThat(options.accessLogs()).extracting(TrafficOptions.AccessLog::filter).containsExactly(
        new TrafficOptions.LogFilter(Optional.of(400L), Optional.empty(), Optional.empty()),
        new TrafficOptions.LogFilter(Optional.empty(), Optional.of(499L), Optional.of(Duration.ofMillis(250))),
        // No op: proto3's zero value, EQ.
        new TrafficOptions.LogFilter(Optional.of(503L), Optional.of(503L), Optional.empty()));
    ObjectStatus status = status(yaml);
    assertThat(status.isAccepted()).isTrue();
    assertThat(status.findings()).filteredOn(f -> f.reason().equals("RuntimeKeyNotKept")).extracting(Finding::field)
        .contains("spec.options.accessLoggingService.accessLog[0].filter.statusCodeFilter.comparison.value"
            + ".runtimeKey");
  }

  @Test
  void aGrpcServiceOnAGlooUpstreamsClusterIsHoldfastsGrpcSinkOnThatUpstream() {
    String yaml = GRPC_UPSTREAM + gateway("""
        options:
          accessLoggingService:
            accessLog:
            - grpcService: {logName: edge, staticClusterName: als_gloo-system}
        """, "{}");
    TrafficOptions.Listener options = read(yaml);
    assertThat(options.accessLogs()).extracting(TrafficOptions.AccessLog::sink)
        .containsExactly(new TrafficOptions.Sink.Grpc(ObjectRef.of("gloo-system", "als"), "edge"));
    assertThat(status(yaml).isAccepted()).isTrue();
  }

  @Test
  void aBootstrapClusterRejectsTheGatewayByField() {
    assertThat(errors(gateway("""
        options:
          accessLoggingService:
            accessLog:
            - grpcService: {logName: example, staticClusterName: access_log_cluster}
        """, "{}"))).extracting(Finding::field, Finding::reason).containsExactly(org.assertj.core.groups.Tuple.tuple(
            "spec.options.accessLoggingService.accessLog[0].grpcService.staticClusterName", "UnsupportedGlooFeature"));
  }

  @Test
  void anOpenTelemetryCollectorIsAnUpstreamAsGlooMakesItsCluster() {
    String yaml = gateway("""
        options:
          accessLoggingService:
            accessLog:
            - openTelemetryService:
                logName: example
                collector: {endpoint: otel-collector.default.svc.cluster.local:4317}
            - openTelemetryService:
                logName: plain
                collector: {endpoint: '192.0.2.40:4317', insecure: true, authority: collector.example.test}
                body: {stringValue: '%REQ(USER-AGENT)%'}
                attributes: {values: [{key: foo, value: {stringValue: bar}}]}
        """, "{}");
    GlooReading reading = GlooReading.of(GlooFixtures.load(yaml));
    assertThat(reading.rejected()).isEmpty();
    TrafficOptions.Listener options = reading.holdfastConfig().gateways().get(0).options();
    ObjectRef first = ObjectRef.of("gloo-system", OtelCollectors.PREFIX + "gw-0");
    ObjectRef second = ObjectRef.of("gloo-system", OtelCollectors.PREFIX + "gw-1");
    assertThat(options.accessLogs()).extracting(TrafficOptions.AccessLog::sink).containsExactly(
        new TrafficOptions.Sink.OpenTelemetry(first, "example"),
        new TrafficOptions.Sink.OpenTelemetry(second, "plain", Optional.of("collector.example.test")));
    assertThat(options.accessLogs().get(1).text()).contains("%REQ(USER-AGENT)%");
    assertThat(options.accessLogs().get(1).json()).containsExactlyEntriesOf(new java.util.TreeMap<>(
        Map.of("foo", "bar")));
    Map<String, io.holdfast.api.Upstream> upstreams = new java.util.HashMap<>();
    reading.holdfastConfig().upstreams().forEach(u -> upstreams.put(u.metadata().name(), u));
    // Gloo's cluster: HTTP/2, TLS with the host as SNI and no certificate check unless insecure.
    io.holdfast.api.Upstream tls = upstreams.get(first.name());
    assertThat(tls.http2()).isTrue();
    assertThat(tls.target()).isEqualTo(new io.holdfast.api.UpstreamTarget.Static(List.of(
        io.holdfast.api.UpstreamTarget.Host.of("otel-collector.default.svc.cluster.local", 4317))));
    assertThat(tls.options().tls()).contains(new io.holdfast.api.UpstreamOptions.Tls(
        Optional.of("otel-collector.default.svc.cluster.local"),
        Optional.of(io.holdfast.api.UpstreamOptions.TlsVerify.NONE)));
    assertThat(upstreams.get(second.name()).options().tls()).isEmpty();

    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.gateway(result, "gloo-system", "gw").isAccepted()).isTrue();
    assertThat(result.ir().clusters()).extracting(c -> c.origin().object()).contains(new io.holdfast.api.ResourceKey(
        GlooKinds.GLOO_GROUP, OtelCollectors.KIND, "gloo-system", "gw:example"));
  }

  @Test
  void nestedOpenTelemetryAttributesAreTheSinksAttributesInGloosOrder() {
    String yaml = gateway("""
        options:
          accessLoggingService:
            accessLog:
            - openTelemetryService:
                logName: example
                collector: {endpoint: '192.0.2.40:4317', insecure: true}
                attributes:
                  values:
                  - key: foo
                    value: {stringValue: bar}
                  - key: bar
                    value: {kvlistValue: {values: [{key: baz, value: {arrayValue: {values: [{stringValue: qux}]}}}]}}
        """, "{}");
    GlooReading reading = GlooReading.of(GlooFixtures.load(yaml));
    assertThat(reading.rejected()).isEmpty();
    TrafficOptions.AccessLog log = reading.holdfastConfig().gateways().get(0).options().accessLogs().get(0);
    assertThat(log.json()).isEmpty();
    assertThat(((TrafficOptions.Sink.OpenTelemetry) log.sink()).attributes()).containsExactly(
        new TrafficOptions.OtelAttribute("foo", new TrafficOptions.OtelValue.Text("bar")),
        new TrafficOptions.OtelAttribute("bar", new TrafficOptions.OtelValue.KvList(List.of(
            new TrafficOptions.OtelAttribute("baz", new TrafficOptions.OtelValue.Array(List.of(
                new TrafficOptions.OtelValue.Text("qux"))))))));
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.gateway(result, "gloo-system", "gw").isAccepted()).isTrue();
  }

  @Test
  void openTelemetryFieldsHoldfastLacksRejectTheGateway() {
    // Nested deeper than Holdfast's bound: refused where the bound is passed, with its reason.
    assertThat(errors(gateway("""
        options:
          accessLoggingService:
            accessLog:
            - openTelemetryService:
                logName: example
                collector:
                  endpoint: otel-collector.default.svc.cluster.local:4317
                  authority: authority.example.com
                attributes:
                  values:
                  - key: bar
                    value: {kvlistValue: {values: [{key: baz, value: {arrayValue: {values: [{kvlistValue: {}}]}}}]}}
        """, "{}"))).extracting(Finding::field, Finding::reason).containsExactly(org.assertj.core.groups.Tuple.tuple(
            "spec.options.accessLoggingService.accessLog[0].openTelemetryService.attributes.values[0].value"
                + ".kvlistValue.values[0].value.arrayValue.values[0].kvlistValue",
            io.holdfast.api.TrafficReasons.OTEL_ATTRIBUTES_TOO_DEEP));
    assertThat(errors(gateway("""
        options:
          accessLoggingService:
            accessLog:
            - openTelemetryService:
                logName: example
                collector: {endpoint: '192.0.2.40:4317'}
                attributes: {values: [{key: n, value: {intValue: 3}}]}
        """, "{}"))).extracting(Finding::field).containsExactly(
            "spec.options.accessLoggingService.accessLog[0].openTelemetryService.attributes.values[0].value.intValue");
    assertThat(errors(gateway("""
        options:
          accessLoggingService:
            accessLog:
            - openTelemetryService: {logName: x, collector: {endpoint: no-port}}
        """, "{}"))).extracting(Finding::field)
        .containsExactly("spec.options.accessLoggingService.accessLog[0].openTelemetryService.collector.endpoint");
  }

  @Test
  void filtersWithoutAHoldfastEquivalentRejectTheGateway() {
    String header = """
        options:
          accessLoggingService:
            accessLog:
            - fileSink: {path: /dev/stdout}
              filter:
                headerFilter: {header: {name: ':path', exactMatch: /get}}
        """;
    assertThat(errors(gateway(header, "{}"))).extracting(Finding::field, Finding::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.options.accessLoggingService.accessLog[0].filter.headerFilter",
            "UnsupportedGlooFeature"));
    String runtimeOnly = """
        options:
          accessLoggingService:
            accessLog:
            - fileSink: {path: /dev/stdout}
              filter:
                statusCodeFilter: {comparison: {op: GE, value: {runtimeKey: access_log_status_filter}}}
        """;
    assertThat(errors(gateway(runtimeOnly, "{}"))).extracting(Finding::field).containsExactly(
        "spec.options.accessLoggingService.accessLog[0].filter.statusCodeFilter.comparison.value.defaultValue");
    String durationAtMost = """
        options:
          accessLoggingService:
            accessLog:
            - fileSink: {path: /dev/stdout}
              filter:
                durationFilter: {comparison: {op: LE, value: {defaultValue: 5, runtimeKey: k}}}
        """;
    assertThat(errors(gateway(durationAtMost, "{}"))).extracting(Finding::field).containsExactly(
        "spec.options.accessLoggingService.accessLog[0].filter.durationFilter.comparison.op");
  }

  @Test
  void connectionManagerSettingsAndTheHealthCheckAreHoldfastsListenerOptions() {
    TrafficOptions.Listener options = read(gateway("useProxyProto: true\n"
        + "options: {perConnectionBufferLimitBytes: 32768}", """
        {healthCheck: {path: /any-path-you-want},
             httpConnectionManagerSettings: {xffNumTrustedHops: 2, useRemoteAddress: false, idleTimeout: 30s,
               requestHeadersTimeout: 5s, maxRequestHeadersKb: 96, serverName: edge,
               http2ProtocolOptions: {maxConcurrentStreams: 100, initialStreamWindowSize: 65536,
                 initialConnectionWindowSize: 1048576}}}"""));
    assertThat(options).isEqualTo(new TrafficOptions.Listener(true, Optional.of(32768L), Optional.of(2L),
        Optional.of(Duration.ofSeconds(30)), Optional.of(Duration.ofSeconds(5)), Optional.of(96L),
        Optional.of(new TrafficOptions.Http2(Optional.of(100L), Optional.of(65536L), Optional.of(1048576L))),
        Optional.of(new TrafficOptions.ServerHeader(Optional.empty(), Optional.of("edge"))), List.of(),
        Optional.empty(), Optional.of(new TrafficOptions.HealthCheck("/any-path-you-want")))
        .withNormalizePath(Optional.of(true)).withWebSockets(Optional.of(true)).withGrpcWeb(Optional.of(true)));
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {serverHeaderTransformation: PASS_THROUGH}}"))
        .serverHeader()).contains(new TrafficOptions.ServerHeader(Optional.of("PassThrough"), Optional.empty()));
  }

  @Test
  void withoutNormalizePathTheGatewayNormalisesAsGloosHcmPluginDefaults() {
    assertThat(read(gateway("", "{}")).normalizePath()).contains(true);
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {xffNumTrustedHops: 1}}")).normalizePath())
        .contains(true);
    // A Gateway without httpGateway.options, as Gloo's Helm chart writes its default ones (httpGateway: {}).
    assertThat(read("""
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec: {bindPort: 8080, httpGateway: {}}
        """).normalizePath()).contains(true);
  }

  @Test
  void anExplicitNormalizePathWins() {
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {normalizePath: false}}")).normalizePath())
        .contains(false);
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {normalizePath: true}}")).normalizePath())
        .contains(true);
  }

  @Test
  void webSocketsAreProxiedUnlessAWebsocketUpgradeSaysOtherwiseAsGloosHcmPluginDefaults() {
    assertThat(read(gateway("", "{}")).webSockets()).contains(true);
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {upgrades: [{websocket: {}}]}}")).webSockets())
        .contains(true);
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {upgrades: [{websocket: {enabled: true}}]}}"))
        .webSockets()).contains(true);
    assertThat(read(gateway("", "{httpConnectionManagerSettings: {upgrades: [{websocket: {enabled: false}}]}}"))
        .webSockets()).contains(false);
    // CONNECT has no Holdfast equivalent; a second websocket entry Gloo refuses too.
    assertThat(errors(gateway("", "{httpConnectionManagerSettings: {upgrades: [{connect: {enabled: true}},"
        + " {websocket: {enabled: false}}, {websocket: {}}]}}"))).extracting(Finding::field, Finding::reason)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                "spec.httpGateway.options.httpConnectionManagerSettings.upgrades[0].connect", "UnsupportedGlooFeature"),
            org.assertj.core.groups.Tuple.tuple(
                "spec.httpGateway.options.httpConnectionManagerSettings.upgrades[2].websocket", "ConflictingFields"));
  }

  /** Gloo's Settings in use, with {@code gloo} as written (the rest of it configures Gloo's processes). */
  private static String settings(String gloo) {
    return """
        apiVersion: gloo.solo.io/v1
        kind: Settings
        metadata: {name: default, namespace: gloo-system}
        spec:
          discoveryNamespace: gloo-system
          gloo: %s
        ---
        """.formatted(gloo);
  }

  @Test
  void grpcWebIsOnUnlessTheSettingsOrTheGatewaySayOtherwiseAsGloosGrpcwebPlugin() {
    // No Settings, or a Settings that says nothing: Gloo's default, the grpc_web filter on every HTTP listener.
    assertThat(read(gateway("", "{}")).grpcWeb()).contains(true);
    assertThat(read(settings("{xdsBindAddr: '0.0.0.0:9977'}") + gateway("", "{}")).grpcWeb()).contains(true);
    // The Settings turn it off for every Gateway that does not say: disableGrpcWeb, or with it unset
    // removeUnusedFilters; an explicit disableGrpcWeb: false wins over removeUnusedFilters.
    assertThat(read(settings("{disableGrpcWeb: true}") + gateway("", "{}")).grpcWeb()).contains(false);
    assertThat(read(settings("{removeUnusedFilters: true}") + gateway("", "{}")).grpcWeb()).contains(false);
    assertThat(read(settings("{removeUnusedFilters: true, disableGrpcWeb: false}") + gateway("", "{}")).grpcWeb())
        .contains(true);
    // The Gateway's grpcWeb, when given, decides whatever the Settings say.
    assertThat(read(gateway("", "{grpcWeb: {disable: true}}")).grpcWeb()).contains(false);
    assertThat(read(settings("{disableGrpcWeb: true}") + gateway("", "{grpcWeb: {}}")).grpcWeb()).contains(true);
    assertThat(read(settings("{disableGrpcWeb: true}") + gateway("", "{grpcWeb: {disable: false}}")).grpcWeb())
        .contains(true);
    // A field Gloo's GrpcWeb does not have rejects the Gateway, naming it.
    assertThat(errors(gateway("", "{grpcWeb: {enable: true}}"))).extracting(Finding::field)
        .containsExactly("spec.httpGateway.options.grpcWeb.enable");
  }

  @Test
  void aSettingsDisableGrpcWebThatIsNotABooleanRejectsTheSettingsAndGatewaysKeepGloosDefault() {
    GlooReading reading = GlooReading.of(GlooFixtures.load(settings("{disableGrpcWeb: sometimes}")
        + gateway("", "{}")));
    assertThat(reading.rejected().keySet()).extracting(io.holdfast.api.ResourceKey::kind)
        .containsExactly("Settings");
    assertThat(reading.rejected().values().iterator().next()).extracting(Finding::field)
        .containsExactly("spec.gloo.disableGrpcWeb");
    assertThat(reading.holdfastConfig().gateways()).singleElement()
        .satisfies(g -> assertThat(g.options().grpcWeb()).contains(true));
  }

  @Test
  void connectionManagerSettingsHoldfastLacksRejectTheGatewayByField() {
    assertThat(errors(gateway("", "{httpConnectionManagerSettings: {useRemoteAddress: true, tracing: {},"
        + " serverHeaderTransformation: APPEND_IF_ABSENT}, waf: {}}"))).extracting(Finding::field)
        .containsExactlyInAnyOrder(
            "spec.httpGateway.options.httpConnectionManagerSettings.useRemoteAddress",
            "spec.httpGateway.options.httpConnectionManagerSettings.tracing",
            "spec.httpGateway.options.httpConnectionManagerSettings.serverHeaderTransformation",
            "spec.httpGateway.options.waf");
    assertThat(errors(gateway("", "{healthCheck: {path: ''}}"))).extracting(Finding::field)
        .containsExactly("spec.httpGateway.options.healthCheck.path");
    // Holdfast's own checks apply to the read values, with the Gloo field path.
    assertThat(errors(gateway("", "{healthCheck: {path: healthz}}"))).extracting(Finding::field, Finding::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.httpGateway.options.healthCheck.path",
            "InvalidHealthCheck"));
    assertThat(errors(gateway("", "{httpConnectionManagerSettings: {xffNumTrustedHops: 99,"
        + " http2ProtocolOptions: {initialStreamWindowSize: 1}}}"))).extracting(Finding::field)
        .containsExactlyInAnyOrder(
            "spec.httpGateway.options.httpConnectionManagerSettings.xffNumTrustedHops",
            "spec.httpGateway.options.httpConnectionManagerSettings.http2ProtocolOptions.initialStreamWindowSize");
    assertThat(errors(gateway("""
        options:
          accessLoggingService:
            accessLog:
            - fileSink: {path: /dev/stdout, stringFormat: '%NO_SUCH_OPERATOR%'}
            - grpcService: {logName: x, staticClusterName: missing_gloo-system}
        """, "{}"))).extracting(Finding::field).containsExactlyInAnyOrder(
            "spec.options.accessLoggingService.accessLog[0].fileSink.stringFormat",
            "spec.options.accessLoggingService.accessLog[1].grpcService.staticClusterName");
  }

  @Test
  void aTcpGatewayWithListenerOptionsIsRejectedRatherThanServedWithout() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindPort: 9000
          useProxyProto: true
          options:
            accessLoggingService:
              accessLog: [{fileSink: {path: /dev/stdout}}]
          tcpGateway:
            tcpHosts:
            - name: one
              destination: {single: {upstream: {name: als, namespace: gloo-system}}}
        """;
    assertThat(errors(GRPC_UPSTREAM + yaml)).extracting(Finding::field)
        .containsExactlyInAnyOrder("spec.useProxyProto", "spec.options.accessLoggingService");
  }

  @Test
  void theHealthCheckIsServedByTheProxy() {
    String site = """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: site, namespace: gloo-system}
        spec:
          virtualHost:
            routes: [{directResponseAction: {status: 200}}]
        ---
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(site
        + gateway("", "{healthCheck: {path: /healthz}}")));
    assertThat(GlooFixtures.gateway(result, "gloo-system", "gw").isAccepted()).isTrue();
    assertThat(result.ir().listeners()).filteredOn(io.holdfast.ir.Listener.Socket.class::isInstance)
        .flatMap(l -> ((io.holdfast.ir.Listener.Socket) l).filterChains())
        .filteredOn(io.holdfast.ir.Listener.FilterChain.Http.class::isInstance)
        .extracting(c -> ((io.holdfast.ir.Listener.FilterChain.Http) c).options().healthCheckPath())
        .containsOnly(Optional.of("/healthz"));
  }

  @Test
  void listenerOptionKindsAttachOnlyToGatewayApiGatewaysSoTheyAreRejectedWithWhy() {
    String yaml = """
        apiVersion: gateway.solo.io/v1
        kind: HttpListenerOption
        metadata: {name: attached, namespace: gloo-system}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: gw}]
          options: {healthCheck: {path: /healthz}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: ListenerOption
        metadata: {name: loose, namespace: gloo-system}
        spec:
          options: {perConnectionBufferLimitBytes: 1024}
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    ObjectStatus attached = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, "HttpListenerOption", "gloo-system",
        "attached");
    assertThat(attached.isAccepted()).isFalse();
    assertThat(attached.findings()).extracting(Finding::field, Finding::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.targetRefs", "UnsupportedGlooFeature"));
    ObjectStatus loose = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, "ListenerOption", "gloo-system",
        "loose");
    assertThat(loose.isAccepted()).isFalse();
    assertThat(loose.findings()).singleElement().satisfies(f -> {
      assertThat(f.field()).isEqualTo("kind");
      assertThat(f.message()).contains("cannot reference one", "Gloo Gateway's options");
    });
  }

  @Test
  void aHybridGatewayWithOneEmptyMatcherIsThatGatewayAndAMatcherKeepsItsOptions() {
    String hybrid = """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          hybridGateway:
            matchedGateways:
            - matcher: %s
              httpGateway:
                options: {healthCheck: {path: /healthz}}
        """;
    TrafficOptions.Listener options = read(hybrid.formatted("{}"));
    assertThat(options.healthCheck()).contains(new TrafficOptions.HealthCheck("/healthz"));
    // With a matcher it is that gateway's part taking the matcher's clients, with the same options.
    GlooReading reading = GlooReading.of(GlooFixtures.load(hybrid.formatted(
        "{sourcePrefixRanges: [{addressPrefix: 192.0.2.0, prefixLen: 24}]}")));
    assertThat(reading.rejected()).isEmpty();
    io.holdfast.api.Gateway part = reading.holdfastConfig().gateways().get(0);
    assertThat(part.metadata().name()).isEqualTo("gw-matched-0");
    assertThat(part.sourcePrefixRanges()).containsExactly("192.0.2.0/24");
    assertThat(part.options().healthCheck()).contains(new TrafficOptions.HealthCheck("/healthz"));
  }

  @Test
  void passthroughCipherSuitesAndAnHttpGatewayToldApartOnlyByItAreRejectedNamingTheField() {
    String hybrid = """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindPort: 8080
          hybridGateway:
            matchedGateways:
            - matcher: {passthroughCipherSuites: [ECDHE-RSA-AES128-GCM-SHA256]}
              tcpGateway: {tcpHosts: []}
            - httpGateway: {}
        """;
    List<Finding> errors = errors(hybrid);
    assertThat(errors).extracting(Finding::field).containsExactlyInAnyOrder(
        "spec.hybridGateway.matchedGateways[0].matcher.passthroughCipherSuites",
        "spec.hybridGateway.matchedGateways[1].matcher");
    assertThat(errors).allSatisfy(f -> assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED));
    assertThat(errors.get(0).message() + errors.get(1).message()).contains("Solo's own Envoy build");
  }

  @Test
  void optionsProxyProtocolIsThePROXYProtocolFilterAsUseProxyProtoIs() {
    assertThat(read(gateway("options: {proxyProtocol: {}}", "{}")).proxyProtocol()).isTrue();
    assertThat(read(gateway("", "{}")).proxyProtocol()).isFalse();
    assertThat(errors(gateway("options: {proxyProtocol: {allowRequestsWithoutProxyProtocol: true,"
        + " rules: [{tlvType: 2, onTlvPresent: {key: authority}}]}}", "{}"))).extracting(Finding::field)
        .containsExactlyInAnyOrder("spec.options.proxyProtocol.rules",
            "spec.options.proxyProtocol.allowRequestsWithoutProxyProtocol");
  }

  @Test
  void tlsTerminationOnATcpHostReadsAsTheVirtualServicesSslConfigDoes() {
    String yaml = GRPC_UPSTREAM + """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindPort: 9000
          tcpGateway:
            tcpHosts:
            - name: mutual
              sslConfig:
                secretRef: {name: with-ca, namespace: gloo-system}
                sniDomains: [failover.example.test]
              destination: {single: {upstream: {name: als, namespace: gloo-system}}}
            - name: one-way
              sslConfig:
                secretRef: {name: with-ca}
                oneWayTls: true
                parameters: {minimumProtocolVersion: TLSv1_3}
                sniDomains: [one.example.test]
              destination: {single: {upstream: {name: als, namespace: gloo-system}}}
            - name: files
              sslConfig: {sslFiles: {tlsCert: tls/a.crt, tlsKey: tls/a.key, rootCa: tls/ca.crt}}
              destination: {single: {upstream: {name: als, namespace: gloo-system}}}
        """;
    io.holdfast.api.GatewayConfig config = GlooFixtures.load(yaml).toBuilder()
        .secret(io.holdfast.api.TlsSecretData.secretKey("gloo-system", "with-ca"), new io.holdfast.api.TlsSecretData(
            new java.util.TreeMap<>(java.util.Map.of("tls.crt", "C", "tls.key", "K", "ca.crt", "A"))))
        .build();
    GlooReading reading = GlooReading.of(config);
    assertThat(reading.rejected()).isEmpty();
    List<io.holdfast.api.TcpGateway.Host> hosts = reading.holdfastConfig().tcpGateways().get(0).hosts();
    io.holdfast.api.ObjectRef secret = io.holdfast.api.ObjectRef.of("gloo-system", "with-ca");
    assertThat(hosts).extracting(io.holdfast.api.TcpGateway.Host::sniDomains, h -> h.sslConfig().orElseThrow())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(List.of("failover.example.test"), new io.holdfast.api.SslConfig(
                new io.holdfast.api.SslConfig.CertificateSource.SecretRef(secret), java.util.Optional.empty(),
                io.holdfast.api.SslConfig.TlsVersion.TLSv1_2,
                java.util.Optional.of(new io.holdfast.api.SslConfig.CaSource.SecretRef(secret)))),
            org.assertj.core.groups.Tuple.tuple(List.of("one.example.test"), new io.holdfast.api.SslConfig(
                new io.holdfast.api.SslConfig.CertificateSource.SecretRef(
                    new io.holdfast.api.ObjectRef("with-ca", java.util.Optional.empty())),
                java.util.Optional.empty(), io.holdfast.api.SslConfig.TlsVersion.TLSv1_3, java.util.Optional.empty())),
            org.assertj.core.groups.Tuple.tuple(List.of(), new io.holdfast.api.SslConfig(
                new io.holdfast.api.SslConfig.CertificateSource.Files("tls/a.crt", "tls/a.key"),
                java.util.Optional.empty(), io.holdfast.api.SslConfig.TlsVersion.TLSv1_2,
                java.util.Optional.of(new io.holdfast.api.SslConfig.CaSource.File("tls/ca.crt")))));
  }

  @Test
  void aPassthroughTcpHostsSslConfigWithoutACertificateRefusesOtherFields() {
    String yaml = GRPC_UPSTREAM + """
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: gloo-system}
        spec:
          bindPort: 9000
          tcpGateway:
            tcpHosts:
            - name: one
              sslConfig: {sniDomains: [a.example.test], oneWayTls: true}
              destination: {single: {upstream: {name: als, namespace: gloo-system}}}
        """;
    assertThat(errors(yaml)).extracting(Finding::field)
        .containsExactly("spec.tcpGateway.tcpHosts[0].sslConfig.oneWayTls");
  }

  @Test
  void moreAccessLogsThanHoldfastsBoundRejectTheGatewayBeforeAnyCollectorIsMade() {
    String entry = "{openTelemetryService: {logName: l, collector: {endpoint: '192.0.2.40:4317'}}},";
    String yaml = gateway("options: {accessLoggingService: {accessLog: [" + entry.repeat(17) + "]}}", "{}");
    GlooReading reading = GlooReading.of(GlooFixtures.load(yaml));
    assertThat(reading.rejected().values()).flatMap(f -> f).extracting(Finding::field, Finding::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("spec.options.accessLoggingService.accessLog",
            "TooManyAccessLogs"));
    assertThat(reading.holdfastConfig().upstreams()).isEmpty();
  }
}
