package io.holdfast.kube.source;

import io.holdfast.api.ManifestReader;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Documents on both sides of the parser's shape rules, for comparing it with the CRD schemas. */
final class SchemaFixtures {

  record Case(String name, boolean valid, String yaml) {
    @Override
    public String toString() {
      return (valid ? "valid: " : "invalid: ") + name;
    }
  }

  private static final String UPSTREAM = "apiVersion: gateway.holdfast.io/v1\nkind: Upstream\n"
      + "metadata: {name: u, namespace: demo}\n";
  private static final String VS = "apiVersion: gateway.holdfast.io/v1\nkind: VirtualService\n"
      + "metadata: {name: v, namespace: demo}\n";
  private static final String GATEWAY = "apiVersion: gateway.holdfast.io/v1\nkind: Gateway\n"
      + "metadata: {name: g, namespace: demo}\n";

  private static Case upstream(String name, boolean valid, String spec) {
    return new Case("Upstream " + name, valid, UPSTREAM + "spec: " + spec);
  }

  private static Case route(String name, boolean valid, String route) {
    return new Case("VirtualService " + name, valid, VS + "spec: {domains: [a.test], routes: [" + route + "]}");
  }

  private static Case gateway(String name, boolean valid, String spec) {
    return new Case("Gateway " + name, valid, GATEWAY + "spec: " + spec);
  }

