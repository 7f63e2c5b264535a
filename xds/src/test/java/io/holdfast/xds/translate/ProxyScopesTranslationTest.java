package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TestManifests;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.RoutePolicies;
import io.holdfast.ir.Secret;
import io.holdfast.ir.UpstreamTls;
import io.holdfast.ir.VirtualHost;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The scopes translation gives each proxy: its Gateways' listeners, their routes, the clusters those use (by
 * route, split, mirror and TCP chain), their endpoints, and the secrets of its listeners and clusters.
 */
class ProxyScopesTranslationTest {

  private static final String LDS = Resources.V3.LISTENER_TYPE_URL;
  private static final String RDS = Resources.V3.ROUTE_TYPE_URL;
  private static final String CDS = Resources.V3.CLUSTER_TYPE_URL;
  private static final String EDS = Resources.V3.ENDPOINT_TYPE_URL;
  private static final String SDS = Resources.V3.SECRET_TYPE_URL;

  private static final ResourceKey UP_A = ResourceKey.upstream("shop", "a");
  private static final ResourceKey UP_B = ResourceKey.upstream("pay", "b");
  private static final ResourceKey SHARED = ResourceKey.upstream("common", "shared");
  private static final ResourceKey MIRROR = ResourceKey.upstream("shop", "mirror");
  private static final ResourceKey TCP = ResourceKey.upstream("shop", "tcp");
  private static final ResourceKey UNUSED = ResourceKey.upstream("shop", "unused");

  @Test
  void eachProxyGetsWhatItsGatewaysUseAndNothingElse() {
    Ir ir = ir(Set.of("a"), Set.of("b", "b2"));
    XdsSnapshot snapshot = new Translator().translate(ir).snapshot();
    ProxyScopes scopes = snapshot.scopes();

    assertThat(scopes.known()).isTrue();
    assertThat(scopes.byProxy()).containsOnlyKeys("a", "b", "b2");
    ProxyScopes.Scope a = scopes.of("a").orElseThrow();
    ProxyScopes.Scope b = scopes.of("b").orElseThrow();
    assertThat(scopes.of("b2")).contains(b);

    String gatewayA = EnvoyNames.socket(socketA(Set.of("a")));
    String tcpA = EnvoyNames.socket(tcpSocket());
    assertThat(a.ofType(LDS)).containsExactlyInAnyOrder(gatewayA, tcpA);
    assertThat(a.ofType(RDS)).isNotEmpty().allMatch(name -> snapshot.ofType(RDS).containsKey(name));
    assertThat(a.ofType(CDS)).containsExactlyInAnyOrder(name(UP_A), name(SHARED), name(MIRROR), name(TCP));
    assertThat(a.ofType(EDS)).isEqualTo(a.ofType(CDS));
    assertThat(a.ofType(SDS)).containsExactly("cert-a");

    assertThat(b.ofType(LDS)).containsExactlyInAnyOrder(EnvoyNames.socket(socketB(Set.of("b"))),
        EnvoyNames.apiListener("b.grpc"));
    assertThat(b.ofType(CDS)).containsExactlyInAnyOrder(name(UP_B), name(SHARED));
    // B's upstream client certificate and CA are B's alone; A's server certificate is A's alone.
    assertThat(b.ofType(SDS)).containsExactlyInAnyOrder("client-b", "ca-b");
    assertThat(a.ofType(SDS)).doesNotContain("client-b", "ca-b");
    // A cluster no listener uses is in no scope.
    scopes.byProxy().values().forEach(scope -> assertThat(scope.ofType(CDS)).doesNotContain(name(UNUSED)));
    // Every scoped name is a resource of the snapshot.
    scopes.byProxy().values().forEach(scope -> scope.names().forEach((type, names) ->
        assertThat(snapshot.ofType(type).keySet()).containsAll(names)));
  }

  @Test
  void aChangeOfProxyNamesAloneIsANewVersionAndIncrementalEqualsFresh() {
    Translator translator = new Translator();
    XdsSnapshot before = translator.translate(ir(Set.of("a"), Set.of("b"))).snapshot();
    XdsSnapshot after = translator.translate(ir(Set.of("a", "a2"), Set.of("b"))).snapshot();
    assertThat(after.resources()).isEqualTo(before.resources());
    assertThat(after.version()).isNotEqualTo(before.version());
    // a2 serves gateway A only; the TCP gateway stays a's.
    assertThat(after.scopes().of("a2").orElseThrow().ofType(LDS))
        .containsExactly(EnvoyNames.socket(socketA(Set.of("a"))));
    XdsSnapshot fresh = new Translator().translate(ir(Set.of("a", "a2"), Set.of("b"))).snapshot();
    assertThat(after).isEqualTo(fresh);
    assertThat(fresh.version()).isEqualTo(XdsSnapshot.scopedVersion(
        XdsSnapshot.contentVersion(fresh.resources()), fresh.scopes()));
  }

