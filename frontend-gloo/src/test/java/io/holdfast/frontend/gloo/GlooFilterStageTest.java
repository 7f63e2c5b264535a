package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Reasons;
import io.holdfast.ir.ExtProc;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Settings' {@code extProc.filterStage} as the position of Holdfast's ext_proc filter ({@link GlooFilterStage}):
 * every stage and predicate of Gloo's filters/stages.proto either has one place or rejects the Settings naming the
 * stage.
 */
class GlooFilterStageTest {

  /** The application and the processing server. */
  private static final String UPSTREAMS = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: app, namespace: gloo-system}
      spec: {static: {hosts: [{addr: 192.0.2.10, port: 8080}]}}
      ---
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: processor, namespace: gloo-system}
      spec: {useHttp2: true, static: {hosts: [{addr: 192.0.2.12, port: 4444}]}}
      ---
      """;

  private static final String OBJECTS = UPSTREAMS + """
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec: {bindAddress: '::', bindPort: 8080, httpGateway: {}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: VirtualService
      metadata: {name: shop, namespace: gloo-system}
      spec:
        virtualHost:
          domains: [shop.example.test]
          routes:
          - matchers: [{prefix: /}]
            routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
      ---
      apiVersion: gloo.solo.io/v1
      kind: Settings
      metadata: {name: default, namespace: gloo-system}
      spec:
        discoveryNamespace: gloo-system
        extProc:
          grpcService: {extProcServerRef: {name: processor, namespace: gloo-system}}
          %s
      """;

  /** Every stage and predicate; null: rejected. */
  private static final Map<String, ExtProc.Position> PLACES = places();

  private static Map<String, ExtProc.Position> places() {
    Map<String, ExtProc.Position> places = new java.util.LinkedHashMap<>();
    put(places, "FaultStage", ExtProc.Position.FIRST, ExtProc.Position.FIRST, ExtProc.Position.FIRST);
    put(places, "CorsStage", ExtProc.Position.FIRST, null, ExtProc.Position.AFTER_CORS);
    put(places, "WafStage", ExtProc.Position.AFTER_CORS, ExtProc.Position.AFTER_CORS, ExtProc.Position.AFTER_CORS);
    put(places, "AuthNStage", ExtProc.Position.AFTER_CORS, null, ExtProc.Position.BEFORE_RBAC);
    put(places, "AuthZStage", ExtProc.Position.BEFORE_RBAC, null, ExtProc.Position.AFTER_AUTHORIZATION);
    put(places, "RateLimitStage", ExtProc.Position.AFTER_AUTHORIZATION, null, ExtProc.Position.AFTER_RATE_LIMITS);
    put(places, "AcceptedStage", ExtProc.Position.AFTER_RATE_LIMITS, ExtProc.Position.AFTER_RATE_LIMITS,
        ExtProc.Position.AFTER_RATE_LIMITS);
    put(places, "OutAuthStage", ExtProc.Position.AFTER_RATE_LIMITS, ExtProc.Position.AFTER_RATE_LIMITS,
        ExtProc.Position.AFTER_RATE_LIMITS);
    put(places, "RouteStage", ExtProc.Position.AFTER_RATE_LIMITS, null, ExtProc.Position.LAST);
    return places;
  }

  private static void put(Map<String, ExtProc.Position> places, String stage, ExtProc.Position before,
      ExtProc.Position during, ExtProc.Position after) {
    places.put(stage + " Before", before);
    places.put(stage + " During", during);
    places.put(stage + " After", after);
  }

  private static IrBuilder.Result build(String filterStage) {
    return GlooFixtures.build(GlooFixtures.load(OBJECTS.formatted(filterStage)));
  }

  private static ObjectStatus settings(IrBuilder.Result result) {
    return GlooFixtures.status(result, GlooKinds.GLOO_GROUP, GlooKinds.SETTINGS, "gloo-system", "default");
  }

  private static Optional<ExtProc.Position> position(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> ((Listener.Socket) l).filterChains().stream())
        .filter(c -> c instanceof Listener.FilterChain.Http).map(c -> (Listener.FilterChain.Http) c)
        .flatMap(c -> c.options().extProc().stream()).map(ExtProc.Service::position).findFirst();
  }

  private static List<Finding> errors(ObjectStatus status) {
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  @Test
  void everyStageAndPredicateHasOnePlaceOrRejectsTheSettingsNamingTheStage() {
    assertThat(PLACES).hasSize(27);
    PLACES.forEach((written, expected) -> {
      String[] parts = written.split(" ");
      IrBuilder.Result result = build("filterStage: {stage: " + parts[0] + ", predicate: " + parts[1] + "}");
      if (expected != null) {
        assertThat(settings(result).findings()).as(written).isEmpty();
        assertThat(position(result)).as(written).contains(expected);
      } else {
        assertThat(errors(settings(result))).as(written).singleElement().satisfies(f -> {
          assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED);
          assertThat(f.field()).endsWith("extProc.filterStage");
          assertThat(f.message()).contains(parts[0] + " During");
        });
        assertThat(position(result)).as(written).isEmpty();
      }
    });
  }

  @Test
  void protoDefaultsAndNumbersAreGloosSpellingsToo() {
    // proto3: an absent stage is FaultStage, an absent predicate During; protojson takes enum numbers.
    assertThat(position(build("filterStage: {}"))).contains(ExtProc.Position.FIRST);
    assertThat(position(build("filterStage: {stage: WafStage}"))).contains(ExtProc.Position.AFTER_CORS);
    assertThat(position(build("filter_stage: {stage: 8, predicate: 2}"))).contains(ExtProc.Position.LAST);
    assertThat(errors(settings(build("filterStage: {stage: AuthZStage}")))).extracting(Finding::reason)
        .containsExactly(GlooFeatures.UNSUPPORTED);
  }

  @Test
  void aMissingOrUnknownStageRejectsTheSettings() {
    assertThat(errors(settings(build("failureModeAllow: false")))).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(Reasons.MISSING_FIELD);
      assertThat(f.field()).endsWith("extProc.filterStage");
    });
    for (String stage : List.of("{stage: DlpStage}", "{stage: 9}", "{predicate: Around}", "{stage: [AuthZStage]}",
        "{stage: AuthZStage, predicate: After, weight: 1}", "AuthZStage")) {
      IrBuilder.Result result = build("filterStage: " + stage);
      assertThat(errors(settings(result))).as(stage).isNotEmpty();
      assertThat(position(result)).as(stage).isEmpty();
    }
  }

  /**
   * A Gloo Settings' extProc at a stage serves the same xDS as Holdfast's Gateway extProc at the mapped position,
   * byte for byte, in a chain where the position shows (CORS, CSRF and buffer around it).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({"CorsStage, After, AfterCors", "RouteStage, Before, AfterRateLimits",
      "RouteStage, After, Last", "FaultStage, Before, First"})
  void aStageServesWhatHoldfastsPositionServes(String stage, String predicate, String position) {
    String gloo = UPSTREAMS + """
        apiVersion: gloo.solo.io/v1
        kind: Settings
        metadata: {name: default, namespace: gloo-system}
        spec:
          discoveryNamespace: gloo-system
          extProc:
            grpcService: {extProcServerRef: {name: processor, namespace: gloo-system}}
            filterStage: {stage: %s, predicate: %s}
            messageTimeout: 1s
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            options:
              cors: {allowOrigin: [https://app.example.test]}
              csrf: {filterEnabled: {defaultValue: {numerator: 100, denominator: HUNDRED}}}
              bufferPerRoute: {buffer: {maxRequestBytes: 65536}}
            routes:
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec: {bindAddress: 0.0.0.0, bindPort: 8080, httpGateway: {}}
        """.formatted(stage, predicate);
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec: {static: {hosts: [{address: 192.0.2.10, port: 8080}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: processor, namespace: gloo-system}
        spec: {static: {hosts: [{address: 192.0.2.12, port: 4444}]}, http2: true}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          options:
            cors: {allowOrigin: [https://app.example.test]}
            csrf: {}
            maxRequestBodyBytes: 65536
          routes:
          - match: {prefix: /}
            route: {upstream: app}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          port: 8080
          virtualServices: [{name: default}]
          options:
            normalizePath: true  # Gloo's connection-manager defaults
            webSockets: true
            grpcWeb: true
            extProc: {upstream: processor, messageTimeout: 1s, position: %s}
        """.formatted(position);
    assertThat(position(build("filterStage: {stage: " + stage + ", predicate: " + predicate + "}")))
        .contains(ExtProc.Position.values()[io.holdfast.api.TrafficOptions.ExtProc.POSITIONS.indexOf(position)]);
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }
}