  static final List<Case> CASES = List.of(
      upstream("kube target", true,
          "{kube: {name: echo, port: 80}, loadBalancing: LEAST_REQUEST, connectTimeout: 1m30s, http2: true}"),
      upstream("static with weight", true, "{static: {hosts: [{address: 127.0.0.1, port: 80, weight: 3}]}}"),
      upstream("static and kube", false,
          "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, kube: {name: echo, port: 80}}"),
      upstream("no target", false, "{connectTimeout: 2s}"),
      upstream("unknown spec field", false, "{kube: {name: echo, port: 80}, retries: 3}"),
      upstream("unknown load balancing", false, "{kube: {name: echo, port: 80}, loadBalancing: MAGLEV}"),
      upstream("unitless duration", false, "{kube: {name: echo, port: 80}, connectTimeout: \"5\"}"),
      upstream("port as string", false, "{kube: {name: echo, port: \"80\"}}"),
      upstream("host without port", false, "{static: {hosts: [{address: 127.0.0.1}]}}"),
      upstream("host by name with dns options", true, "{static: {hosts: [{address: backend.test, port: 443}]},"
          + " dns: {resolution: LOGICAL, lookupFamily: V4_PREFERRED, refreshRate: 30s, respectTtl: true}}"),
      upstream("unknown dns resolution", false, "{static: {hosts: [{address: a.test, port: 80}]},"
          + " dns: {resolution: EAGER}}"),
      upstream("every resilience option", true, "{kube: {name: echo, port: 80}, http2: true,"
          + " circuitBreakers: {maxConnections: 1, maxPendingRequests: 2, maxRequests: 3, maxRetries: 0},"
          + " outlierDetection: {consecutive5xx: 5, consecutiveGatewayErrors: 3,"
          + " successRate: {minimumHosts: 2, requestVolume: 10, stdevFactor: 1.5},"
          + " failurePercentage: {threshold: 50, minimumHosts: 2, requestVolume: 10},"
          + " interval: 5s, baseEjectionTime: 30s, maxEjectionPercent: 50},"
          + " healthChecks: [{http: {path: /h, host: h.test, expectedStatuses: [{start: 200, end: 300}]},"
          + " timeout: 1s, interval: 5s, healthyThreshold: 1, unhealthyThreshold: 3},"
          + " {tcp: {}, timeout: 1s, interval: 5s}, {grpc: {serviceName: s}, timeout: 1s, interval: 5s}]}"),
      upstream("circuit breaker as string", false,
          "{kube: {name: echo, port: 80}, circuitBreakers: {maxRequests: \"1\"}}"),
      upstream("unknown circuit breaker", false, "{kube: {name: echo, port: 80}, circuitBreakers: {maxStreams: 1}}"),
      upstream("stdev factor as string", false,
          "{kube: {name: echo, port: 80}, outlierDetection: {successRate: {stdevFactor: high}}}"),
      upstream("unitless ejection time", false,
          "{kube: {name: echo, port: 80}, outlierDetection: {consecutive5xx: 1, baseEjectionTime: \"30\"}}"),
      upstream("health check without probe", false,
          "{kube: {name: echo, port: 80}, healthChecks: [{timeout: 1s, interval: 5s}]}"),
      upstream("health check with two probes", false,
          "{kube: {name: echo, port: 80}, healthChecks: [{tcp: {}, grpc: {}, timeout: 1s, interval: 5s}]}"),
      upstream("health check without timeout", false,
          "{kube: {name: echo, port: 80}, healthChecks: [{tcp: {}, interval: 5s}]}"),
      upstream("http health check without path", false,
          "{kube: {name: echo, port: 80}, healthChecks: [{http: {host: a.test}, timeout: 1s, interval: 5s}]}"),
      upstream("tcp health check with a field", false,
          "{kube: {name: echo, port: 80}, healthChecks: [{tcp: {send: x}, timeout: 1s, interval: 5s}]}"),
      upstream("tls", true,
          "{static: {hosts: [{address: api.test, port: 443}]}, tls: {sni: api.test, verify: SYSTEM}}"),
      upstream("empty tls", true, "{static: {hosts: [{address: api.test, port: 443}]}, tls: {}}"),
      upstream("unknown tls verify", false, "{kube: {name: echo, port: 443}, tls: {verify: SOMETIMES}}"),
      upstream("tls with a trusted CA (not yet)", false, "{kube: {name: echo, port: 443}, tls: {trustedCa: ca}}"),
      upstream("status range without end", false, "{kube: {name: echo, port: 80}, healthChecks: [{http: {path: /,"
          + " expectedStatuses: [{start: 200}]}, timeout: 1s, interval: 5s}]}"),
      route("direct response, empty match", true, "{match: {}, directResponse: {status: 204}}"),
      route("redirect with path, methods and headers", true,
          "{match: {exact: /x, methods: [GET, POST], headers: [{name: x, present: true, invert: true}]},"
              + " redirect: {path: /y, responseCode: 302}}"),
      route("retries", true, "{match: {regex: /a.*}, route: {upstream: u}, timeout: 250ms,"
          + " retries: {attempts: 2, perTryTimeout: 1s, retryOn: [reset]}, prefixRewrite: /}"),
      route("two actions", false, "{match: {prefix: /}, route: {upstream: u}, directResponse: {status: 200}}"),
      route("no action", false, "{match: {prefix: /}}"),
      route("no match", false, "{route: {upstream: u}}"),
      route("prefix and exact", false, "{match: {prefix: /, exact: /a}, route: {upstream: u}}"),
      route("header without condition", false, "{match: {headers: [{name: x}]}, route: {upstream: u}}"),
      route("header with two conditions", false,
          "{match: {headers: [{name: x, exact: a, prefix: b}]}, route: {upstream: u}}"),
      route("lower-case method", false, "{match: {methods: [get]}, route: {upstream: u}}"),
      route("redirect path and prefixRewrite", false,
          "{match: {prefix: /}, redirect: {path: /a, prefixRewrite: /b}}"),
      route("split target without weight", false, "{match: {prefix: /}, split: [{upstream: u}]}"),
      route("retries without retryOn", false, "{match: {prefix: /}, route: {upstream: u}, retries: {attempts: 1}}"),
      gateway("named virtual services", true, "{port: 8080, virtualServices: [{name: v, namespace: demo}]}"),
      gateway("all in namespace", true, "{port: 8080, bindAddress: 127.0.0.1}"),
      gateway("names and selector", false,
          "{port: 8080, virtualServices: [{name: v}], selector: {matchLabels: {a: b}}}"),
      gateway("no port", false, "{selector: {matchLabels: {a: b}}}"),
      gateway("label value not a string", false, "{port: 8080, selector: {matchLabels: {a: {b: c}}}}"));

  private SchemaFixtures() {
  }

  static JsonNode tree(String yaml) {
    var read = new ManifestReader().read("fixture", yaml);
    if (!read.errors().isEmpty() || read.documents().size() != 1) {
      throw new IllegalArgumentException("bad fixture: " + read.errors());
    }
    return read.documents().get(0).tree();
  }
}
