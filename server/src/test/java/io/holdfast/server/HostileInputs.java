package io.holdfast.server;

/** Inputs that once stopped or crashed the config path (issue 22), shared by the tests that pin their fix. */
public final class HostileInputs {

  /** The first report: {@code type: Prefix} is not a PathMatchType. */
  public static final String INVALID_ENUM_ROUTE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: holdfast}
      spec: {controllerName: holdfast.io/gateway-controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: infra}
      spec:
        gatewayClassName: holdfast
        listeners: [{name: http, port: 8080, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}]
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: typo, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra}]
        hostnames: [shop.test]
        rules:
          - matches: [{path: {type: Prefix, value: /}}]
            backendRefs: [{name: shop, port: 8080}]
      """;

  private HostileInputs() {
  }
}
