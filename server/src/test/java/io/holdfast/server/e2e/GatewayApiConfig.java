package io.holdfast.server.e2e;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Gateway API documents and the gRPC client helpers the Gateway API end-to-end tests share. */
final class GatewayApiConfig {

  static final String CONTROLLER = "holdfast.io/gateway-controller";

  static final String CLASS_AND_GATEWAY = """
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
        listeners:
        - {name: http, port: 10090, protocol: HTTP, allowedRoutes: {namespaces: {from: All}}}
      """;

  private GatewayApiConfig() {
  }

  /** echo.test: {@code x-pick: b} goes to Service b, everything else to {@code fallback}. */
  static String route(String fallback) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: echo, namespace: shop}
        spec:
          parentRefs: [{name: edge, namespace: infra, sectionName: http}]
          hostnames: [echo.test]
          rules:
          - matches: [{headers: [{name: x-pick, value: b}]}]
            backendRefs: [{name: b, port: 8080}]
          - matches: [{path: {type: PathPrefix, value: /}}]
            backendRefs: [{name: %s, port: 8080}]
        """.formatted(fallback);
  }

  /** A Service {@code shop/name} on port 8080 with one ready endpoint, 127.0.0.1:{@code port}. */
  static String service(String name, int port) {
    return """
        apiVersion: v1
        kind: Service
        metadata: {name: %1$s, namespace: shop}
        spec: {ports: [{name: grpc, port: 8080}]}
        ---
        apiVersion: discovery.k8s.io/v1
        kind: EndpointSlice
        metadata: {name: %1$s-1, namespace: shop, labels: {kubernetes.io/service-name: %1$s}}
        addressType: IPv4
        ports: [{name: grpc, port: %2$d, protocol: TCP}]
        endpoints: [{addresses: [127.0.0.1], conditions: {ready: true}}]
        """.formatted(name, port);
  }

  /** One unary call; the backend's name, or the error. */
  static String call(ManagedChannel channel, Map<String, String> headers) {
    Metadata md = new Metadata();
    headers.forEach((k, v) -> md.put(Metadata.Key.of(k, Metadata.ASCII_STRING_MARSHALLER), v));
    try {
      return SimpleServiceGrpc.newBlockingStub(channel)
          .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md))
          .withWaitForReady()
          .withDeadlineAfter(5, TimeUnit.SECONDS)
          .unaryRpc(SimpleRequest.newBuilder().build())
          .getResponseMessage();
    } catch (StatusRuntimeException e) {
      return "error: " + e.getStatus();
    }
  }
}
