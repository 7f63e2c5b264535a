package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TrafficReasons;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteTraffic;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Traffic options on the Holdfast kinds: each bad value rejects its object with a named reason at its path; good
 * ones are lowered (route values over VirtualService defaults, Gateway options on every HTTP chain).
 */
class TrafficRulesTest {

  private static final ResourceKey VS = ResourceKey.virtualService("default", "web");
  private static final ResourceKey GW = ResourceKey.gateway("default", "gw");

  private static GatewayConfig config(String vsOptions, String routeOptions, String gatewayOptions) {
    return TestManifests.config(TestManifests.upstream("up", 9101), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: als}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9102}]}, http2: true}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: broken}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 0}]}}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: ['*.web.test']
          options: %s
          routes: [{name: r, match: {prefix: /}, route: {upstream: up}, options: %s}]
        """.formatted(vsOptions, routeOptions), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw}
        spec: {port: 8080, options: %s}
        """.formatted(gatewayOptions));
  }

  static Stream<Arguments> badRouteOptions() {
    String at = "spec.routes[0].options.";
    return Stream.of(
        Arguments.of("{rateLimit: {local: {maxTokens: 0, fillInterval: 1s}}}", at + "rateLimit.local.maxTokens",
            TrafficReasons.ZERO_RATE),
        Arguments.of("{rateLimit: {local: {maxTokens: 5, tokensPerFill: 0, fillInterval: 1s}}}",
            at + "rateLimit.local.tokensPerFill", TrafficReasons.ZERO_RATE),
        Arguments.of("{rateLimit: {local: {maxTokens: 5, fillInterval: 10ms}}}", at + "rateLimit.local.fillInterval",
            TrafficReasons.FILL_INTERVAL_TOO_SHORT),
        Arguments.of("{rateLimit: {local: {maxTokens: 4294967296, fillInterval: 1s}}}",
            at + "rateLimit.local.maxTokens", TrafficReasons.INVALID_RATE_LIMIT),
        Arguments.of("{rateLimit: {descriptors: [{entries: []}]}}", at + "rateLimit.descriptors[0].entries",
            TrafficReasons.INVALID_DESCRIPTOR),
        Arguments.of("{rateLimit: {descriptors: [{entries: [{requestHeader: {header: 'X Y', key: k}}]}]}}",
            at + "rateLimit.descriptors[0].entries[0].requestHeader.header", TrafficReasons.INVALID_DESCRIPTOR),
        Arguments.of("{rateLimit: {descriptors: [{entries: [{jwtClaim: {provider: a, claim: 'x..y', key: k}}]}]}}",
            at + "rateLimit.descriptors[0].entries[0].jwtClaim.claim", TrafficReasons.INVALID_DESCRIPTOR),
        Arguments.of("{rateLimit: {descriptors: [" + "{entries: [{remoteAddress: {}}]},".repeat(17) + "]}}",
            at + "rateLimit.descriptors", TrafficReasons.TOO_MANY_DESCRIPTORS),
        Arguments.of("{compression: [deflate]}", at + "compression[0]", TrafficReasons.UNSUPPORTED_COMPRESSION),
        Arguments.of("{compression: [gzip, GZIP]}", at + "compression[1]", TrafficReasons.DUPLICATE_COMPRESSION),
        Arguments.of("{csrf: {additionalOrigins: ['']}}", at + "csrf.additionalOrigins[0]",
            TrafficReasons.INVALID_CSRF_ORIGIN),
        // Envoy compares the Origin's host[:port]: an origin written as a URL never matches (a reported bug).
        Arguments.of("{csrf: {additionalOrigins: ['https://pay.shop.test']}}", at + "csrf.additionalOrigins[0]",
            TrafficReasons.CSRF_ORIGIN_WITH_SCHEME),
        Arguments.of("{csrf: {additionalOriginMatchers: [{prefix: 'https://pay.'}]}}",
            at + "csrf.additionalOriginMatchers[0]", TrafficReasons.CSRF_ORIGIN_WITH_SCHEME),
        Arguments.of("{csrf: {additionalOrigins: ['pay.shop.test/checkout']}}", at + "csrf.additionalOrigins[0]",
            TrafficReasons.INVALID_CSRF_ORIGIN),
        Arguments.of("{csrf: {additionalOriginMatchers: [{safeRegex: '(a'}]}}",
            at + "csrf.additionalOriginMatchers[0]", Reasons.INVALID_REGEX),
        Arguments.of("{csrf: {additionalOrigins: [" + "a.test, ".repeat(65) + "]}}", at + "csrf",
            TrafficReasons.INVALID_CSRF_ORIGIN),
        Arguments.of("{csrf: {additionalOriginMatchers: [{prefix: a, suffix: b}]}}",
            at + "csrf.additionalOriginMatchers[0]", Reasons.CONFLICTING_FIELDS),
        Arguments.of("{csrf: {additionalOriginMatchers: [{ignoreCase: true}]}}",
            at + "csrf.additionalOriginMatchers[0]", Reasons.MISSING_FIELD),
        Arguments.of("{maxRequestBodyBytes: 0}", at + "maxRequestBodyBytes", TrafficReasons.INVALID_BODY_LIMIT),
        Arguments.of("{extProc: {processingMode: {requestBody: SEND}}}", at + "extProc.processingMode.requestBody",
            TrafficReasons.INVALID_EXT_PROC),
        Arguments.of("{extProc: {disabled: true, processingMode: {}}}", at + "extProc", Reasons.CONFLICTING_FIELDS),
        Arguments.of("{extProc: {}}", at + "extProc", Reasons.MISSING_FIELD));
  }

  @ParameterizedTest
  @MethodSource("badRouteOptions")
  void aBadRouteTrafficOptionRejectsTheVirtualService(String options, String field, String reason) {
    ValidationResult result = new Validator().validate(config("{}", options, "{}"));
    assertThat(result.status(VS).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple(field, reason));
  }

  @Test
  void badDefaultsRejectTheVirtualServiceToo() {
    ValidationResult result = new Validator().validate(config(
        "{rateLimit: {local: {maxTokens: 0, fillInterval: 1s}}}", "{}", "{}"));
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.options.rateLimit.local.maxTokens", TrafficReasons.ZERO_RATE));
  }

  static Stream<Arguments> badGatewayOptions() {
    String at = "spec.options.";
    return Stream.of(
        Arguments.of("{perConnectionBufferLimitBytes: 0}", at + "perConnectionBufferLimitBytes",
            TrafficReasons.INVALID_BUFFER_LIMIT),
        Arguments.of("{xffNumTrustedHops: 17}", at + "xffNumTrustedHops", TrafficReasons.INVALID_TRUSTED_HOPS),
        Arguments.of("{maxRequestHeadersKb: 8193}", at + "maxRequestHeadersKb", TrafficReasons.INVALID_HEADER_LIMIT),
        Arguments.of("{http2: {initialStreamWindowSize: 1024}}", at + "http2.initialStreamWindowSize",
            TrafficReasons.INVALID_HTTP2_SETTING),
        Arguments.of("{http2: {maxConcurrentStreams: 0}}", at + "http2.maxConcurrentStreams",
            TrafficReasons.INVALID_HTTP2_SETTING),
        Arguments.of("{healthCheck: {path: healthz}}", at + "healthCheck.path", TrafficReasons.INVALID_HEALTH_CHECK),
        Arguments.of("{healthCheck: {path: \"/a\\nb\"}}", at + "healthCheck.path",
            TrafficReasons.INVALID_HEALTH_CHECK),
        Arguments.of("{serverHeader: {mode: Hide}}", at + "serverHeader.mode", TrafficReasons.INVALID_SERVER_HEADER),
        Arguments.of("{serverHeader: {mode: Strip, name: x}}", at + "serverHeader.name",
            TrafficReasons.INVALID_SERVER_HEADER),
        Arguments.of("{accessLogs: [{stdout: {}, format: {text: '%RESPONSE_COD%'}}]}",
            at + "accessLogs[0].format.text", TrafficReasons.UNKNOWN_COMMAND_OPERATOR),
        Arguments.of("{accessLogs: [{stdout: {}, format: {text: '%REQ%'}}]}", at + "accessLogs[0].format.text",
            TrafficReasons.MALFORMED_COMMAND_OPERATOR),
        Arguments.of("{accessLogs: [{stdout: {}, format: {text: '100% done'}}]}", at + "accessLogs[0].format.text",
            TrafficReasons.MALFORMED_COMMAND_OPERATOR),
        Arguments.of("{accessLogs: [{stdout: {}, format: {json: {a: '%DURATION(x)%'}}}]}",
            at + "accessLogs[0].format.json.a", TrafficReasons.MALFORMED_COMMAND_OPERATOR),
        Arguments.of("{accessLogs: [{file: {path: logs/a.log}}]}", at + "accessLogs[0].file.path",
            TrafficReasons.INVALID_ACCESS_LOG),
        Arguments.of("{accessLogs: [{stdout: {}, filter: {minStatus: 500, maxStatus: 400}}]}",
            at + "accessLogs[0].filter", TrafficReasons.INVALID_ACCESS_LOG_FILTER),
        Arguments.of("{accessLogs: [" + "{stdout: {}},".repeat(17) + "]}", at + "accessLogs",
            TrafficReasons.TOO_MANY_ACCESS_LOGS),
        Arguments.of("{accessLogs: [{grpc: {upstream: gone, logName: edge}}]}", at + "accessLogs[0].grpc.upstream",
            TrafficReasons.ACCESS_LOG_UPSTREAM_NOT_FOUND),
        Arguments.of("{accessLogs: [{openTelemetry: {upstream: broken, logName: edge}}]}",
            at + "accessLogs[0].openTelemetry.upstream", Reasons.UPSTREAM_REJECTED),
        Arguments.of("{accessLogs: [{openTelemetry: {upstream: als, logName: edge, authority: ''}}]}",
            at + "accessLogs[0].openTelemetry.authority", TrafficReasons.INVALID_ACCESS_LOG),
        Arguments.of("{accessLogs: [{openTelemetry: {upstream: als, logName: edge, attributes: ["
            + "{key: a, value: {stringValue: x}}, {key: a, value: {stringValue: y}}]}}]}",
            at + "accessLogs[0].openTelemetry.attributes[1].key", TrafficReasons.INVALID_ACCESS_LOG),
        Arguments.of("{accessLogs: [{openTelemetry: {upstream: als, logName: edge, attributes: ["
            + "{key: a, value: {arrayValue: {values: [{stringValue: '%RESPONSE_COD%'}]}}}]}}]}",
            at + "accessLogs[0].openTelemetry.attributes[0].value.arrayValue.values[0].stringValue",
            TrafficReasons.UNKNOWN_COMMAND_OPERATOR),
        // The parser stops at the bound: a fourth level is refused with its reason, not recursed into.
        Arguments.of("{accessLogs: [{openTelemetry: {upstream: als, logName: edge, attributes: [{key: a, value:"
            + " {kvlistValue: {values: [{key: b, value: {arrayValue: {values: [{kvlistValue: {values: []}}]}}}]}}}]}}]}",
            at + "accessLogs[0].openTelemetry.attributes[0].value.kvlistValue.values[0].value.arrayValue.values[0]"
                + ".kvlistValue", TrafficReasons.OTEL_ATTRIBUTES_TOO_DEEP),
        Arguments.of("{rateLimitService: {upstream: gone, domain: d}}", at + "rateLimitService.upstream",
            TrafficReasons.RATE_LIMIT_SERVICE_NOT_FOUND),
        Arguments.of("{rateLimitService: {upstream: als, domain: d, timeout: 0s}}", at + "rateLimitService.timeout",
            TrafficReasons.INVALID_RATE_LIMIT_SERVICE),
        Arguments.of("{extProc: {upstream: gone}}", at + "extProc.upstream",
            TrafficReasons.EXT_PROC_SERVICE_NOT_FOUND),
        Arguments.of("{extProc: {upstream: als, messageTimeout: 2h}}", at + "extProc.messageTimeout",
            TrafficReasons.INVALID_EXT_PROC),
        Arguments.of("{extProc: {upstream: als, processingMode: {responseTrailers: Buffered}}}",
            at + "extProc.processingMode.responseTrailers", TrafficReasons.INVALID_EXT_PROC),
        Arguments.of("{tracing: {openTelemetry: {upstream: gone}}}", at + "tracing.openTelemetry.upstream",
            TrafficReasons.TRACING_UPSTREAM_NOT_FOUND),
        Arguments.of("{tracing: {openTelemetry: {upstream: broken}}}", at + "tracing.openTelemetry.upstream",
            Reasons.UPSTREAM_REJECTED),
        Arguments.of("{tracing: {openTelemetry: {upstream: als}, sampling: {random: 100.5}}}",
            at + "tracing.sampling.random", TrafficReasons.INVALID_TRACING),
        Arguments.of("{tracing: {openTelemetry: {upstream: als}, sampling: {overall: -1}}}",
            at + "tracing.sampling.overall", TrafficReasons.INVALID_TRACING),
        Arguments.of("{tracing: {openTelemetry: {upstream: als, serviceName: ''}}}",
            at + "tracing.openTelemetry.serviceName", TrafficReasons.INVALID_TRACING),
        Arguments.of("{tracing: {openTelemetry: {upstream: als, authority: \"a\\nb\"}}}",
            at + "tracing.openTelemetry.authority", TrafficReasons.INVALID_TRACING),
        Arguments.of("{tracing: {openTelemetry: {upstream: als}, requestHeaderTags: [X-Tenant]}}",
            at + "tracing.requestHeaderTags[0]", TrafficReasons.INVALID_TRACING),
        Arguments.of("{tracing: {openTelemetry: {upstream: als}, requestHeaderTags: [a, a]}}",
            at + "tracing.requestHeaderTags[1]", TrafficReasons.INVALID_TRACING),
        Arguments.of("{tracing: {openTelemetry: {upstream: als}, requestHeaderTags: ["
            + "a,".repeat(33) + "]}}", at + "tracing.requestHeaderTags", TrafficReasons.INVALID_TRACING));
  }

  @ParameterizedTest
  @MethodSource("badGatewayOptions")
  void aBadGatewayOptionRejectsTheGateway(String options, String field, String reason) {
    ValidationResult result = new Validator().validate(config("{}", "{}", options));
    assertThat(result.status(GW).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple(field, reason));
  }

  @Test
  void normalizePathAndWebSocketsReachEveryChainAsWrittenAndAreUnsetWithoutThem() {
    for (boolean normalize : java.util.List.of(true, false)) {
      ValidationResult result = new Validator().validate(config("{}", "{}", "{normalizePath: " + normalize + "}"));
      assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
      assertThat(chainOptions(result).normalizePath()).contains(normalize);
    }
    ValidationResult webSockets = new Validator().validate(config("{}", "{}", "{webSockets: true}"));
    assertThat(chainOptions(webSockets).webSockets()).contains(true);
    ValidationResult without = new Validator().validate(config("{}", "{}", "{xffNumTrustedHops: 1}"));
    assertThat(chainOptions(without).normalizePath()).isEmpty();
    assertThat(chainOptions(without).webSockets()).isEmpty();
    ValidationResult notABoolean = new Validator().validate(config("{}", "{}", "{normalizePath: yes-please}"));
    assertThat(notABoolean.status(GW).state()).isEqualTo(State.REJECTED);
    assertThat(notABoolean.status(GW).problems()).extracting(Problem::field)
        .containsExactly("spec.options.normalizePath");
  }

  @Test
  void grpcWebReachesEveryChainAsWrittenIsUnsetWithoutItAndMustBeABoolean() {
    for (boolean grpcWeb : java.util.List.of(true, false)) {
      ValidationResult result = new Validator().validate(config("{}", "{}", "{grpcWeb: " + grpcWeb + "}"));
      assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
      assertThat(chainOptions(result).grpcWeb()).contains(grpcWeb);
    }
    ValidationResult without = new Validator().validate(config("{}", "{}", "{xffNumTrustedHops: 1}"));
    assertThat(chainOptions(without).grpcWeb()).isEmpty();
    for (String bad : java.util.List.of("{grpcWeb: {disable: false}}", "{grpcWeb: on-please}")) {
      ValidationResult rejected = new Validator().validate(config("{}", "{}", bad));
      assertThat(rejected.status(GW).state()).as(bad).isEqualTo(State.REJECTED);
      assertThat(rejected.status(GW).problems()).extracting(Problem::field).as(bad)
          .containsExactly("spec.options.grpcWeb");
    }
  }

  private static HttpListenerOptions chainOptions(ValidationResult result) {
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners()
        .stream().filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    return ((Listener.FilterChain.Http) socket.filterChains().get(0)).options();
  }

  @Test
  void malformedShapesAreParseProblems() {
    ValidationResult result = new Validator().validate(config("{}", "{}",
        "{accessLogs: [{stdout: {}, stderr: {}}], bogus: 1}"));
    assertThat(result.status(GW).problems()).extracting(Problem::reason)
        .contains(Reasons.CONFLICTING_FIELDS, Reasons.UNKNOWN_FIELD);
  }

  @Test
  void tracingNeedsItsCollectorAndNumericPercentages() {
    ValidationResult result = new Validator().validate(config("{}", "{}",
        "{tracing: {sampling: {random: half}, zipkin: {}}}"));
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason).contains(
        tuple("spec.options.tracing.openTelemetry", Reasons.MISSING_FIELD),
        tuple("spec.options.tracing.sampling.random", Reasons.WRONG_TYPE),
        tuple("spec.options.tracing.zipkin", Reasons.UNKNOWN_FIELD));
  }

  @Test
  void formatsWithKnownOperatorsAndLiteralPercentsAreAccepted() {
    ValidationResult result = new Validator().validate(config("{}", "{}", """
        {accessLogs: [{stdout: {}, format: {text: '[%START_TIME(%Y/%m/%dT%H:%M:%S%z %s)%] %REQ(X-FORWARDED-FOR):64%\
         100%% %RESPONSE_CODE% %DYNAMIC_METADATA(envoy.filters.http.jwt_authn:auth0:sub)%'}}]}"""));
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
  }

  @Test
  void aLogServiceWithoutHttp2IsWarnedAbout() {
    ValidationResult result = new Validator().validate(config("{}", "{}",
        "{accessLogs: [{grpc: {upstream: up, logName: edge}}]}"));
    assertThat(result.status(GW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.accessLogs[0].grpc.upstream", TrafficReasons.GRPC_SERVICE_WITHOUT_HTTP2));
  }

  @Test
  void trafficOptionsOnAGrpcDomainAreWarnedAboutForGrpcClients() {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("up", 9101), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [api.web.test]
          options: {csrf: {}}
          routes: [{match: {prefix: /}, route: {upstream: up}, options: {compression: [gzip]}}]
        """);
    ValidationResult result = new Validator().validate(config);
    assertThat(result.status(VS).problems()).extracting(Problem::field, Problem::reason).contains(
        tuple("spec.options.csrf", Reasons.GRPC_IGNORED_OPTION),
        tuple("spec.routes[0].options.compression", Reasons.GRPC_IGNORED_OPTION));
  }

  @Test
  void descriptorsWithoutAServiceWarnOnTheGateway() {
    ValidationResult result = new Validator().validate(config("{}",
        "{rateLimit: {descriptors: [{entries: [{remoteAddress: {}}]}]}}", "{}"));
    assertThat(result.status(GW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(GW).problems()).extracting(Problem::reason)
        .containsExactly(TrafficReasons.RATE_LIMIT_SERVICE_MISSING);
  }

  @Test
  void routeValuesReplaceVirtualServiceDefaultsFieldByField() {
    ValidationResult result = new Validator().validate(config(
        "{rateLimit: {local: {maxTokens: 100, fillInterval: 1s}}, compression: [gzip], maxRequestBodyBytes: 1024}",
        "{rateLimit: {local: {maxTokens: 5, tokensPerFill: 1, fillInterval: 500ms, responseHeaders: true}},"
            + " compression: [brotli, zstd]}", "{}"));
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Route route = ir.listeners().get(0).virtualHosts().get(0).routes().get(0);
    assertThat(route.traffic().localRateLimit()).contains(
        new RouteTraffic.LocalRateLimit(5, 1, Duration.ofMillis(500), true));
    assertThat(route.traffic().compression())
        .containsExactlyInAnyOrder(RouteTraffic.Compression.BROTLI, RouteTraffic.Compression.ZSTD);
    assertThat(route.traffic().maxRequestBodyBytes()).contains(1024);
  }

  @Test
  void gatewayOptionsReachEveryChainAndTheSocket() {
    ValidationResult result = new Validator().validate(config("{}", "{}", """
        {proxyProtocol: true, perConnectionBufferLimitBytes: 65536, xffNumTrustedHops: 2, idleTimeout: 1m,
         serverHeader: {name: edge}, accessLogs: [{grpc: {upstream: als, logName: edge}}],
         rateLimitService: {upstream: als, domain: web}}"""));
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners()
        .stream().filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    assertThat(socket.socketOptions().proxyProtocol()).isTrue();
    assertThat(socket.socketOptions().perConnectionBufferLimitBytes()).contains(65536);
    HttpListenerOptions options = ((Listener.FilterChain.Http) socket.filterChains().get(0)).options();
    assertThat(options.xffNumTrustedHops()).contains(2);
    assertThat(options.serverHeader()).contains(new HttpListenerOptions.ServerHeader.Name("edge"));
    assertThat(options.accessLogs()).extracting(HttpListenerOptions.AccessLog::sink).containsExactly(
        new HttpListenerOptions.Sink.Grpc(ResourceKey.upstream("default", "als"), "edge"));
    assertThat(options.rateLimitService().map(HttpListenerOptions.RateLimitService::timeout))
        .contains(Duration.ofMillis(20));
    assertThat(options.rateLimitService().map(HttpListenerOptions.RateLimitService::failOpen)).contains(true);
  }

  @Test
  void tracingReachesEveryChainWithSamplingDefaultsOfAllRequests() {
    ValidationResult result = new Validator().validate(config("{}", "{}", """
        {tracing: {openTelemetry: {upstream: als, serviceName: edge}, sampling: {random: 5},
         requestHeaderTags: [x-tenant]}}"""));
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners()
        .stream().filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    HttpListenerOptions options = ((Listener.FilterChain.Http) socket.filterChains().get(0)).options();
    assertThat(options.tracing()).contains(new HttpListenerOptions.Tracing(ResourceKey.upstream("default", "als"),
        Optional.of("edge"), Optional.empty(), 100, 5, 100, false, List.of("x-tenant")));
    assertThat(options.clusters()).contains(ResourceKey.upstream("default", "als"));
  }

  @Test
  void aTracingCollectorWithoutHttp2IsWarnedAbout() {
    ValidationResult result = new Validator().validate(config("{}", "{}",
        "{tracing: {openTelemetry: {upstream: up}}}"));
    assertThat(result.status(GW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.tracing.openTelemetry.upstream", TrafficReasons.GRPC_SERVICE_WITHOUT_HTTP2));
  }

  @Test
  void anExtProcServiceWithoutHttp2IsWarnedAbout() {
    ValidationResult result = new Validator().validate(config("{}", "{}", "{extProc: {upstream: up}}"));
    assertThat(result.status(GW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.extProc.upstream", TrafficReasons.GRPC_SERVICE_WITHOUT_HTTP2));
  }

  @Test
  void extProcIsClosedByDefaultAndARouteSettingReplacesTheVirtualServicesWhole() {
    ValidationResult result = new Validator().validate(config("{extProc: {disabled: true}}",
        "{extProc: {processingMode: {responseBody: Streamed}}}",
        "{extProc: {upstream: als, processingMode: {requestHeaders: Skip}}}"));
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(VS).state()).isEqualTo(State.ACCEPTED);
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    Listener.Socket socket = (Listener.Socket) ir.listeners().stream().filter(l -> l instanceof Listener.Socket)
        .findFirst().orElseThrow();
    Listener.FilterChain.Http chain = (Listener.FilterChain.Http) socket.filterChains().get(0);
    assertThat(chain.options().extProc()).contains(new io.holdfast.ir.ExtProc.Service(
        ResourceKey.upstream("default", "als"), new io.holdfast.ir.ExtProc.Mode(
            Optional.of(io.holdfast.ir.ExtProc.HeaderMode.SKIP), Optional.empty(), Optional.empty(),
            Optional.empty(), Optional.empty(), Optional.empty()), false, Duration.ofMillis(200),
        io.holdfast.ir.ExtProc.Position.AFTER_AUTHORIZATION));
    assertThat(chain.options().clusters()).contains(ResourceKey.upstream("default", "als"));
    Route route = chain.virtualHosts().get(0).routes().get(0);
    assertThat(route.traffic().extProc()).contains(new io.holdfast.ir.ExtProc.PerRoute.Override(
        new io.holdfast.ir.ExtProc.Mode(Optional.empty(), Optional.empty(), Optional.empty(),
            Optional.of(io.holdfast.ir.ExtProc.BodyMode.STREAMED), Optional.empty(), Optional.empty())));
  }

  @Test
  void extProcPositionsLowerInOrderAndAnUnknownOneIsRejected() {
    List<io.holdfast.ir.ExtProc.Position> lowered = new java.util.ArrayList<>();
    for (String position : io.holdfast.api.TrafficOptions.ExtProc.POSITIONS) {
      ValidationResult result = new Validator().validate(config("{}", "{}",
          "{extProc: {upstream: als, position: " + position + "}}"));
      assertThat(result.status(GW).state()).as(position).isEqualTo(State.ACCEPTED);
      Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
      Listener.Socket socket = (Listener.Socket) ir.listeners().stream().filter(l -> l instanceof Listener.Socket)
          .findFirst().orElseThrow();
      lowered.add(((Listener.FilterChain.Http) socket.filterChains().get(0)).options().extProc().orElseThrow()
          .position());
    }
    assertThat(lowered).containsExactly(io.holdfast.ir.ExtProc.Position.values());

    ValidationResult wrong = new Validator().validate(config("{}", "{}",
        "{extProc: {upstream: als, position: BeforeCors}}"));
    assertThat(wrong.status(GW).state()).isEqualTo(State.REJECTED);
    assertThat(wrong.status(GW).problems()).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.options.extProc.position", TrafficReasons.INVALID_EXT_PROC));
  }
}
