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

  private static Case routeTable(String name, boolean valid, String spec) {
    return new Case("RouteTable " + name, valid, "apiVersion: gateway.holdfast.io/v1\nkind: RouteTable\n"
        + "metadata: {name: t, namespace: demo}\nspec: " + spec);
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
      routeTable("routes only", true, "{routes: [{match: {exact: /a}, directResponse: {status: 204}}]}"),
      routeTable("no routes", false, "{weight: 1}"),
      routeTable("domains", false, "{domains: [a.test], routes: []}"),
      routeTable("weight as string", false, "{weight: \"1\", routes: []}"),
      routeTable("route without action", false, "{routes: [{match: {prefix: /a}}]}"),
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
