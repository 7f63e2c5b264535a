package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.PathMatch;
import io.holdfast.api.Reasons;
import io.holdfast.api.Route;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A matcher's {@code caseSensitive}: Gloo copies it to Envoy's {@code RouteMatch.case_sensitive}, which applies to
 * prefix and exact paths; read into Holdfast's {@code match.caseSensitive}.
 */
class GlooCaseSensitivityTest {

  private static final String UPSTREAM = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: shop, namespace: apps}
      spec:
        static: {hosts: [{addr: 192.0.2.40, port: 8080}]}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec:
        bindAddress: 0.0.0.0
        bindPort: 8080
        httpGateway: {}
      ---
      """;

  private static String virtualService(String routes) {
    return UPSTREAM + """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [shop.example.test]
            routes:
        %s""".formatted(routes.indent(6));
  }

  private static List<Optional<PathMatch>> paths(GlooReading reading) {
    assertThat(reading.rejected()).isEmpty();
    VirtualService vs = reading.holdfastConfig().virtualServices().get(0);
    return vs.routes().stream().map(Route::match).map(m -> m.path()).toList();
  }

  @Test
  void prefixAndExactMatchersKeepTheirCaseRule() {
    GlooReading reading = GlooReading.of(GlooFixtures.load(virtualService("""
        - matchers: [{prefix: /Catalog/, caseSensitive: false}, {exact: /Health, caseSensitive: false}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}
        - matchers: [{prefix: /Admin/, caseSensitive: true}, {caseSensitive: false}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}""")));
    assertThat(paths(reading)).containsExactly(Optional.of(new PathMatch.Prefix("/Catalog/", false)),
        Optional.of(new PathMatch.Exact("/Health", false)), Optional.of(new PathMatch.Prefix("/Admin/")),
        Optional.of(new PathMatch.Prefix("/", false)));
    assertThat(reading.warnings()).isEmpty();
  }

  @Test
  void onARegexItIsIgnoredAsEnvoyIgnoresItUnderGlooWithAWarning() {
    GlooReading reading = GlooReading.of(GlooFixtures.load(virtualService("""
        - matchers: [{regex: '/Catalog/.*', caseSensitive: false}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}""")));
    assertThat(paths(reading)).containsExactly(Optional.of(new PathMatch.Regex("/Catalog/.*")));
    assertThat(reading.warnings().values()).singleElement().satisfies(findings -> assertThat(findings)
        .extracting(Finding::field, Finding::reason)
        .containsExactly(tuple("spec.virtualHost.routes[0].matchers[0].caseSensitive", Reasons.FIELD_IGNORED)));
  }

  @Test
  void aCaseInsensitiveChildUnderACaseSensitiveDelegatedPrefixIsNotServed() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(virtualService("""
        - matchers: [{prefix: /catalog/}]
          delegateAction: {ref: {name: catalog, namespace: apps}}""") + """
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: catalog, namespace: apps}
        spec:
          routes:
          - matchers: [{prefix: /catalog/items, caseSensitive: false}]
            routeAction: {single: {upstream: {name: shop}}}
        """));
    ObjectStatus table = GlooFixtures.status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "apps",
        "catalog");
    // Skipped with a warning, as Gloo Edge does; the table itself stays accepted and serves nothing here.
    assertThat(table.isAccepted()).isTrue();
    assertThat(table.findings()).filteredOn(f -> f.reason().equals(Reasons.PREFIX_VIOLATION)).isNotEmpty()
        .allSatisfy(f -> assertThat(f.severity()).isEqualTo(Finding.Severity.WARNING));
    assertThat(result.ir().listeners()).flatMap(l -> l.virtualHosts()).flatMap(h -> h.routes()).isEmpty();
  }

  @Test
  void equivalentToHandWrittenHoldfastUnderDelegation() {
    String gloo = virtualService("""
        - matchers: [{prefix: /Catalog/, caseSensitive: false}]
          delegateAction: {ref: {name: catalog, namespace: apps}}
        - matchers: [{exact: /Health, caseSensitive: false, headers: [{name: x-probe}]}]
          directResponseAction: {status: 200, body: ok}
        - matchers: [{prefix: /}]
          routeAction: {single: {upstream: {name: shop, namespace: apps}}}""") + """
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: catalog, namespace: apps}
        spec:
          routes:
          - matchers: [{prefix: /CATALOG/items}, {prefix: /catalog/Search, caseSensitive: false}]
            routeAction: {single: {upstream: {name: shop}}}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: shop, namespace: apps}
        spec:
          static: {hosts: [{address: 192.0.2.40, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          domains: [shop.example.test]
          routes:
          - match: {prefix: /Catalog/, caseSensitive: false}
            delegate: {ref: {name: catalog, namespace: apps}}
          - match: {exact: /Health, caseSensitive: false, headers: [{name: x-probe, present: true}]}
            directResponse: {status: 200, body: ok}
          - match: {prefix: /}
            route: {upstream: shop, namespace: apps}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: catalog, namespace: apps}
        spec:
          routes:
          - match: {prefix: /CATALOG/items}
            route: {upstream: shop}
          - match: {prefix: /catalog/Search, caseSensitive: false}
            route: {upstream: shop}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: 0.0.0.0
          port: 8080
          virtualServices: [{name: shop}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }
}
