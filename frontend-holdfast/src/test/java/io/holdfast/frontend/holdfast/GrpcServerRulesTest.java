package io.holdfast.frontend.holdfast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Listener;
import io.holdfast.ir.SocketOptions;
import org.junit.jupiter.api.Test;

/** A Gateway served to proxyless gRPC servers ({@code grpcServer: true}): what it refuses, warns and lowers to. */
class GrpcServerRulesTest {

  private static final ResourceKey GW = ResourceKey.gateway("default", "grpc");

  private static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: up}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
      """;

  /** A VirtualService {@code svc} with {@code security} on its only route, served by a gRPC server Gateway. */
  private static ValidationResult validate(String gatewaySpec, String routeSecurity) {
    return new Validator().validate(TestManifests.config(UPSTREAM, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: svc}
        spec:
          domains: ["*"]
          options:
            security:
              jwtProviders:
                - {name: idp, issuer: https://idp.test, remoteJwks: {uri: "https://idp.test/jwks", upstream: up}}
          routes:
            - match: {prefix: /}
              route: {upstream: up}
              options: {security: %s}
        """.formatted(routeSecurity), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: grpc}
        spec:
          port: 50051
          virtualServices: [{name: svc}]
          %s
        """.formatted(gatewaySpec)));
  }

  private static final String HEADER_RULE = "{rbac: {action: Deny, rules: [{headers: [{name: x-user, exact: eve}]}]}}";

  @Test
  void aGrpcServerGatewayIsLoweredToAGrpcServerSocket() {
    ValidationResult result = validate("grpcServer: true", HEADER_RULE);
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    assertThat(socket.dataPlane()).isEqualTo(Listener.DataPlane.GRPC_SERVER);
    assertThat(socket.address()).isEqualTo("0.0.0.0");
    assertThat(socket.port()).isEqualTo(50051);
  }

  @Test
  void withoutTheFieldAGatewayIsServedToEnvoy() {
    ValidationResult result = validate("ssl: false", HEADER_RULE);
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    assertThat(socket.dataPlane()).isEqualTo(Listener.DataPlane.ENVOY);
  }

  @Test
  void tlsAndProxyProtocolAreRefused() {
    ValidationResult result = validate("grpcServer: true\n  ssl: true\n  options: {proxyProtocol: true}", HEADER_RULE);
    assertThat(result.status(GW).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason).contains(
        tuple("spec.ssl", Reasons.GRPC_SERVER_UNSUPPORTED),
        tuple("spec.options.proxyProtocol", Reasons.GRPC_SERVER_UNSUPPORTED));
  }

  @Test
  void listenerOptionsAreWarnedAndLeftOut() {
    ValidationResult result = validate("grpcServer: true\n  options: {idleTimeout: 60s, xffNumTrustedHops: 1}",
        HEADER_RULE);
    assertThat(result.status(GW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(GW).problems()).extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.options", Reasons.GRPC_IGNORED_OPTION));
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().stream()
        .filter(l -> l instanceof Listener.Socket).findFirst().orElseThrow();
    assertThat(socket.socketOptions()).isEqualTo(SocketOptions.NONE);
    assertThat(((Listener.FilterChain.Http) socket.filterChains().get(0)).options())
        .isEqualTo(HttpListenerOptions.NONE);
  }

  @Test
  void routesRequiringAJwtOrExternalAuthorisationAreWarnedAsDenied() {
    assertThat(validate("grpcServer: true", "{jwt: {providers: [idp]}}").status(GW).problems())
        .extracting(Problem::field, Problem::reason)
        .containsExactly(tuple("spec.grpcServer", Reasons.GRPC_SERVER_DENIES_ROUTE));
    ValidationResult authz = new Validator().validate(TestManifests.config(UPSTREAM, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: svc}
        spec:
          domains: ["*"]
          options: {security: {extAuthz: {http: {upstream: up}}}}
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: grpc}
        spec: {port: 50051, grpcServer: true}
        """));
    assertThat(authz.status(GW).problems()).extracting(Problem::reason)
        .containsExactly(Reasons.GRPC_SERVER_DENIES_ROUTE);
  }

  @Test
  void routesBehindAnOAuth2LoginAreWarnedAsDenied() {
    ValidationResult result = new Validator().validate(TestManifests.config(UPSTREAM, """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: svc}
        spec:
          domains: ["*"]
          options:
            security:
              oauth2: {tokenEndpoint: {uri: 'https://idp.test/token', upstream: up},
                authorizationEndpoint: 'https://idp.test/authorize', clientId: c, clientSecret: {name: sso},
                hmacSecret: {name: sso}}
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: grpc}
        spec: {port: 50051, grpcServer: true}
        """).toBuilder().secret(io.holdfast.api.TlsSecretData.secretKey("default", "sso"),
        new io.holdfast.api.TlsSecretData(new java.util.TreeMap<>(java.util.Map.of("client-secret", "c",
            "hmac-secret", "h")))).build());
    assertThat(result.status(GW).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.GRPC_SERVER_DENIES_ROUTE);
      assertThat(p.message()).contains("OAuth2 login");
    });
  }

  @Test
  void aRuleOnAHeaderGrpcRefusesIsWarnedAsDenied() {
    ValidationResult result = validate("grpcServer: true",
        "{rbac: {rules: [{headers: [{name: grpc-timeout, present: true}]}]}}");
    assertThat(result.status(GW).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.GRPC_SERVER_DENIES_ROUTE);
      assertThat(p.message()).contains("default/svc", "denied");
    });
  }

  @Test
  void theSameRoutesOnAnEnvoyGatewayAreNotWarned() {
    ValidationResult result = validate("ssl: false", "{jwt: {providers: [idp]}}");
    assertThat(result.status(GW).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(GW).problems()).isEmpty();
  }

  @Test
  void aNonBooleanGrpcServerIsRejected() {
    ValidationResult result = validate("grpcServer: maybe", HEADER_RULE);
    assertThat(result.status(GW).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(GW).problems()).extracting(Problem::field).contains("spec.grpcServer");
  }
}
