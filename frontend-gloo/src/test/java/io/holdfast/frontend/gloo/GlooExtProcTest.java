package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Reasons;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Route;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Gloo's external processing (issue 27): the Settings' {@code extProc} as every Gateway's ext_proc service, a
 * virtual host's or route's {@code extProc} as Holdfast's route setting, and {@code extProcEarly}/{@code extProcLate}
 * read only where Gloo's proxy has no such filter for them to tune, so they change nothing, as in Gloo.
 */
class GlooExtProcTest {

  private static final String BASE = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: app, namespace: gloo-system}
      spec: {static: {hosts: [{addr: 192.0.2.10, port: 8080}]}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec: {bindAddress: '::', bindPort: 8080, httpGateway: {}}
      ---
      """;

  private static final String SETTINGS = """
      apiVersion: gloo.solo.io/v1
      kind: Settings
      metadata: {name: default, namespace: gloo-system}
      spec:
        discoveryNamespace: gloo-system
        %s
      ---
      """;

  private static String virtualService(String hostOptions, String routeOptions) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [shop.example.test]
            options: %s
            routes:
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
              options: %s
        ---
        """.formatted(hostOptions, routeOptions);
  }

  /** The corpus example's route options (docs guides/traffic_management/extproc/about.md). */
  private static final String OVERRIDES = """
      {extProcEarly: {overrides: {processingMode: {requestHeaderMode: SEND, responseHeaderMode: SEND}}},
       extProcLate: {overrides: {processingMode: {requestHeaderMode: SEND, responseHeaderMode: SEND}}}}""";

  private static List<Route> routes(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> ((Listener.Socket) l).filterChains().stream())
        .filter(c -> c instanceof Listener.FilterChain.Http).map(c -> (Listener.FilterChain.Http) c)
        .flatMap(c -> c.virtualHosts().stream()).flatMap(h -> h.routes().stream()).toList();
  }

  private static List<Listener.FilterChain.Http> chains(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> ((Listener.Socket) l).filterChains().stream())
        .filter(c -> c instanceof Listener.FilterChain.Http).map(c -> (Listener.FilterChain.Http) c).toList();
  }

  private static List<Finding> errors(ObjectStatus status) {
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  private static ObjectStatus shop(IrBuilder.Result result) {
    return GlooFixtures.virtualService(result, "gloo-system", "shop");
  }

  @Test
  void withoutAnExtProcFilterInSettingsOverridesAreReadAndChangeNothing() {
    IrBuilder.Result plain = GlooFixtures.build(GlooFixtures.load(BASE + virtualService("{}", "{}")));
    for (String settings : List.of("", SETTINGS.formatted("refreshRate: 60s"))) {
      IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(BASE + settings
          + virtualService("{extProc: {disabled: true}}", OVERRIDES)));
      ObjectStatus status = shop(result);
      assertThat(status.isAccepted()).as(settings).isTrue();
      assertThat(status.findings()).as(settings).extracting(Finding::reason)
          .containsExactlyInAnyOrder(GlooExtProc.NOT_CONFIGURED, GlooExtProc.NOT_CONFIGURED,
              GlooExtProc.NOT_CONFIGURED);
      assertThat(status.findings()).extracting(Finding::field).contains(
          "spec.virtualHost.options.extProc", "spec.virtualHost.routes[0].options.extProcEarly");
      // The route keeps its extProc setting (the VirtualService's disabled: true), for a filter the chain lacks.
      assertThat(chains(result)).allSatisfy(c -> assertThat(c.options().extProc()).isEmpty());
      assertThat(routes(result)).as("served as without the settings")
          .allSatisfy(r -> assertThat(r.traffic().extProc()).contains(new io.holdfast.ir.ExtProc.PerRoute.Disabled()))
          .map(r -> r.withTraffic(r.traffic().withExtProc(java.util.Optional.empty()))).isEqualTo(routes(plain))
          .isNotEmpty();
    }
  }

  @Test
  void withRejectedSettingsWhoseFilterMayExistTheObjectIsRejected() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(BASE
        + SETTINGS.formatted("extProcEarly: {grpcService: {extProcServerRef: {name: app}}}")
        + virtualService("{}", OVERRIDES)));
    ObjectStatus settings = GlooFixtures.status(result, GlooKinds.GLOO_GROUP, GlooKinds.SETTINGS, "gloo-system",
        "default");
    assertThat(errors(settings)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED);
      assertThat(f.field()).isEqualTo("spec.extProcEarly");
    });
    assertThat(errors(shop(result))).extracting(Finding::reason)
        .containsExactly(GlooExtProc.SETTINGS_REJECTED, GlooExtProc.SETTINGS_REJECTED);
  }

  @Test
  void overridesHoldfastDoesNotReadAndMalformedOnesRejectTheObjectNamingTheField() {
    record Case(String options, String reason, String field) {
    }
    for (Case c : List.of(
        new Case("{extProc: {overrides: {grpcService: {extProcServerRef: {name: app}}}}}", GlooFeatures.UNSUPPORTED,
            "spec.virtualHost.routes[0].options.extProc.overrides.grpcService"),
        new Case("{extProc: {overrides: {processingMode: {requestBodyMode: SEND}}}}", Reasons.INVALID_VALUE,
            "spec.virtualHost.routes[0].options.extProc.overrides.processingMode.requestBodyMode"),
        new Case("{extProcLate: {disabled: true, overrides: {}}}", Reasons.CONFLICTING_FIELDS,
            "spec.virtualHost.routes[0].options.extProcLate"),
        new Case("{extProcEarly: {disabled: true, typo: 1}}", GlooFeatures.UNSUPPORTED,
            "spec.virtualHost.routes[0].options.extProcEarly.typo"))) {
      IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(BASE + virtualService("{}", c.options())));
      assertThat(errors(shop(result))).as(c.options()).singleElement().satisfies(f -> {
        assertThat(f.reason()).isEqualTo(c.reason());
        assertThat(f.field()).isEqualTo(c.field());
      });
    }
  }

  @Test
  void aListenersExtProcFilterIsStillRejected() {
    assertThat(GlooFeatures.SOLO_ENVOY).doesNotContainAnyElementsOf(GlooExtProc.FIELDS);
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(BASE.replace("httpGateway: {}",
        "httpGateway: {options: {extProcEarly: {grpcService: {extProcServerRef: {name: app}}}}}")
        + virtualService("{}", "{}")));
    ObjectStatus gateway = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.GATEWAY, "gloo-system",
        "gateway-proxy");
    assertThat(errors(gateway)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED);
      assertThat(f.field()).endsWith("options.extProcEarly");
      assertThat(f.message()).contains("(ext_proc) filter, which Holdfast reads only from the Settings' extProc");
    });
  }

  private static final String PROCESSOR = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: processor, namespace: gloo-system}
      spec: {useHttp2: true, static: {hosts: [{addr: 192.0.2.12, port: 4444}]}}
      ---
      """;

  private static final String EXT_PROC_SETTINGS = """
      extProc:
          grpcService: {extProcServerRef: {name: processor, namespace: gloo-system}}
          filterStage: {stage: AuthZStage, predicate: After}
          failureModeAllow: false
          messageTimeout: 0.5s
          processingMode: {requestHeaderMode: SEND, responseHeaderMode: SKIP, request_body_mode: BUFFERED}""";

  @Test
  void settingsExtProcIsEveryGatewaysServiceAndARoutesExtProcOverridesIt() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(BASE + PROCESSOR
        + SETTINGS.formatted(EXT_PROC_SETTINGS) + virtualService("{extProc: {disabled: true}}",
        "{extProc: {overrides: {processingMode: {responseBodyMode: STREAMED}}}}")));
    ObjectStatus settings = GlooFixtures.status(result, GlooKinds.GLOO_GROUP, GlooKinds.SETTINGS, "gloo-system",
        "default");
    assertThat(settings.findings()).isEmpty();
    ObjectStatus status = shop(result);
    assertThat(status.isAccepted()).isTrue();
    assertThat(status.findings()).as("the extProc settings tune a filter that exists").isEmpty();
    io.holdfast.ir.ExtProc.Mode none = io.holdfast.ir.ExtProc.Mode.DEFAULT;
    assertThat(chains(result)).isNotEmpty().allSatisfy(c -> assertThat(c.options().extProc()).contains(
        new io.holdfast.ir.ExtProc.Service(new io.holdfast.api.ResourceKey(GlooKinds.GLOO_GROUP,
            GlooKinds.UPSTREAM, "gloo-system", "processor"),
            new io.holdfast.ir.ExtProc.Mode(java.util.Optional.of(io.holdfast.ir.ExtProc.HeaderMode.SEND),
                java.util.Optional.of(io.holdfast.ir.ExtProc.HeaderMode.SKIP),
                java.util.Optional.of(io.holdfast.ir.ExtProc.BodyMode.BUFFERED), none.responseBody(),
                none.requestTrailers(), none.responseTrailers()), false, java.time.Duration.ofMillis(500),
            io.holdfast.ir.ExtProc.Position.AFTER_AUTHORIZATION)));
    assertThat(routes(result)).singleElement().satisfies(r -> assertThat(r.traffic().extProc()).contains(
        new io.holdfast.ir.ExtProc.PerRoute.Override(new io.holdfast.ir.ExtProc.Mode(none.requestHeaders(),
            none.responseHeaders(), none.requestBody(), java.util.Optional.of(io.holdfast.ir.ExtProc.BodyMode.STREAMED),
            none.requestTrailers(), none.responseTrailers()))));
  }

  @Test
  void settingsExtProcHoldfastCannotPlaceOrHonourRejectsTheSettings() {
    for (String change : List.of("predicate: After}|predicate: During}", "failureModeAllow: false|asyncMode: true",
        "request_body_mode: BUFFERED|request_body_mode: FULL_DUPLEX_STREAMED",
        "{extProcServerRef: {name: processor, namespace: gloo-system}}|{extProcServerRef: {name: processor},"
            + " authority: x}")) {
      String[] parts = change.split("\\|");
      IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(BASE + PROCESSOR
          + SETTINGS.formatted(EXT_PROC_SETTINGS.replace(parts[0], parts[1]))
          + virtualService("{}", "{extProc: {disabled: true}}")));
      ObjectStatus settings = GlooFixtures.status(result, GlooKinds.GLOO_GROUP, GlooKinds.SETTINGS, "gloo-system",
          "default");
      assertThat(errors(settings)).as(change).isNotEmpty()
          .allSatisfy(f -> assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED));
      assertThat(errors(shop(result))).as(change).extracting(Finding::reason)
          .containsExactly(GlooExtProc.SETTINGS_REJECTED);
    }
  }
}
