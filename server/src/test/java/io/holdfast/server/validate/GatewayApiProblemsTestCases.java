package io.holdfast.server.validate;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import java.util.stream.Stream;

/**
 * Gateway API objects Holdfast rejects outright or serves with less than written, each with the object it is
 * reported on and the verdict, field and reason expected; beside a base config with a Gateway and an unrelated
 * route that must stay accepted. Shared by the validate and running-server tests.
 */
public final class GatewayApiProblemsTestCases {

  private GatewayApiProblemsTestCases() {
  }

  public static final String BASE = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: holdfast}
      spec: {controllerName: holdfast.io/gateway-controller}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: edge, namespace: infra, creationTimestamp: "2026-01-01T00:00:00Z"}
      spec:
        gatewayClassName: holdfast
        listeners:
        - {name: http, port: 10090, hostname: "*.test", protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
        - {name: tcp, port: 10091, protocol: TCP, allowedRoutes: {namespaces: {from: All}}}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: a, namespace: shop}
      spec: {ports: [{name: http, port: 8080}]}
      ---
      apiVersion: gateway.networking.k8s.io/v1
      kind: HTTPRoute
      metadata: {name: good, namespace: shop}
      spec:
        parentRefs: [{name: edge, namespace: infra}]
        hostnames: [good.test]
        rules: [{backendRefs: [{name: a, port: 8080}]}]
      """;

  public static final ResourceKey GOOD = route("HTTPRoute", "good");

  /** One bad object, the key it is reported on, and the verdict, field and reason expected. */
  public record Case(String name, String yaml, ResourceKey key, ResourceStatus.State state, String field,
      String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  public static Stream<Case> cases() {
    return Stream.of(
        new Case("every listener allows only a route kind it cannot carry", gateway("kinds", """
            - {name: h, port: 10100, protocol: HTTP, allowedRoutes: {kinds: [{kind: TCPRoute}]}}
            """), gatewayKey("kinds"), ResourceStatus.State.REJECTED, "spec.listeners[0].allowedRoutes.kinds",
            "InvalidRouteKinds"),
        new Case("the only listener names a garbage certificateRef", gateway("garbage", """
            - {name: s, port: 10101, protocol: HTTPS, tls: {certificateRefs: [{kind: ConfigMap, name: x}]}}
            """), gatewayKey("garbage"), ResourceStatus.State.REJECTED, "spec.listeners[0].tls.certificateRefs[0]",
            "InvalidCertificateRef"),
        new Case("the only listener names a Secret of another namespace without a grant", gateway("grant", """
            - {name: s, port: 10102, protocol: HTTPS, tls: {certificateRefs: [{name: x, namespace: other}]}}
            """), gatewayKey("grant"), ResourceStatus.State.REJECTED, "spec.listeners[0].tls.certificateRefs[0]",
            "RefNotPermitted"),
        new Case("the only listener is TLS in Terminate mode", gateway("terminate", """
            - {name: t, port: 10103, protocol: TLS, tls: {mode: Terminate}}
            """), gatewayKey("terminate"), ResourceStatus.State.REJECTED, "spec.listeners[0].tls.mode",
            "UnsupportedValue"),
        new Case("one listener of two names a missing Secret", gateway("partial", """
            - {name: h, port: 10104, protocol: HTTP}
            - {name: s, port: 10105, protocol: HTTPS, tls: {certificateRefs: [{name: missing}]}}
            """), gatewayKey("partial"), ResourceStatus.State.WARNING, "spec.listeners[1].tls.certificateRefs[0]",
            "InvalidCertificateRef"),
        new Case("a listener's allowedRoutes.namespaces.from is outside its enum", gateway("from", """
            - {name: h, port: 10106, protocol: HTTP, allowedRoutes: {namespaces: {from: Everyone}}}
            """), gatewayKey("from"), ResourceStatus.State.REJECTED, "spec.listeners[0].allowedRoutes.namespaces.from",
            "InvalidEnumValue"),
        new Case("the only listener has no port", gateway("noport", """
            - {name: h, protocol: HTTP}
            """), gatewayKey("noport"), ResourceStatus.State.REJECTED, "spec.listeners[0].port",
            "MissingRequiredField"),
        new Case("a parentRef without a name", httpRoute("nameless", "{namespace: infra, sectionName: http}",
            "[x.test]", "{name: a, port: 8080}"), route("HTTPRoute", "nameless"), ResourceStatus.State.REJECTED,
            "spec.parentRefs[0].name", "MissingRequiredField"),
        new Case("a filter type outside the enum", """
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata: {name: filter, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra}]
              hostnames: [f.test]
              rules: [{filters: [{type: RequestHeaderModifer}], backendRefs: [{name: a, port: 8080}]}]
            """, route("HTTPRoute", "filter"), ResourceStatus.State.REJECTED, "spec.rules[0].filters[0].type",
            "InvalidEnumValue"),
        new Case("an HTTPRoute that cannot be read", """
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata: {name: unreadable, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra}]
              rules: oops
            """, route("HTTPRoute", "unreadable"), ResourceStatus.State.REJECTED, "spec", "UnsupportedValue"),
        new Case("a TCPRoute that cannot be read", """
            apiVersion: gateway.networking.k8s.io/v1alpha2
            kind: TCPRoute
            metadata: {name: unreadable-tcp, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra, sectionName: tcp}]
              rules: oops
            """, route("TCPRoute", "unreadable-tcp"), ResourceStatus.State.REJECTED, "spec", "UnsupportedValue"),
        new Case("sectionName matches no listener", httpRoute("section",
            "{name: edge, namespace: infra, sectionName: nope}", "[x.test]", "{name: a, port: 8080}"),
            route("HTTPRoute", "section"), ResourceStatus.State.REJECTED, "spec.parentRefs[0].sectionName",
            "NoMatchingParent"),
        new Case("port matches no listener", httpRoute("port", "{name: edge, namespace: infra, port: 1}", "[x.test]",
            "{name: a, port: 8080}"), route("HTTPRoute", "port"), ResourceStatus.State.REJECTED,
            "spec.parentRefs[0].port", "NoMatchingParent"),
        new Case("no hostname intersects the listener's", httpRoute("hosts", "{name: edge, namespace: infra}",
            "[x.example]", "{name: a, port: 8080}"), route("HTTPRoute", "hosts"), ResourceStatus.State.REJECTED,
            "spec.parentRefs[0]", "NoMatchingListenerHostname"),
        new Case("parentRef names a Gateway that does not exist", httpRoute("dangling",
            "{name: edgy, namespace: infra}", "[x.test]", "{name: a, port: 8080}"), route("HTTPRoute", "dangling"),
            ResourceStatus.State.REJECTED, "spec.parentRefs[0].name", "NoMatchingParent"),
        new Case("path type Prefix is not in the enum", """
            apiVersion: gateway.networking.k8s.io/v1
            kind: HTTPRoute
            metadata: {name: typo, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra}]
              hostnames: [typo.test]
              rules: [{matches: [{path: {type: Prefix, value: /}}], backendRefs: [{name: a, port: 8080}]}]
            """, route("HTTPRoute", "typo"), ResourceStatus.State.REJECTED, "spec.rules[0].matches[0].path.type",
            "InvalidEnumValue"),
        new Case("backendRef to a missing Service", httpRoute("nosvc", "{name: edge, namespace: infra}", "[n.test]",
            "{name: nope, port: 8080}"), route("HTTPRoute", "nosvc"), ResourceStatus.State.WARNING,
            "spec.rules[0].backendRefs[0]", "BackendNotFound"),
        new Case("backendRef kind Servce", httpRoute("kind", "{name: edge, namespace: infra}", "[k.test]",
            "{kind: Servce, name: a, port: 8080}"), route("HTTPRoute", "kind"), ResourceStatus.State.WARNING,
            "spec.rules[0].backendRefs[0]", "InvalidKind"),
        new Case("backendRef to a port the Service lacks", httpRoute("noport", "{name: edge, namespace: infra}",
            "[p.test]", "{name: a, port: 9999}"), route("HTTPRoute", "noport"), ResourceStatus.State.WARNING,
            "spec.rules[0].backendRefs[0]", "BackendNotFound"),
        new Case("backendRef without a port", httpRoute("portless", "{name: edge, namespace: infra}", "[pl.test]",
            "{name: a}"), route("HTTPRoute", "portless"), ResourceStatus.State.WARNING,
            "spec.rules[0].backendRefs[0]", "MissingRequiredField"),
        new Case("a TLSRoute on an HTTP listener", """
            apiVersion: gateway.networking.k8s.io/v1
            kind: TLSRoute
            metadata: {name: tls, namespace: shop}
            spec:
              parentRefs: [{name: edge, namespace: infra, sectionName: http}]
              hostnames: [t.test]
              rules: [{backendRefs: [{name: a, port: 8080}]}]
            """, route("TLSRoute", "tls"), ResourceStatus.State.REJECTED, "spec.parentRefs[0]",
            "NotAllowedByListeners"),
        new Case("a younger TCPRoute on a listener an older one holds", """
            apiVersion: gateway.networking.k8s.io/v1alpha2
            kind: TCPRoute
            metadata: {name: older, namespace: shop, creationTimestamp: "2026-01-01T00:00:00Z"}
            spec:
              parentRefs: [{name: edge, namespace: infra, sectionName: tcp}]
              rules: [{backendRefs: [{name: a, port: 8080}]}]
            ---
            apiVersion: gateway.networking.k8s.io/v1alpha2
            kind: TCPRoute
            metadata: {name: younger, namespace: shop, creationTimestamp: "2026-02-01T00:00:00Z"}
            spec:
              parentRefs: [{name: edge, namespace: infra, sectionName: tcp}]
              rules: [{backendRefs: [{name: a, port: 8080}]}]
            """, route("TCPRoute", "younger"), ResourceStatus.State.REJECTED, "spec.parentRefs[0]",
            "NotAllowedByListeners"));
  }

  public static String gateway(String name, String listeners) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: %s, namespace: infra}
        spec:
          gatewayClassName: holdfast
          listeners:
        %s""".formatted(name, listeners.indent(2));
  }

  public static String httpRoute(String name, String parentRef, String hostnames, String backendRef) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: %s, namespace: shop}
        spec:
          parentRefs: [%s]
          hostnames: %s
          rules: [{backendRefs: [%s]}]
        """.formatted(name, parentRef, hostnames, backendRef);
  }

  public static ResourceKey gatewayKey(String name) {
    return new ResourceKey("gateway.networking.k8s.io", "Gateway", "infra", name);
  }

  public static ResourceKey route(String kind, String name) {
    return new ResourceKey("gateway.networking.k8s.io", kind, "shop", name);
  }
}
