package io.holdfast.frontend.gatewayapi;

import static io.holdfast.frontend.gatewayapi.Fixtures.CLASS;
import static io.holdfast.frontend.gatewayapi.Fixtures.assertCondition;
import static io.holdfast.frontend.gatewayapi.Fixtures.condition;
import static io.holdfast.frontend.gatewayapi.Fixtures.config;
import static io.holdfast.frontend.gatewayapi.Fixtures.gateway;
import static io.holdfast.frontend.gatewayapi.Fixtures.gatewayKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.host;
import static io.holdfast.frontend.gatewayapi.Fixtures.httpRouteKey;
import static io.holdfast.frontend.gatewayapi.Fixtures.listenerStatus;
import static io.holdfast.frontend.gatewayapi.Fixtures.parent;
import static io.holdfast.frontend.gatewayapi.Fixtures.services;
import static io.holdfast.frontend.gatewayapi.Fixtures.status;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.Condition;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Route;
import io.holdfast.ir.Secret;
import io.holdfast.ir.SectionStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bad input never discards the last good config: one front end lowers a history of configs, as the pipeline does,
 * and a route or certificate whose new version is invalid keeps its last accepted version served.
 */
class LastGoodTest {

  private static final String GATEWAY = gateway("infra", "edge", """
      - name: http
        port: 8080
        protocol: HTTP
      """);
  private static final Map<ServiceRef, List<Endpoint>> BACKENDS = services("infra/infra-backend-v1:8080");
  private static final ResourceKey EDGE = gatewayKey("infra", "edge");
  private static final ResourceKey ROUTE = httpRouteKey("infra", "web");
  private static final String HOST = "web.example.test";

