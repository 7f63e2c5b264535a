package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.pki.TestCertificates;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Gloo's common guides (hello world / petstore, delegation, TLS and SNI, TCP, upstream options), each written as
 * Gloo's YAML and as its hand-written Holdfast equivalent: both produce byte-identical xDS ({@link Equivalence}).
 */
class GlooEquivalenceTest {

  private static final TestCertificates.Issued CA = TestCertificates.ca("gloo equivalence CA");
  private static final TestCertificates.Issued PETSTORE_CERT =
      TestCertificates.leaf(CA, "petstore", "petstore.example.test");
  private static final TestCertificates.Issued ANIMALS_CERT =
      TestCertificates.leaf(CA, "animals", "animals.example.test");

  private static final Map<ServiceRef, List<Endpoint>> ENDPOINTS = Map.of(
      new ServiceRef("default", "petstore", 8080), List.of(new Endpoint("192.0.2.20", 8080)),
      new ServiceRef("default", "petstore-v2", 8080), List.of(new Endpoint("192.0.2.21", 8080)));

  @Test
  void helloWorldPetstore() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: default-petstore-8080, namespace: gloo-system}
        spec:
          kube: {serviceName: petstore, serviceNamespace: default, servicePort: 8080}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers:
              - exact: /all-pets
              options:
                prefixRewrite: /api/pets
              routeAction:
                single:
                  upstream: {name: default-petstore-8080, namespace: gloo-system}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8080
          httpGateway: {}
          proxyNames: [gateway-proxy]
          useProxyProto: false
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: default-petstore-8080, namespace: gloo-system}
        spec:
          kube: {name: petstore, namespace: default, port: 8080}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {exact: /all-pets}
            prefixRewrite: /api/pets
            route: {upstream: default-petstore-8080}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: default}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo, ENDPOINTS), GlooFixtures.load(holdfast, ENDPOINTS), Map.of());
  }

  @Test
  void delegationByReferenceAndSelectorWithRouteOptions() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: pets, namespace: apps}
        spec:
          static: {hosts: [{addr: 192.0.2.30, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: animals, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [animals.example.test]
            options:
              headerManipulation:
                responseHeadersToAdd:
                - header: {key: x-served-by, value: holdfast}
            routes:
            - matchers: [{prefix: /pets}]
              delegateAction:
                ref: {name: pets-routes, namespace: apps}
            - matchers: [{prefix: /birds}]
              delegateAction:
                selector:
                  labels: {team: birds}
                  namespaces: [apps]
            - matchers: [{prefix: /}]
              directResponseAction: {status: 404, body: no such animal}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: pets-routes, namespace: apps}
        spec:
          routes:
          - matchers:
            - prefix: /pets/search
              headers: [{name: x-beta, value: "true"}]
              methods: [GET]
            options:
              timeout: 5s
              retries: {retryOn: '5xx,reset', numRetries: 3, perTryTimeout: 1s}
            routeAction:
              single: {upstream: {name: pets}}
          - matchers: [{prefix: /pets}]
            options:
              prefixRewrite: /api/pets
              cors:
                allowOrigin: [https://app.example.test]
                allowMethods: [GET, POST]
                maxAge: "600"
            routeAction:
              single: {upstream: {name: pets}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: birds-routes, namespace: apps, labels: {team: birds}}
        spec:
          weight: 10
          routes:
          - matchers: [{exact: /birds/parrot}, {prefix: /birds/, queryParameters: [{name: kind, value: '[a-z]+', regex: true}]}]
            redirectAction: {hostRedirect: birds.example.test, responseCode: FOUND}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8080
          httpGateway: {}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: pets, namespace: apps}
        spec:
          static: {hosts: [{address: 192.0.2.30, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: animals, namespace: gloo-system}
        spec:
          domains: [animals.example.test]
          options:
            headerManipulation:
              responseHeadersToAdd:
              - {name: x-served-by, value: holdfast}
          routes:
          - match: {prefix: /pets}
            delegate: {ref: {name: pets-routes, namespace: apps}}
          - match: {prefix: /birds}
            delegate:
              selector:
                matchLabels: {team: birds}
                namespaces: [apps]
          - match: {prefix: /}
            directResponse: {status: 404, body: no such animal}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: pets-routes, namespace: apps}
        spec:
          routes:
          - match:
              prefix: /pets/search
              headers: [{name: x-beta, exact: "true"}]
              methods: [GET]
            timeout: 5s
            retries: {attempts: 3, perTryTimeout: 1s, retryOn: [5xx, reset]}
            route: {upstream: pets}
          - match: {prefix: /pets}
            prefixRewrite: /api/pets
            options:
              cors:
                allowOrigin: [https://app.example.test]
                allowMethods: [GET, POST]
                maxAge: 600s
            route: {upstream: pets}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: birds-routes, namespace: apps, labels: {team: birds}}
        spec:
          weight: 10
          routes:
          - match: {exact: /birds/parrot}
            redirect: {host: birds.example.test, responseCode: 302}
          - match: {prefix: /birds/, queryParameters: [{name: kind, regex: '[a-z]+'}]}
            redirect: {host: birds.example.test, responseCode: 302}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: animals}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }

  @Test
  void tlsWithSniAndClientCertificatesFromCaCrt() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: pets, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.30, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: petstore, namespace: gloo-system}
        spec:
          sslConfig:
            secretRef: {name: petstore-tls, namespace: gloo-system}
            sniDomains: [petstore.example.test]
          virtualHost:
            domains: [petstore.example.test]
            routes:
            - routeAction: {single: {upstream: {name: pets}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: animals, namespace: gloo-system}
        spec:
          sslConfig:
            secretRef: {name: animals-tls, namespace: gloo-system}
            sniDomains: [animals.example.test]
            oneWayTls: true
            parameters: {minimumProtocolVersion: TLSv1_3}
          virtualHost:
            domains: [animals.example.test]
            routes:
            - routeAction: {single: {upstream: {name: pets}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: plain, namespace: gloo-system}
        spec:
          virtualHost:
            routes:
            - routeAction: {single: {upstream: {name: pets}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy-ssl, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8443
          ssl: true
          httpGateway: {}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8080
          httpGateway: {}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: pets, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.30, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: petstore, namespace: gloo-system}
        spec:
          sslConfig:
            secretRef: {name: petstore-tls}
            sniDomains: [petstore.example.test]
            clientCa: {secretRef: {name: petstore-tls}}
          domains: [petstore.example.test]
          routes:
          - match: {prefix: /}
            route: {upstream: pets}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: animals, namespace: gloo-system}
        spec:
          sslConfig:
            secretRef: {name: animals-tls}
            sniDomains: [animals.example.test]
            minTlsVersion: TLSv1_3
          domains: [animals.example.test]
          routes:
          - match: {prefix: /}
            route: {upstream: pets}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: plain, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /}
            route: {upstream: pets}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy-ssl, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8443
          ssl: true
          virtualServices: [{name: animals}, {name: petstore}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: plain}]
        """;
    Equivalence.assertSameXds(withTlsSecrets(GlooFixtures.load(gloo)), withTlsSecrets(GlooFixtures.load(holdfast)),
        Map.of());
  }

  @Test
  void tcpProxyAndSniPassthrough() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: tcp-echo, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.40, port: 9000}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: tls-backend, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.41, port: 9443}], useTls: false}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: tcp, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8000
          tcpGateway:
            tcpHosts:
            - name: passthrough
              sslConfig: {sniDomains: [tls.example.test]}
              destination:
                single: {upstream: {name: tls-backend, namespace: gloo-system}}
            - name: one-tcp
              destination:
                single: {upstream: {name: tcp-echo, namespace: gloo-system}}
          useProxyProto: false
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: tcp-echo, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.40, port: 9000}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: tls-backend, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.41, port: 9443}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: tcp, namespace: gloo-system}
        spec:
          bindAddress: '::'
          port: 8000
          hosts:
          - name: passthrough
            sniDomains: [tls.example.test]
            upstream: {name: tls-backend}
          - name: one-tcp
            upstream: {name: tcp-echo}
        """;
    GatewayConfig glooConfig = GlooFixtures.load(gloo);
    Equivalence.assertSameXds(glooConfig, GlooFixtures.load(holdfast), Map.of(
        new ResourceKey(GlooKinds.GATEWAY_GROUP, "Gateway", "gloo-system", "tcp"),
        ResourceKey.tcpGateway("gloo-system", "tcp")));
  }

  /**
   * A hybridGateway whose matched tcpGateways are split by client network is one TcpGateway whose hosts carry the
   * matchers' source ranges (a missing prefixLen is Envoy's 0: every client of that family).
   */
  @Test
  void hybridGatewaySplitBySourceRange() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: partners, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.40, port: 9000}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: public, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.41, port: 9000}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: hybrid, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8000
          hybridGateway:
            matchedGateways:
            - matcher:
                sourcePrefixRanges:
                - {addressPrefix: 198.51.100.0, prefixLen: 24}
                - {addressPrefix: '2001:db8::', prefixLen: 32}
              tcpGateway:
                tcpHosts:
                - name: partner-tcp
                  destination:
                    single: {upstream: {name: partners, namespace: gloo-system}}
            - matcher: {sourcePrefixRanges: [{addressPrefix: '::'}]}
              tcpGateway:
                tcpHosts:
                - name: v6-tcp
                  destination:
                    single: {upstream: {name: public, namespace: gloo-system}}
            - tcpGateway:
                tcpHosts:
                - name: public-tcp
                  destination:
                    single: {upstream: {name: public, namespace: gloo-system}}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: partners, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.40, port: 9000}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: public, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.41, port: 9000}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: hybrid, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          port: 8000
          hosts:
          - name: partner-tcp
            sourcePrefixRanges: [198.51.100.0/24, '2001:db8::/32']
            upstream: {name: partners}
          - name: v6-tcp
            sourcePrefixRanges: ['::/0']
            upstream: {name: public}
          - name: public-tcp
            upstream: {name: public}
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of(
        new ResourceKey(GlooKinds.GATEWAY_GROUP, "Gateway", "gloo-system", "hybrid"),
        ResourceKey.tcpGateway("gloo-system", "hybrid")));
  }

  /**
   * A hybridGateway whose matched httpGateways are split by client network is one Holdfast Gateway per matched
   * gateway ({@code <name>-matched-<index>}), each with its matcher's source ranges, sharing the one listener.
   */
  @Test
  void hybridGatewayHttpSplitBySourceRange() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.40, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: partners, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [api.example.test]
            routes:
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: client-ip-reject, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /}]
              directResponseAction: {status: 403, body: "client ip forbidden"}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: hybrid, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          hybridGateway:
            matchedGateways:
            - matcher:
                sourcePrefixRanges:
                - {addressPrefix: 198.51.100.0, prefixLen: 24}
                - {addressPrefix: '2001:db8::', prefixLen: 32}
              httpGateway:
                virtualServices: [{name: partners, namespace: gloo-system}]
            - matcher: {}
              httpGateway:
                virtualServices: [{name: client-ip-reject, namespace: gloo-system}]
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.40, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: partners, namespace: gloo-system}
        spec:
          domains: [api.example.test]
          routes:
          - match: {prefix: /}
            route: {upstream: app}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: client-ip-reject, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /}
            directResponse: {status: 403, body: "client ip forbidden"}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: hybrid-matched-0, namespace: gloo-system}
        spec:
          port: 8080
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          sourcePrefixRanges: [198.51.100.0/24, '2001:db8::/32']
          virtualServices: [{name: partners}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: hybrid-matched-1, namespace: gloo-system}
        spec:
          port: 8080
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          virtualServices: [{name: client-ip-reject}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of(
        new ResourceKey(GlooKinds.GATEWAY_GROUP, "Gateway", "gloo-system", "hybrid"),
        ResourceKey.gateway("gloo-system", "hybrid-matched-0")));
  }

  /**
   * A hybridGateway mixing a tcpGateway and an httpGateway: the TcpGateway {@code <name>} and the Gateway
   * {@code <name>-matched-0} on one socket, told apart by client network.
   */
  @Test
  void hybridGatewayMixingTcpAndHttp() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.40, port: 8080}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: hybrid, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          hybridGateway:
            matchedGateways:
            - matcher: {sourcePrefixRanges: [{addressPrefix: 198.51.100.0, prefixLen: 24}]}
              tcpGateway:
                tcpHosts:
                - name: legacy
                  destination: {single: {upstream: {name: app, namespace: gloo-system}}}
            - httpGateway: {}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: app, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.40, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /}
            route: {upstream: app}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: hybrid-matched-0, namespace: gloo-system}
        spec:
          port: 8080
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          virtualServices: [{name: web}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: hybrid, namespace: gloo-system}
        spec:
          port: 8080
          hosts:
          - name: legacy
            sourcePrefixRanges: [198.51.100.0/24]
            upstream: {name: app}
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of(
        new ResourceKey(GlooKinds.GATEWAY_GROUP, "Gateway", "gloo-system", "hybrid"),
        ResourceKey.gateway("gloo-system", "hybrid-matched-0")));
  }

  /** Gloo terminates TLS on a tcpHost whose sslConfig names a certificate; {@code ca.crt} means mTLS. */
  @Test
  void tlsTerminationOnTcpHosts() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: db, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.42, port: 5432}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: tls-backend, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.41, port: 9443}], useTls: false}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: tcp, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8000
          tcpGateway:
            tcpHosts:
            - name: mutual
              sslConfig:
                secretRef: {name: petstore-tls, namespace: gloo-system}
                sniDomains: [petstore.example.test]
              destination:
                single: {upstream: {name: db, namespace: gloo-system}}
            - name: one-way
              sslConfig:
                secretRef: {name: animals-tls, namespace: gloo-system}
                sniDomains: [animals.example.test]
                oneWayTls: true
              destination:
                single: {upstream: {name: db, namespace: gloo-system}}
            - name: passthrough
              sslConfig: {sniDomains: [tls.example.test]}
              destination:
                single: {upstream: {name: tls-backend, namespace: gloo-system}}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: db, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.42, port: 5432}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: tls-backend, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.41, port: 9443}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: tcp, namespace: gloo-system}
        spec:
          bindAddress: '::'
          port: 8000
          hosts:
          - name: mutual
            sniDomains: [petstore.example.test]
            sslConfig: {secretRef: {name: petstore-tls}, clientCa: {secretRef: {name: petstore-tls}}}
            upstream: {name: db}
          - name: one-way
            sniDomains: [animals.example.test]
            sslConfig: {secretRef: {name: animals-tls}}
            upstream: {name: db}
          - name: passthrough
            sniDomains: [tls.example.test]
            upstream: {name: tls-backend}
        """;
    ObjectStatus read = GlooFixtures.gateway(GlooFixtures.build(withTlsSecrets(GlooFixtures.load(gloo))),
        "gloo-system", "tcp");
    assertThat(read.isAccepted()).as("%s", read.findings()).isTrue();
    Equivalence.assertSameXds(withTlsSecrets(GlooFixtures.load(gloo)), withTlsSecrets(GlooFixtures.load(holdfast)),
        Map.of(new ResourceKey(GlooKinds.GATEWAY_GROUP, "Gateway", "gloo-system", "tcp"),
            ResourceKey.tcpGateway("gloo-system", "tcp")));
  }

  /**
   * Gloo's {@code forwardSniClusterName} (federation failover): one terminating host per Upstream, selected by
   * Gloo's cluster name {@code <name>_<namespace>}, so the listener has one chain per Upstream with that server
   * name and that Upstream's cluster.
   */
  @Test
  void forwardSniClusterNameIsOneHostPerUpstream() throws Exception {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: db, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.42, port: 5432}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: echo, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.43, port: 9000}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: failover-gateway, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 15443
          tcpGateway:
            tcpHosts:
            - name: failover
              sslConfig:
                secretRef: {name: petstore-tls, namespace: gloo-system}
              destination:
                forwardSniClusterName: {}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: db, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.42, port: 5432}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.43, port: 9000}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: failover-gateway, namespace: gloo-system}
        spec:
          bindAddress: '::'
          port: 15443
          hosts:
          - name: failover-0
            sniDomains: [db_gloo-system]
            sslConfig: {secretRef: {name: petstore-tls}, clientCa: {secretRef: {name: petstore-tls}}}
            upstream: {name: db}
          - name: failover-1
            sniDomains: [echo_gloo-system]
            sslConfig: {secretRef: {name: petstore-tls}, clientCa: {secretRef: {name: petstore-tls}}}
            upstream: {name: echo}
        """;
    Map<ResourceKey, ResourceKey> gateway = Map.of(
        new ResourceKey(GlooKinds.GATEWAY_GROUP, "Gateway", "gloo-system", "failover-gateway"),
        ResourceKey.tcpGateway("gloo-system", "failover-gateway"));
    Equivalence.assertSameXds(withTlsSecrets(GlooFixtures.load(gloo)), withTlsSecrets(GlooFixtures.load(holdfast)),
        gateway);
    var xds = Equivalence.xds(withTlsSecrets(GlooFixtures.load(gloo)),
        Equivalence.asHoldfast(GlooFixtures.load(gloo), gateway));
    var listeners = xds.get("type.googleapis.com/envoy.config.listener.v3.Listener");
    assertThat(listeners).hasSize(1);
    var listener = io.envoyproxy.envoy.config.listener.v3.Listener.parseFrom(listeners.values().iterator().next());
    assertThat(listener.getFilterChainsList()).hasSize(2);
    Map<String, String> clusterBySni = new TreeMap<>();
    for (var chain : listener.getFilterChainsList()) {
      var proxy = chain.getFiltersList().stream().filter(f -> f.getName().equals("envoy.filters.network.tcp_proxy"))
          .findFirst().orElseThrow().getTypedConfig()
          .unpack(io.envoyproxy.envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy.class);
      assertThat(chain.getFilterChainMatch().getServerNamesList()).hasSize(1);
      assertThat(chain.hasTransportSocket()).as("terminates TLS").isTrue();
      clusterBySni.put(chain.getFilterChainMatch().getServerNames(0), proxy.getCluster());
    }
    assertThat(clusterBySni.keySet()).containsExactly("db_gloo-system", "echo_gloo-system");
    assertThat(clusterBySni.get("db_gloo-system")).contains("db").doesNotContain("echo");
    assertThat(clusterBySni.get("echo_gloo-system")).contains("echo").doesNotContain("db");
  }

  @Test
  void upstreamOptionsAndImplicitTlsOn443() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: petstore, namespace: gloo-system}
        spec:
          kube: {serviceName: petstore, serviceNamespace: default, servicePort: 8080}
          useHttp2: true
          loadBalancerConfig: {leastRequest: {}}
          connectionConfig: {connectTimeout: 2s}
          circuitBreakers: {maxConnections: 100, maxPendingRequests: 10, maxRequests: 200, maxRetries: 3}
          outlierDetection: {consecutive5xx: 5, interval: 10s, baseEjectionTime: 30s, maxEjectionPercent: 50}
          healthChecks:
          - timeout: 1s
            interval: 5s
            healthyThreshold: 1
            unhealthyThreshold: 3
            httpHealthCheck: {path: /healthz}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: example-com, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: www.example.com, port: 443}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: UpstreamGroup
        metadata: {name: canary, namespace: gloo-system}
        spec:
          destinations:
          - destination: {upstream: {name: petstore, namespace: gloo-system}}
            weight: 9
          - destination: {kube: {ref: {name: petstore-v2, namespace: default}, port: 8080}}
            weight: 1
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /external}]
              options: {autoHostRewrite: true}
              routeAction: {single: {upstream: {name: example-com}}}
            - matchers: [{prefix: /}]
              routeAction: {upstreamGroup: {name: canary}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8080
          httpGateway: {}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: petstore, namespace: gloo-system}
        spec:
          kube: {name: petstore, namespace: default, port: 8080}
          http2: true
          loadBalancing: LEAST_REQUEST
          connectTimeout: 2s
          circuitBreakers: {maxConnections: 100, maxPendingRequests: 10, maxRequests: 200, maxRetries: 3}
          outlierDetection: {consecutive5xx: 5, interval: 10s, baseEjectionTime: 30s, maxEjectionPercent: 50}
          healthChecks:
          - timeout: 1s
            interval: 5s
            healthyThreshold: 1
            unhealthyThreshold: 3
            http: {path: /healthz}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: petstore-v2, namespace: default}
        spec:
          kube: {name: petstore-v2, namespace: default, port: 8080}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: example-com, namespace: gloo-system}
        spec:
          static: {hosts: [{address: www.example.com, port: 443}]}
          tls: {sni: www.example.com, verify: NONE}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /external}
            options: {autoHostRewrite: true}
            route: {upstream: example-com}
          - match: {prefix: /}
            split:
            - {upstream: petstore, weight: 9}
            - {upstream: petstore-v2, namespace: default, weight: 1}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: default}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo, ENDPOINTS), GlooFixtures.load(holdfast, ENDPOINTS), Map.of(
        new ResourceKey(GlooKinds.GLOO_GROUP, GlooKinds.KUBE_DESTINATION, "default", "petstore-v2:8080"),
        ResourceKey.upstream("default", "petstore-v2")));
  }

  @Test
  void upstreamConnectionConfigWithHttpProtocolOptions() throws Exception {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: legacy, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 198.51.100.7, port: 8080}]}
          connectionConfig:
            connectTimeout: 3s
            maxRequestsPerConnection: 20
            perConnectionBufferLimitBytes: 65536
            tcpKeepalive: {keepaliveProbes: 3, keepaliveTime: 30s, keepaliveInterval: 5s}
            commonHttpProtocolOptions: {idleTimeout: 60s, maxHeadersCount: 120, maxStreamDuration: 15s,
              headersWithUnderscoresAction: DROP_HEADER}
            http1ProtocolOptions: {enableTrailers: true, preserveCaseHeaderKeyFormat: true,
              overrideStreamErrorOnInvalidHttpMessage: true}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: grpc, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 198.51.100.8, port: 9090}]}
          useHttp2: true
          maxConcurrentStreams: 100
          initialStreamWindowSize: 1048576
          initialConnectionWindowSize: 4194304
          overrideStreamErrorOnInvalidHttpMessage: false
          connectionConfig: {commonHttpProtocolOptions: {idleTimeout: 5m}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            domains: ['*']
            routes:
            - matchers: [{prefix: /grpc}]
              routeAction: {single: {upstream: {name: grpc}}}
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: legacy}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: '::'
          bindPort: 8080
          httpGateway: {}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: legacy, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 198.51.100.7, port: 8080}]}
          connectTimeout: 3s
          connection:
            maxRequestsPerConnection: 20
            perConnectionBufferLimitBytes: 65536
            tcpKeepalive: {probes: 3, time: 30, interval: 5}
            idleTimeout: 60s
            maxHeadersCount: 120
            maxStreamDuration: 15s
            http1: {enableTrailers: true, headerKeyFormat: PRESERVE_CASE, streamErrorOnInvalidHttpMessage: true}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: grpc, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 198.51.100.8, port: 9090}]}
          http2: true
          connection:
            idleTimeout: 5m
            http2: {maxConcurrentStreams: 100, initialStreamWindowSize: 1048576,
              initialConnectionWindowSize: 4194304, streamErrorOnInvalidHttpMessage: false}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /grpc}
            route: {upstream: grpc}
          - match: {prefix: /}
            route: {upstream: legacy}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          options: {normalizePath: true, webSockets: true, grpcWeb: true}  # Gloo's connection-manager defaults
          bindAddress: '::'
          port: 8080
          virtualServices: [{name: default}]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
    var clusters = Equivalence.xds(GlooFixtures.load(gloo), Equivalence.asHoldfast(GlooFixtures.load(gloo), Map.of()))
        .get("type.googleapis.com/envoy.config.cluster.v3.Cluster");
    assertThat(clusters).hasSize(2);
    var cluster = io.envoyproxy.envoy.config.cluster.v3.Cluster.parseFrom(clusters.get("gloo-system/legacy"));
    var options = cluster
        .getTypedExtensionProtocolOptionsOrThrow("envoy.extensions.upstreams.http.v3.HttpProtocolOptions")
        .unpack(io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions.class);
    var http1 = options.getExplicitHttpConfig().getHttpProtocolOptions();
    assertThat(http1.getEnableTrailers()).isTrue();
    assertThat(http1.getHeaderKeyFormat().getStatefulFormatter().getName())
        .isEqualTo("envoy.http.stateful_header_formatters.preserve_case");
    assertThat(options.getCommonHttpProtocolOptions().getMaxHeadersCount().getValue()).isEqualTo(120);
    var grpc = io.envoyproxy.envoy.config.cluster.v3.Cluster.parseFrom(clusters.get("gloo-system/grpc"))
        .getTypedExtensionProtocolOptionsOrThrow("envoy.extensions.upstreams.http.v3.HttpProtocolOptions")
        .unpack(io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions.class)
        .getExplicitHttpConfig().getHttp2ProtocolOptions();
    assertThat(grpc.getMaxConcurrentStreams().getValue()).isEqualTo(100);
    assertThat(grpc.getInitialConnectionWindowSize().getValue()).isEqualTo(4_194_304);
    assertThat(grpc.hasOverrideStreamErrorOnInvalidHttpMessage()).isTrue();
  }

  private static GatewayConfig withTlsSecrets(GatewayConfig config) {
    return config.toBuilder()
        .secret(TlsSecretData.secretKey("gloo-system", "petstore-tls"), new TlsSecretData(new TreeMap<>(Map.of(
            TlsSecretData.TLS_CRT, PETSTORE_CERT.certificatePem() + CA.certificatePem(),
            TlsSecretData.TLS_KEY, PETSTORE_CERT.privateKeyPem(),
            TlsSecretData.CA_CRT, CA.certificatePem()))))
        .secret(TlsSecretData.secretKey("gloo-system", "animals-tls"), new TlsSecretData(new TreeMap<>(Map.of(
            TlsSecretData.TLS_CRT, ANIMALS_CERT.certificatePem() + CA.certificatePem(),
            TlsSecretData.TLS_KEY, ANIMALS_CERT.privateKeyPem(),
            TlsSecretData.CA_CRT, CA.certificatePem()))))
        .build();
  }

  @Test
  void listenerOptionsAccessLogsAndHealthCheck() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: als, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.30, port: 8083}]}
          useHttp2: true
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes: [{directResponseAction: {status: 200, body: ok}}]
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          useProxyProto: true
          options:
            perConnectionBufferLimitBytes: 65536
            accessLoggingService:
              accessLog:
              - fileSink: {path: /dev/stdout, stringFormat: ""}
              - fileSink:
                  path: /dev/stdout
                  jsonFormat: {protocol: '%PROTOCOL%', duration: '%DURATION%'}
                filter:
                  statusCodeFilter:
                    comparison: {op: GE, value: {defaultValue: 400, runtimeKey: "400"}}
              - grpcService: {logName: example, staticClusterName: als_gloo-system}
          httpGateway:
            options:
              healthCheck: {path: /any-path-you-want}
              httpConnectionManagerSettings:
                xffNumTrustedHops: 1
                idleTimeout: 5m
                requestHeadersTimeout: 10s
                maxRequestHeadersKb: 96
                serverName: edge
                http2ProtocolOptions: {maxConcurrentStreams: 100}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: als, namespace: gloo-system}
        spec:
          static: {hosts: [{address: 192.0.2.30, port: 8083}]}
          http2: true
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /}
            directResponse: {status: 200, body: ok}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          port: 8080
          virtualServices: [{name: default}]
          options:
            normalizePath: true  # Gloo's connection-manager defaults
            webSockets: true
            grpcWeb: true
            proxyProtocol: true
            perConnectionBufferLimitBytes: 65536
            xffNumTrustedHops: 1
            idleTimeout: 5m
            requestHeadersTimeout: 10s
            maxRequestHeadersKb: 96
            serverHeader: {name: edge}
            http2: {maxConcurrentStreams: 100}
            healthCheck: {path: /any-path-you-want}
            accessLogs:
            - file: {path: /dev/stdout}
            - file: {path: /dev/stdout}
              format: {json: {protocol: '%PROTOCOL%', duration: '%DURATION%'}}
              filter: {minStatus: 400}
            - grpc: {upstream: als, logName: example}
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }

  @Test
  void tracingToAnOpenTelemetryCollector() {
    String gloo = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: opentelemetry-collector, namespace: default}
        spec:
          useHttp2: true
          static: {hosts: [{addr: 192.0.2.40, port: 4317}]}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          virtualHost:
            routes: [{directResponseAction: {status: 200, body: ok}}]
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          bindAddress: 0.0.0.0
          bindPort: 8080
          httpGateway:
            options:
              httpConnectionManagerSettings:
                tracing:
                  verbose: true
                  requestHeadersForTags: [x-tenant]
                  tracePercentages: {randomSamplePercentage: 10}
                  openTelemetryConfig:
                    collectorUpstreamRef: {name: opentelemetry-collector, namespace: default}
                    serviceName: edge
                    grpcService: {authority: test-authority}
        """;
    String holdfast = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: opentelemetry-collector, namespace: default}
        spec:
          static: {hosts: [{address: 192.0.2.40, port: 4317}]}
          http2: true
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: default, namespace: gloo-system}
        spec:
          domains: ['*']
          routes:
          - match: {prefix: /}
            directResponse: {status: 200, body: ok}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gateway-proxy, namespace: gloo-system}
        spec:
          port: 8080
          virtualServices: [{name: default}]
          options:
            normalizePath: true  # Gloo's connection-manager defaults
            webSockets: true
            grpcWeb: true
            tracing:
              openTelemetry: {upstream: opentelemetry-collector, namespace: default, serviceName: edge,
                authority: test-authority}
              sampling: {random: 10}
              verbose: true
              requestHeaderTags: [x-tenant]
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());
  }
}