  /** The Holdfast front end binds Gateways to their spec.proxyNames, and VirtualServices' client listeners too. */
  @Test
  void holdfastGatewaysBindTheirProxyNames() {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("shared", 9101),
        TestManifests.upstream("shop", 9102), TestManifests.upstream("db", 9103),
        TestManifests.upstream("unused", 9104), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop}
        spec:
          domains: [shop.test]
          routes:
            - {match: {prefix: /static}, route: {upstream: shared}}
            - {match: {prefix: /}, route: {upstream: shop}}
        """, TestManifests.virtualService("admin", "admin.test", "shared"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public}
        spec: {port: 8080, virtualServices: [{name: shop}], proxyNames: [edge-a, edge-b]}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: internal}
        spec: {port: 9090, virtualServices: [{name: admin}], proxyNames: [internal]}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: db}
        spec: {port: 5432, hosts: [{name: db, upstream: {name: db}}]}
        """);
    ValidationResult result = new Validator().validate(config);
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isServed()).isTrue());
    ProxyScopes scopes = new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted()))
        .snapshot().scopes();

    assertThat(scopes.byProxy()).containsOnlyKeys("edge-a", "edge-b", "internal", "gateway-proxy");
    assertThat(scopes.of("edge-b")).isEqualTo(scopes.of("edge-a"));
    ProxyScopes.Scope edge = scopes.of("edge-a").orElseThrow();
    assertThat(edge.ofType(LDS)).containsExactlyInAnyOrder("gateway/default/public", "shop.test");
    assertThat(edge.ofType(CDS)).containsExactlyInAnyOrder("default/shared", "default/shop");
    ProxyScopes.Scope internal = scopes.of("internal").orElseThrow();
    assertThat(internal.ofType(LDS)).containsExactlyInAnyOrder("gateway/default/internal", "admin.test");
    assertThat(internal.ofType(CDS)).containsExactly("default/shared");
    // The TcpGateway names no proxies: the default one serves it.
    assertThat(scopes.of("gateway-proxy").orElseThrow().ofType(CDS)).containsExactly("default/db");
  }

  /**
   * A TLS-terminating TcpGateway host's SDS certificate and client CA are in the scope of the gateway's proxies
   * only: another tenant's proxy is never served them.
   */
  @Test
  void aTerminatingTcpHostsSecretsAreInItsOwnProxysScopeOnly() {
    io.holdfast.pki.TestCertificates.Issued ca = io.holdfast.pki.TestCertificates.ca("scope test CA");
    io.holdfast.pki.TestCertificates.Issued db = io.holdfast.pki.TestCertificates.leaf(ca, "db", "db.test");
    io.holdfast.pki.TestCertificates.Issued mq = io.holdfast.pki.TestCertificates.leaf(ca, "mq", "mq.test");
    GatewayConfig.Builder builder = TestManifests.config(TestManifests.upstream("db", 9103),
        TestManifests.upstream("mq", 9104), """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: db}
        spec:
          port: 5432
          proxyNames: [tenant-a]
          hosts:
            - name: db
              sniDomains: [db.test]
              sslConfig: {secretRef: {name: db-tls}, clientCa: {secretRef: {name: clients}}}
              upstream: {name: db}
        """, """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: mq}
        spec:
          port: 5671
          proxyNames: [tenant-b]
          hosts: [{name: mq, sslConfig: {secretRef: {name: mq-tls}}, upstream: {name: mq}}]
        """).toBuilder();
    builder.secret(io.holdfast.api.TlsSecretData.secretKey("default", "db-tls"), tls(db, ca));
    builder.secret(io.holdfast.api.TlsSecretData.secretKey("default", "mq-tls"), tls(mq, ca));
    builder.secret(io.holdfast.api.TlsSecretData.secretKey("default", "clients"), new io.holdfast.api.TlsSecretData(
        new java.util.TreeMap<>(java.util.Map.of(io.holdfast.api.TlsSecretData.CA_CRT, ca.certificatePem()))));
    ValidationResult result = new Validator().validate(builder.build());
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isServed()).isTrue());
    XdsSnapshot snapshot = new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted())).snapshot();
    ProxyScopes scopes = snapshot.scopes();

    assertThat(scopes.of("tenant-a").orElseThrow().ofType(SDS))
        .containsExactlyInAnyOrder("secret/default/db-tls", "ca/secret/default/clients");
    assertThat(scopes.of("tenant-b").orElseThrow().ofType(SDS)).containsExactly("secret/default/mq-tls");
    assertThat(snapshot.ofType(SDS)).containsOnlyKeys("secret/default/db-tls", "ca/secret/default/clients",
        "secret/default/mq-tls");
  }

  private static io.holdfast.api.TlsSecretData tls(io.holdfast.pki.TestCertificates.Issued leaf,
      io.holdfast.pki.TestCertificates.Issued ca) {
    return new io.holdfast.api.TlsSecretData(new java.util.TreeMap<>(java.util.Map.of(
        io.holdfast.api.TlsSecretData.TLS_CRT, leaf.certificatePem() + ca.certificatePem(),
        io.holdfast.api.TlsSecretData.TLS_KEY, leaf.privateKeyPem())));
  }

  private static String name(ResourceKey upstream) {
    return EnvoyNames.cluster(upstream);
  }

  private static Ir ir(Set<String> proxiesOfA, Set<String> proxiesOfB) {
    Cluster b = new Cluster(Origin.of(UP_B), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of(new Cluster.WeightedEndpoint("127.0.0.1", 9002, 1)), Optional.empty(), Optional.empty(),
        Optional.empty(), List.of(), Optional.of(new UpstreamTls(Optional.of("b.internal"),
            UpstreamTls.Verify.TRUSTED_CA, Optional.of("ca-b"), Optional.of("client-b"))));
    Listener.ClientApi grpc = new Listener.ClientApi(Origin.of(ResourceKey.virtualService("pay", "grpc")),
        "b.grpc", host(ResourceKey.virtualService("pay", "grpc"), "b.grpc", forward(UP_B)),
        new TreeSet<>(proxiesOfB));
    return new Ir(List.of(socketA(proxiesOfA), socketB(proxiesOfB), tcpSocket(), grpc),
        List.of(cluster(UP_A), b, cluster(SHARED), cluster(MIRROR), cluster(TCP), cluster(UNUSED)),
        List.of(new Secret(Origin.of(ResourceKey.virtualService("shop", "web")), "cert-a",
                new Secret.Content.CertificateAndKey("chain", "key")),
            new Secret(Origin.of(UP_B), "client-b", new Secret.Content.CertificateAndKey("chain", "key")),
            new Secret(Origin.of(UP_B), "ca-b", new Secret.Content.TrustedCa("ca"))));
  }

  /** HTTPS gateway A: routes to a (mirrored), and a split onto shared. */
  private static Listener.Socket socketA(Set<String> proxies) {
    Origin gateway = Origin.of(ResourceKey.gateway("shop", "https"));
    ResourceKey vs = ResourceKey.virtualService("shop", "web");
    RouteAction.ForwardPolicy mirrored = new RouteAction.ForwardPolicy(Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        List.of(), Optional.of(new RoutePolicies.Mirror(MIRROR, RoutePolicies.Percent.ALL)));
    VirtualHost host = new VirtualHost(Origin.of(vs), List.of("a.test"), List.of(
        route(vs, 0, new RouteAction.Forward(UP_A, mirrored)),
        route(vs, 1, new RouteAction.Split(List.of(new RouteAction.WeightedCluster(SHARED, 1)),
            RouteAction.ForwardPolicy.NONE))));
    return new Listener.Socket(gateway, "0.0.0.0", 8443, List.of(new Listener.FilterChain.Http(Origin.of(vs),
        "shop/web", Listener.ChainMatch.ANY, Optional.of(new Listener.DownstreamTls("cert-a",
            Listener.TlsVersion.TLS_1_2, Optional.empty(), List.of("h2", "http/1.1"))), List.of(host))),
        new TreeSet<>(proxies));
  }

  /** Plain gateway B: routes to b and shared. */
  private static Listener.Socket socketB(Set<String> proxies) {
    Origin gateway = Origin.of(ResourceKey.gateway("pay", "http"));
    ResourceKey vs = ResourceKey.virtualService("pay", "web");
    VirtualHost host = new VirtualHost(Origin.of(vs), List.of("b.test"), List.of(route(vs, 0, forward(UP_B)),
        route(vs, 1, forward(SHARED))));
    return new Listener.Socket(gateway, "0.0.0.0", 8080, List.of(new Listener.FilterChain.Http(gateway, "http",
        Listener.ChainMatch.ANY, Optional.empty(), List.of(host))), new TreeSet<>(proxies));
  }

  /** A TCP gateway of proxy a. */
  private static Listener.Socket tcpSocket() {
    Origin gateway = Origin.of(ResourceKey.tcpGateway("shop", "tcp"));
    return new Listener.Socket(gateway, "0.0.0.0", 9000, List.of(new Listener.FilterChain.Tcp(gateway, "default",
        Listener.ChainMatch.ANY, Optional.empty(), List.of(new RouteAction.WeightedCluster(TCP, 1)))),
        new TreeSet<>(Set.of("a")));
  }

  private static VirtualHost host(ResourceKey vs, String domain, RouteAction action) {
    return new VirtualHost(Origin.of(vs), List.of(domain), List.of(route(vs, 0, action)));
  }

  private static Route route(ResourceKey vs, int i, RouteAction action) {
    return new Route(Origin.of(vs).at("spec.routes[" + i + "]"), "routes[" + i + "]",
        new RouteMatch(new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()), action);
  }

  private static RouteAction forward(ResourceKey upstream) {
    return new RouteAction.Forward(upstream, RouteAction.ForwardPolicy.NONE);
  }

  private static Cluster cluster(ResourceKey key) {
    return new Cluster(Origin.of(key), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of(new Cluster.WeightedEndpoint("127.0.0.1", 9001, 1)));
  }
}
