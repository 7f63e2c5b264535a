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

  private static final String TCP_GATEWAY = "apiVersion: gateway.holdfast.io/v1\nkind: TcpGateway\n"
      + "metadata: {name: t, namespace: demo}\n";

  private static Case tcp(String name, boolean valid, String spec) {
    return new Case("TcpGateway " + name, valid, TCP_GATEWAY + "spec: " + spec);
  }

  private static Case upstream(String name, boolean valid, String spec) {
    return new Case("Upstream " + name, valid, UPSTREAM + "spec: " + spec);
  }

  private static Case route(String name, boolean valid, String route) {
    return new Case("VirtualService " + name, valid, VS + "spec: {domains: [a.test], routes: [" + route + "]}");
  }

  private static Case ssl(String name, boolean valid, String ssl) {
    return new Case("VirtualService " + name, valid, VS + "spec: {domains: [a.test], routes: [{match: {prefix: /}, "
        + "directResponse: {status: 200}}], " + ssl + "}");
  }

  private static Case routeTable(String name, boolean valid, String spec) {
    return new Case("RouteTable " + name, valid, "apiVersion: gateway.holdfast.io/v1\nkind: RouteTable\n"
        + "metadata: {name: t, namespace: demo}\nspec: " + spec);
  }

  private static Case gateway(String name, boolean valid, String spec) {
    return new Case("Gateway " + name, valid, GATEWAY + "spec: " + spec);
  }

  static final List<Case> CASES = List.of(
      upstream("ring sizes and ALPN", true, "{static: {hosts: [{address: 127.0.0.1, port: 443}]},"
          + " loadBalancing: RING_HASH, ringHash: {minimumRingSize: 10, maximumRingSize: 200},"
          + " tls: {verify: NONE, sni: a.test, alpnProtocols: [h2, http/1.1]}}"),
      upstream("ring size as string", false, "{kube: {name: echo, port: 80}, loadBalancing: RING_HASH,"
          + " ringHash: {minimumRingSize: \"10\"}}"),
      upstream("ALPN not a list", false, "{kube: {name: echo, port: 80}, tls: {alpnProtocols: h2}}"),
      upstream("HTTP/1.1 options", true, "{kube: {name: echo, port: 80}, connection: {http1: {enableTrailers: true,"
          + " headerKeyFormat: PRESERVE_CASE, streamErrorOnInvalidHttpMessage: false}}}"),
      upstream("HTTP/2 options", true, "{kube: {name: echo, port: 80}, http2: true, connection: {http2:"
          + " {maxConcurrentStreams: 10, initialStreamWindowSize: 65535, initialConnectionWindowSize: 1048576,"
          + " streamErrorOnInvalidHttpMessage: true}}}"),
      upstream("HTTP/1.1 header case unknown", false, "{kube: {name: echo, port: 80}, connection: {http1:"
          + " {headerKeyFormat: lower}}}"),
      new Case("VirtualService csrf origin matchers", true, VS + "spec: {domains: [a.test], options: {csrf:"
          + " {additionalOrigins: [b.test], additionalOriginMatchers: [{suffix: .c.test, ignoreCase: true},"
          + " {safeRegex: 'd[0-9]+[.]test'}]}}, routes: [{match: {prefix: /}, directResponse: {status: 200}}]}"),
      new Case("VirtualService csrf matcher unknown field", false, VS + "spec: {domains: [a.test], options: {csrf:"
          + " {additionalOriginMatchers: [{contains: c}]}}, routes: [{match: {prefix: /}, directResponse:"
          + " {status: 200}}]}"),
      gateway("OpenTelemetry nested attributes", true, "{port: 8080, options: {accessLogs: [{openTelemetry:"
          + " {upstream: otel, logName: edge, attributes: [{key: a, value: {stringValue: x}}, {key: b, value:"
          + " {kvlistValue: {values: [{key: c, value: {arrayValue: {values: [{stringValue: y}]}}}]}}}]}}]}}"),
      gateway("OpenTelemetry attribute without value", false, "{port: 8080, options: {accessLogs: [{openTelemetry:"
          + " {upstream: otel, logName: edge, attributes: [{key: a}]}}]}}"),
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
      upstream("tls trustedCa not an object", false, "{kube: {name: echo, port: 443}, tls: {trustedCa: ca}}"),
      upstream("tls with a trusted CA and a client certificate from Secrets", true,
          "{kube: {name: echo, port: 443}, tls: {sni: echo.test, verify: CA, trustedCa: {secretRef: {name: ca,"
              + " namespace: pki}}, clientCertificate: {secretRef: {name: client}}}}"),
      upstream("tls with a trusted CA and a client certificate from files", true,
          "{kube: {name: echo, port: 443}, tls: {trustedCa: {file: ca.crt}, clientCertificate: {files:"
              + " {certChain: c.crt, privateKey: c.key}}}}"),
      upstream("tls trustedCa with secretRef and file", false,
          "{kube: {name: echo, port: 443}, tls: {trustedCa: {secretRef: {name: ca}, file: ca.crt}}}"),
      upstream("tls clientCertificate without a source", false,
          "{kube: {name: echo, port: 443}, tls: {clientCertificate: {}}}"),
      upstream("tls clientCertificate files without a key", false,
          "{kube: {name: echo, port: 443}, tls: {clientCertificate: {files: {certChain: c.crt}}}}"),
      upstream("tls trustedCa unknown field", false,
          "{kube: {name: echo, port: 443}, tls: {trustedCa: {file: ca.crt, pin: x}}}"),
      upstream("status range without end", false, "{kube: {name: echo, port: 80}, healthChecks: [{http: {path: /,"
          + " expectedStatuses: [{start: 200}]}, timeout: 1s, interval: 5s}]}"),
      route("direct response, empty match", true, "{match: {}, directResponse: {status: 204}}"),
      route("case-insensitive prefix", true, "{match: {prefix: /A/, caseSensitive: false}, route: {upstream: u}}"),
      route("case-sensitive exact", true, "{match: {exact: /A, caseSensitive: true}, route: {upstream: u}}"),
      route("caseSensitive with a regex", false, "{match: {regex: /a.*, caseSensitive: false}, route: {upstream: u}}"),
      route("caseSensitive without a path", false,
          "{match: {methods: [GET], caseSensitive: false}, route: {upstream: u}}"),
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
      route("delegate by reference", true, "{match: {prefix: /a/}, delegate: {ref: {name: t, namespace: demo}}}"),
      route("delegate by selector", true,
          "{match: {prefix: /a/}, delegate: {selector: {matchLabels: {team: a}, namespaces: ['*', demo]}}}"),
      route("delegate by empty selector", true, "{match: {prefix: /a/}, delegate: {selector: {}}}"),
      route("delegate with ref and selector", false,
          "{match: {prefix: /a/}, delegate: {ref: {name: t}, selector: {}}}"),
      route("delegate with neither", false, "{match: {prefix: /a/}, delegate: {}}"),
      route("delegate ref without name", false, "{match: {prefix: /a/}, delegate: {ref: {namespace: demo}}}"),
      route("delegate and route", false, "{match: {prefix: /a/}, delegate: {ref: {name: t}}, route: {upstream: u}}"),
      route("delegate selector namespaces not a list", false,
          "{match: {prefix: /a/}, delegate: {selector: {namespaces: demo}}}"),
      routeTable("routes and weight", true, "{weight: -2, routes: [{match: {prefix: /a/x}, route: {upstream: u},"
          + " timeout: 1s}, {match: {prefix: /a/y/}, delegate: {ref: {name: y}}}]}"),
      routeTable("route options and query parameters", true, "{routes: [{match: {prefix: /a/, queryParameters:"
          + " [{name: q, present: true}]}, route: {upstream: u}, options: {hostRewrite: h.test, idleTimeout: 1s}}]}"),
      routeTable("defaults are a VirtualService's", false,
          "{options: {cors: {allowOrigin: [o]}}, routes: [{match: {prefix: /a}, route: {upstream: u}}]}"),
      routeTable("routes only", true, "{routes: [{match: {exact: /a}, directResponse: {status: 204}}]}"),
      routeTable("no routes", false, "{weight: 1}"),
      routeTable("domains", false, "{domains: [a.test], routes: []}"),
      routeTable("weight as string", false, "{weight: \"1\", routes: []}"),
      routeTable("route without action", false, "{routes: [{match: {prefix: /a}}]}"),
      route("every route option", true, "{match: {prefix: /, queryParameters: [{name: a, exact: b},"
          + " {name: c, regex: d}, {name: e, present: true}]}, route: {upstream: u},"
          + " retries: {attempts: 1, retryOn: [reset], backoff: {baseInterval: 10ms, maxInterval: 1s}},"
          + " options: {headerManipulation: {requestHeadersToAdd: [{name: x, value: y, append: false}],"
          + " requestHeadersToRemove: [z], responseHeadersToAdd: [{name: x, value: y}], responseHeadersToRemove: [w]},"
          + " hostRewrite: h.test, regexRewrite: {pattern: a, substitution: b}, idleTimeout: 1s,"
          + " maxStreamDuration: 1m, cors: {allowOrigin: [o], allowOriginRegex: [r], allowMethods: [GET],"
          + " allowHeaders: [x], exposeHeaders: [y], maxAge: 1h, allowCredentials: true},"
          + " faults: {abort: {percentage: 2.5, httpStatus: 503}, delay: {percentage: 1, fixedDelay: 1s}},"
          + " hashPolicies: [{header: x, terminal: true}, {cookie: {name: s, ttl: 1h, path: /}}, {sourceIp: true}],"
          + " mirror: {upstream: m, namespace: n, percentage: 10}}}"),
      route("auto host rewrite and grpc abort", true, "{match: {prefix: /}, route: {upstream: u},"
          + " options: {autoHostRewrite: true, faults: {abort: {percentage: 100, grpcStatus: 14}}}}"),
      route("unknown route option", false, "{match: {prefix: /}, route: {upstream: u}, options: {retries: {}}}"),
      route("query parameter with two conditions", false,
          "{match: {queryParameters: [{name: a, exact: b, present: true}]}, route: {upstream: u}}"),
      route("query parameter without name", false, "{match: {queryParameters: [{exact: b}]}, route: {upstream: u}}"),
      route("abort with both statuses", false, "{match: {prefix: /}, route: {upstream: u},"
          + " options: {faults: {abort: {percentage: 1, httpStatus: 503, grpcStatus: 14}}}}"),
      route("abort without status", false,
          "{match: {prefix: /}, route: {upstream: u}, options: {faults: {abort: {percentage: 1}}}}"),
      route("percentage as string", false, "{match: {prefix: /}, route: {upstream: u},"
          + " options: {faults: {delay: {percentage: \"5\", fixedDelay: 1s}}}}"),
      route("hash policy with two inputs", false, "{match: {prefix: /}, route: {upstream: u},"
          + " options: {hashPolicies: [{header: x, sourceIp: true}]}}"),
      route("sourceIp false", false,
          "{match: {prefix: /}, route: {upstream: u}, options: {hashPolicies: [{sourceIp: false}]}}"),
      route("mirror without upstream", false,
          "{match: {prefix: /}, route: {upstream: u}, options: {mirror: {percentage: 5}}}"),
      route("header to add without value", false, "{match: {prefix: /}, route: {upstream: u},"
          + " options: {headerManipulation: {requestHeadersToAdd: [{name: x}]}}}"),
      route("backoff without base", false, "{match: {prefix: /}, route: {upstream: u},"
          + " retries: {attempts: 1, retryOn: [reset], backoff: {maxInterval: 1s}}}"),
      new Case("VirtualService defaults", true, VS + "spec: {domains: [a.test], routes: [{match: {prefix: /},"
          + " route: {upstream: u}}], options: {headerManipulation: {responseHeadersToRemove: [server]},"
          + " cors: {allowOrigin: [o]}, retries: {attempts: 1, retryOn: [reset]}}}"),
      new Case("VirtualService jwt after external authorisation", true, VS + "spec: {domains: [a.test],"
          + " routes: [{match: {prefix: /}, route: {upstream: u}, options: {security: {jwtAfterAuthz: {mode:"
          + " Disabled}}}}], options: {security: {jwtProviders: [{name: p, issuer: i, localJwks: {file: /j.json}}],"
          + " jwtAfterAuthz: {providers: [p]}}}}"),
      new Case("VirtualService jwt after external authorisation, bad mode", false, VS + "spec: {domains: [a.test],"
          + " routes: [{match: {prefix: /}, route: {upstream: u}}], options: {security: {jwtProviders: [{name: p,"
          + " issuer: i, localJwks: {file: /j.json}}], jwtAfterAuthz: {mode: Sometimes, providers: [p]}}}}"),
      new Case("VirtualService unknown default", false, VS + "spec: {domains: [a.test], routes: [{match:"
          + " {prefix: /}, route: {upstream: u}}], options: {timeout: 1s}}"),
      ssl("sslConfig from a Secret with every option", true, "sslConfig: {secretRef: {name: t, namespace: demo}, "
          + "sniDomains: [a.test], minTlsVersion: TLSv1_3, clientCa: {secretRef: {name: ca}}}, httpsRedirect: false"),
      ssl("sslConfig from files", true,
          "sslConfig: {files: {certChain: a.crt, privateKey: a.key}, clientCa: {file: ca.crt}, sniDomains: []}"),
      ssl("sslConfig with secretRef and files", false,
          "sslConfig: {secretRef: {name: t}, files: {certChain: a.crt, privateKey: a.key}}"),
      ssl("sslConfig without a certificate", false, "sslConfig: {sniDomains: [a.test]}"),
      ssl("sslConfig files without a key", false, "sslConfig: {files: {certChain: a.crt}}"),
      ssl("sslConfig unknown TLS version", false, "sslConfig: {secretRef: {name: t}, minTlsVersion: TLSv1_0}"),
      ssl("clientCa with secretRef and file", false,
          "sslConfig: {secretRef: {name: t}, clientCa: {secretRef: {name: ca}, file: ca.crt}}"),
      ssl("httpsRedirect not a boolean", false, "httpsRedirect: \"yes\""),
      gateway("https", true, "{port: 8443, ssl: true}"),
      gateway("ssl not a boolean", false, "{port: 8443, ssl: 1}"),
      gateway("named virtual services", true, "{port: 8080, virtualServices: [{name: v, namespace: demo}]}"),
      gateway("all in namespace", true, "{port: 8080, bindAddress: 127.0.0.1}"),
      gateway("names and selector", false,
          "{port: 8080, virtualServices: [{name: v}], selector: {matchLabels: {a: b}}}"),
      gateway("no port", false, "{selector: {matchLabels: {a: b}}}"),
      gateway("proxy names", true, "{port: 8080, proxyNames: [edge, shop/web]}"),
      gateway("no proxy names", false, "{port: 8080, proxyNames: []}"),
      gateway("empty proxy name", false, "{port: 8080, proxyNames: [\"\"]}"),
      gateway("proxy names not a list", false, "{port: 8080, proxyNames: edge}"),
      gateway("17 proxy names", false, "{port: 8080, proxyNames: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q]}"),
      gateway("proxy name too long", false, "{port: 8080, proxyNames: [" + "x".repeat(254) + "]}"),
      gateway("label value not a string", false, "{port: 8080, selector: {matchLabels: {a: {b: c}}}}"),
      tcp("passthrough and default", true, "{port: 10443, bindAddress: \"::\", hosts: ["
          + "{name: a, sniDomains: [a.test, \"*.b.test\"], upstream: {name: u, namespace: other}},"
          + " {name: rest, split: [{upstream: {name: u}, weight: 1}, {upstream: {name: v}, weight: 0}]}]}"),
      tcp("no hosts field", false, "{port: 10443}"),
      tcp("terminating host", true, "{port: 1, hosts: [{name: a, sniDomains: [a.test], upstream: {name: u},"
          + " sslConfig: {secretRef: {name: s}, minTlsVersion: TLSv1_3, clientCa: {secretRef: {name: c}}}}]}"),
      tcp("terminating host without a certificate", false,
          "{port: 1, hosts: [{name: a, upstream: {name: u}, sslConfig: {minTlsVersion: TLSv1_2}}]}"),
      tcp("proxy names", true, "{port: 1, proxyNames: [db-proxy], hosts: [{name: a, upstream: {name: u}}]}"),
      tcp("no proxy names", false, "{port: 1, proxyNames: [], hosts: [{name: a, upstream: {name: u}}]}"),
      tcp("no port", false, "{hosts: [{name: a, upstream: {name: u}}]}"),
      tcp("upstream and split", false,
          "{port: 1, hosts: [{name: a, upstream: {name: u}, split: [{upstream: {name: u}, weight: 1}]}]}"),
      tcp("neither upstream nor split", false, "{port: 1, hosts: [{name: a, sniDomains: [a.test]}]}"),
      tcp("host without name", false, "{port: 1, hosts: [{upstream: {name: u}}]}"),
      tcp("upstream as a string", false, "{port: 1, hosts: [{name: a, upstream: u}]}"),
      tcp("upstream without name", false, "{port: 1, hosts: [{name: a, upstream: {namespace: n}}]}"),
      tcp("split target without weight", false, "{port: 1, hosts: [{name: a, split: [{upstream: {name: u}}]}]}"),
      tcp("sniDomains not a list", false, "{port: 1, hosts: [{name: a, sniDomains: a.test, upstream: {name: u}}]}"),
      tcp("unknown host field", false, "{port: 1, hosts: [{name: a, upstream: {name: u}, tls: {}}]}"));

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
