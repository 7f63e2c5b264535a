package io.holdfast.it.outage;

import java.util.Map;
import java.util.Objects;

/** The gateway resources the scenarios use, as the JSON the emulated API takes (namespace {@value #NS}). */
final class GatewayResources {
  static final String NS = "demo";
  private static final Map<String, String> PLURALS = Map.of("Upstream", "upstreams",
      "VirtualService", "virtualservices", "Gateway", "gateways");

  private GatewayResources() {
  }

  record Resource(String kind, String namespace, String name, String json) {
    Resource {
      Objects.requireNonNull(kind, "kind");
      if (!PLURALS.containsKey(kind)) {
        throw new IllegalArgumentException("not a gateway kind: " + kind);
      }
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(json, "json");
    }

    String collectionPath() {
      return "/apis/gateway.holdfast.io/v1/namespaces/" + namespace + "/" + PLURALS.get(kind);
    }

    String path() {
      return collectionPath() + "/" + name;
    }

    /** The key Holdfast's {@code /state} uses: {@code Kind/ns/name}. */
    String key() {
      return kind + "/" + namespace + "/" + name;
    }
  }

  /** An Upstream of one static loopback host speaking HTTP/2 (gRPC). */
  static Resource upstream(String name, int port) {
    return new Resource("Upstream", NS, name, """
        {"apiVersion":"gateway.holdfast.io/v1","kind":"Upstream","metadata":{"name":"%s","namespace":"%s"},\
        "spec":{"static":{"hosts":[{"address":"127.0.0.1","port":%d}]},"http2":true}}""".formatted(name, NS, port));
  }

  /** A VirtualService for {@code domain} (served to grpc-java as Listener {@code domain}) routing all to one upstream. */
  static Resource virtualService(String name, String domain, String upstream) {
    return new Resource("VirtualService", NS, name, """
        {"apiVersion":"gateway.holdfast.io/v1","kind":"VirtualService","metadata":{"name":"%s","namespace":"%s"},\
        "spec":{"domains":["%s"],"routes":[{"name":"all","match":{"prefix":"/"},"route":{"upstream":"%s"}}]}}"""
        .formatted(name, NS, domain, upstream));
  }
}
