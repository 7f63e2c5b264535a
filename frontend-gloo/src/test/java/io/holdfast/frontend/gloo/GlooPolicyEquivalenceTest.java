package io.holdfast.frontend.gloo;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Gloo's edge-policy options (jwt, rbac, csrf, bufferPerRoute, the retry extras) and their hand-written Holdfast
 * equivalents produce byte-identical xDS.
 */
class GlooPolicyEquivalenceTest {

  /** An RSA public key set; its modulus is short, the translation does not read keys. */
  private static final String JWKS = "'{\"keys\":[{\"kty\":\"RSA\",\"n\":\"sXchDaQebHnPiGvyDOAT4saGEUetSyo9\","
      + "\"e\":\"AQAB\"}]}'";

  @Test
  void jwtRbacCsrfBodyLimitAndRetryExtras() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.10, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            options:
              jwt:
                providers:
                  okta:
                    issuer: https://idp.example.test
                    audiences: [api]
                    tokenSource: {headers: [{header: Jwt}]}
                    claimsToHeaders: [{claim: email, header: x-email}]
                    jwks: {local: {key: %s}}
              rbac:
                policies:
                  viewer:
                    permissions: {pathPrefix: /get, methods: [GET, HEAD]}
                    principals: [{jwtPrincipal: {claims: {email: dev@example.test}}}]
              csrf:
                filterEnabled: {defaultValue: {numerator: 100, denominator: HUNDRED}}
                additionalOrigins: [{exact: pay.example.test}]
              bufferPerRoute: {buffer: {maxRequestBytes: 1048576}}
            routes:
            - matchers: [{prefix: /}]
              options:
                retries:
                  retryOn: retriable-status-codes
                  numRetries: 3
                  retriable_status_codes: [503]
                  rateLimitedRetryBackOff: {maxInterval: 5s, resetHeaders: [{name: Retry-After}]}
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          httpGateway: {}
        """.formatted(JWKS);
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.10, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          options:
            security:
              jwtProviders:
                - name: okta
                  issuer: https://idp.example.test
                  audiences: [api]
                  localJwks: {inline: %s}
                  fromHeaders: [{name: Jwt, prefix: ""}]
                  claimsToHeaders: [{claim: email, header: x-email}]
              jwtAfterAuthz: {providers: [okta]}   # Gloo runs the unstaged jwt after external auth
              rbac:
                rules:
                  - headers: [{name: ":path", prefix: /get}, {name: ":method", regex: "GET|HEAD"}]
                    claims: [{provider: okta, name: email, values: [dev@example.test]}]
            csrf: {additionalOrigins: [pay.example.test]}
            maxRequestBodyBytes: 1048576
          routes:
          - match: {prefix: /}
            route: {upstream: app}
            retries:
              attempts: 3
              retryOn: [retriable-status-codes]
              retriableStatusCodes: [503]
              rateLimitedBackoff: {resetHeaders: [{name: Retry-After}], maxInterval: 5s}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: 0.0.0.0
          port: 8080
          virtualServices: [{name: default}]
        """.formatted(JWKS);
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }
}