  private final GatewayApiFrontEnd frontEnd = new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME);

  /** The route at {@code generation} with {@code rules} (YAML list items, indented for the rules field). */
  private static String route(long generation, String rules) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: web, namespace: infra, generation: %d}
        spec:
          parentRefs: [{name: edge}]
          hostnames: [%s]
          rules:
        %s""".formatted(generation, HOST, rules.indent(4));
  }

  private static final String GOOD_RULES = """
      - matches: [{path: {type: PathPrefix, value: /good}}]
        backendRefs: [{name: infra-backend-v1, port: 8080}]
      """;
  private static final String BAD_RULES = """
      - matches: [{path: {type: PathPrefix, value: /edited}}]
        backendRefs: [{name: infra-backend-v1, port: 8080}]
      - matches: [{path: {type: RegularExpression, value: "/v[0-9+"}}]
        backendRefs: [{name: infra-backend-v1, port: 8080}]
      """;

  private IrBuilder.Result lower(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    frontEnd.lower(config, builder);
    return builder.build();
  }

  private static List<Route> routesOf(IrBuilder.Result result) {
    return host(result, EDGE, 8080, HOST).routes();
  }

  private static boolean servesHost(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> ((Listener.Socket) l).virtualHosts().stream()).anyMatch(h -> h.domains().contains(HOST));
  }

  @Test
  void routeEditedToAnInvalidVersionKeepsServingTheLastAcceptedGeneration() {
    IrBuilder.Result good = lower(config(BACKENDS, CLASS, GATEWAY, route(1, GOOD_RULES)));
    List<Route> goodRoutes = routesOf(good);
    assertThat(goodRoutes).isNotEmpty();

    IrBuilder.Result edited = lower(config(BACKENDS, CLASS, GATEWAY, route(2, BAD_RULES)));

    assertThat(routesOf(edited)).isEqualTo(goodRoutes);
    Condition accepted = condition(parent(edited, ROUTE, EDGE).conditions(), Condition.ACCEPTED);
    assertThat(accepted.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(accepted.reason()).isEqualTo("UnsupportedValue");
    assertThat(accepted.observedGeneration()).isEqualTo(2);
    assertThat(accepted.message()).contains("spec.rules[1].matches[0].path.value")
        .contains("still serves the last accepted version (generation 1)");
    assertThat(status(edited, ROUTE).observedGeneration()).isEqualTo(2);
    assertThat(listenerStatus(edited, EDGE, "http").attachedRoutes()).isEqualTo(1);

    IrBuilder.Result fixed = lower(config(BACKENDS, CLASS, GATEWAY, route(3, """
        - matches: [{path: {type: PathPrefix, value: /fixed}}]
          backendRefs: [{name: infra-backend-v1, port: 8080}]
        """)));
    assertThat(routesOf(fixed)).isNotEqualTo(goodRoutes);
    assertCondition(parent(fixed, ROUTE, EDGE).conditions(), Condition.ACCEPTED, Condition.Status.TRUE, "Accepted");
  }

  @Test
  void routeEditedToAnUnreadableVersionKeepsServingTheLastAcceptedGeneration() {
    List<Route> goodRoutes = routesOf(lower(config(BACKENDS, CLASS, GATEWAY, route(1, GOOD_RULES))));

    IrBuilder.Result unreadable = lower(config(BACKENDS, CLASS, GATEWAY, """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: web, namespace: infra, generation: 2}
        spec:
          parentRefs: [{name: edge}]
          rules: "not a list"
        """));

    assertThat(routesOf(unreadable)).isEqualTo(goodRoutes);
    Condition accepted = condition(parent(unreadable, ROUTE, EDGE).conditions(), Condition.ACCEPTED);
    assertThat(accepted.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(accepted.observedGeneration()).isEqualTo(2);
    assertThat(accepted.message()).contains("cannot be read").contains("(generation 1)");
  }

  @Test
  void deletingARouteForgetsItsLastAcceptedVersion() {
    lower(config(BACKENDS, CLASS, GATEWAY, route(1, GOOD_RULES)));
    IrBuilder.Result deleted = lower(config(BACKENDS, CLASS, GATEWAY));
    assertThat(servesHost(deleted)).isFalse();

    IrBuilder.Result recreatedInvalid = lower(config(BACKENDS, CLASS, GATEWAY, route(1, BAD_RULES)));

    assertThat(servesHost(recreatedInvalid)).isFalse();
    Condition accepted = condition(parent(recreatedInvalid, ROUTE, EDGE).conditions(), Condition.ACCEPTED);
    assertThat(accepted.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(accepted.message()).doesNotContain("still serves");
    assertThat(listenerStatus(recreatedInvalid, EDGE, "http").attachedRoutes()).isZero();
  }

  @Test
  void aBrandNewInvalidRouteIsNotServed() {
    IrBuilder.Result result = lower(config(BACKENDS, CLASS, GATEWAY, route(1, BAD_RULES)));

    assertThat(servesHost(result)).isFalse();
    assertCondition(parent(result, ROUTE, EDGE).conditions(), Condition.ACCEPTED, Condition.Status.FALSE,
        "UnsupportedValue");
    assertThat(result.ir().clusters()).isEmpty();
  }

  @Test
  void routeMovedAwayFromHoldfastsGatewaysIsNotServedFromMemory() {
    lower(config(BACKENDS, CLASS, GATEWAY, route(1, GOOD_RULES)));
    IrBuilder.Result moved = lower(config(BACKENDS, CLASS, GATEWAY,
        route(2, GOOD_RULES).replace("[{name: edge}]", "[{name: elsewhere-gateway, namespace: other}]")));
    assertThat(servesHost(moved)).isFalse();
    IrBuilder.Result backInvalid = lower(config(BACKENDS, CLASS, GATEWAY, route(3, BAD_RULES)));
    assertThat(servesHost(backInvalid)).isFalse();
  }

  @Test
  void gatewayEditedToAnUnreadableVersionKeepsServingItsLastReadableGeneration() {
    IrBuilder.Result good = lower(config(BACKENDS, CLASS, GATEWAY, route(1, GOOD_RULES)));
    List<Route> goodRoutes = routesOf(good);
    String unreadableGateway = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: infra, generation: 2}
        spec:
          gatewayClassName: holdfast
          listeners: "not a list"
        """;

    IrBuilder.Result edited = lower(config(BACKENDS, CLASS, unreadableGateway, route(1, GOOD_RULES)));

    assertThat(routesOf(edited)).isEqualTo(goodRoutes);
    Condition accepted = condition(status(edited, EDGE).conditions(), Condition.ACCEPTED);
    assertThat(accepted.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(accepted.reason()).isEqualTo("Invalid");
    assertThat(accepted.observedGeneration()).isEqualTo(2);
    assertThat(accepted.message()).contains("cannot be read").contains("(generation 1)");
    assertCondition(status(edited, EDGE).conditions(), "Programmed", Condition.Status.TRUE, "Programmed");
    assertThat(listenerStatus(edited, EDGE, "http").attachedRoutes()).isEqualTo(1);

    lower(config(BACKENDS, CLASS, route(1, GOOD_RULES)));
    IrBuilder.Result recreatedUnreadable = lower(config(BACKENDS, CLASS, unreadableGateway, route(1, GOOD_RULES)));
    assertThat(recreatedUnreadable.ir().listeners()).isEmpty();
    assertCondition(status(recreatedUnreadable, EDGE).conditions(), Condition.ACCEPTED, Condition.Status.FALSE,
        "Invalid");
  }

  private static final String HTTPS_GATEWAY = gateway("infra", "edge", """
      - name: https
        port: 8443
        protocol: HTTPS
        hostname: secure.example.test
        tls:
          certificateRefs: [{name: cert}]
      """);

  private static Secret.Content servedCertificate(IrBuilder.Result result) {
    assertThat(result.ir().secrets()).singleElement()
        .satisfies(s -> assertThat(s.name()).isEqualTo("gateway-api/secret/infra/cert"));
    return result.ir().secrets().get(0).content();
  }

  @Test
  void tlsSecretTurningInvalidKeepsServingTheLastGoodCertificate() {
    GatewayConfig good = Fixtures.withTlsSecret(config(CLASS, HTTPS_GATEWAY), "infra", "cert",
        "secure.example.test");
    Secret.Content goodCertificate = servedCertificate(lower(good));

    IrBuilder.Result garbled = lower(Fixtures.withSecretData(config(CLASS, HTTPS_GATEWAY), "infra", "cert",
        Map.of(TlsSecretData.TLS_CRT, "not a certificate", TlsSecretData.TLS_KEY, "not a key")));

    assertThat(servedCertificate(garbled)).isEqualTo(goodCertificate);
    SectionStatus https = listenerStatus(garbled, EDGE, "https");
    assertCondition(https.conditions(), "Programmed", Condition.Status.TRUE, "Programmed");
    Condition resolved = condition(https.conditions(), "ResolvedRefs");
    assertThat(resolved.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(resolved.reason()).isEqualTo("InvalidCertificateRef");
    assertThat(resolved.message()).contains("still serving the certificate last served");
    assertThat(Fixtures.socket(garbled, EDGE, 8443).filterChains()).singleElement()
        .satisfies(chain -> assertThat(chain.tls()).isPresent());

    // A missing Secret is a reference problem: the listener is not served, and the material is forgotten.
    IrBuilder.Result missing = lower(config(CLASS, HTTPS_GATEWAY));
    assertCondition(listenerStatus(missing, EDGE, "https").conditions(), "Programmed", Condition.Status.FALSE,
        "Invalid");
    assertThat(missing.ir().secrets()).isEmpty();
    IrBuilder.Result garbledAgain = lower(Fixtures.withSecretData(config(CLASS, HTTPS_GATEWAY), "infra", "cert",
        Map.of(TlsSecretData.TLS_CRT, "not a certificate", TlsSecretData.TLS_KEY, "not a key")));
    assertThat(garbledAgain.ir().secrets()).isEmpty();
    assertThat(garbledAgain.ir().listeners()).isEmpty();
  }

  @Test
  void aListenerThatNeverServedASecretDoesNotGetItsOldMaterial() {
    lower(Fixtures.withTlsSecret(config(CLASS, HTTPS_GATEWAY), "infra", "cert", "secure.example.test"));
    String other = HTTPS_GATEWAY.replace("name: edge", "name: newcomer");
    IrBuilder.Result garbled = lower(Fixtures.withSecretData(config(CLASS, HTTPS_GATEWAY, other), "infra", "cert",
        Map.of(TlsSecretData.TLS_CRT, "not a certificate", TlsSecretData.TLS_KEY, "not a key")));

    assertCondition(listenerStatus(garbled, gatewayKey("infra", "newcomer"), "https").conditions(), "Programmed",
        Condition.Status.FALSE, "Invalid");
    assertCondition(listenerStatus(garbled, EDGE, "https").conditions(), "Programmed", Condition.Status.TRUE,
        "Programmed");
  }
}
