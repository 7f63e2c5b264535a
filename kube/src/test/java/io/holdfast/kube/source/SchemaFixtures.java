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

  private static Case ssl(String name, boolean valid, String ssl) {
    return new Case("VirtualService " + name, valid, VS + "spec: {domains: [a.test], routes: [{match: {prefix: /}, "
        + "directResponse: {status: 200}}], " + ssl + "}");
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
