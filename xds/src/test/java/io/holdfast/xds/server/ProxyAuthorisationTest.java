package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.Status;
import io.holdfast.ir.NackEvent;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authorisation {@code proxy-identity} over real mutual TLS on 127.0.0.1: a proxy with gateway A's certificate
 * is served A's listeners, routes, clusters, endpoints and secrets and nothing of gateway B's, by wildcard or by
 * name, SotW or delta; names asked for outside its scope are answered as absent and counted; a client without a
 * certificate fails the handshake, one whose certificate names no proxy is refused.
 */
class ProxyAuthorisationTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final TestPki.Issued CA = TestPki.ca("holdfast xDS CA");
  /** Gateway A's proxy, named by a SPIFFE id whose proxy name contains a slash. */
  private static final String PROXY_A = "shop/web";
  private static final String PROXY_B = "payments";

  @TempDir
  Path dir;

  private final XdsCache cache = new XdsCache();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private final List<NackEvent> nacks = new CopyOnWriteArrayList<>();
  private XdsServer server;

  @BeforeEach
  void serve() {
    cache.setSnapshot(twoGateways(1));
    server = track(ProxyIdentityServer.start(CA, cache, dir, meters, nacks::add)).server();
  }

  @AfterEach
  void tearDown() throws Exception {
    while (!open.isEmpty()) {
      open.pop().close();
    }
  }

  @Test
  void wildcardSotwAnswersListOnlyTheProxysGateway() {
    MtlsAdsClient a = proxyA();
    a.ask(TypeUrls.CLUSTER);
    a.ask(TypeUrls.LISTENER);
    assertThat(names(first(a, TypeUrls.CLUSTER))).containsExactly("shared", "upstream-a");
    assertThat(names(first(a, TypeUrls.LISTENER))).containsExactly("listener-a");

    MtlsAdsClient b = client(ProxyCertificates.client(CA, "CN=" + PROXY_B));
    b.ask(TypeUrls.CLUSTER);
    assertThat(names(first(b, TypeUrls.CLUSTER))).containsExactly("shared", "upstream-b");
  }

  @Test
  void namesOutsideTheScopeAreAbsentAndCounted() {
    String bSecret = servedToB();
    MtlsAdsClient a = proxyA();
    a.ask(TypeUrls.SECRET, "secret-a", bSecret, "no-such-secret");
    a.ask(TypeUrls.ROUTE, "routes-b");
    a.ask(TypeUrls.ENDPOINT, "upstream-b", "shared");

    assertThat(names(first(a, TypeUrls.SECRET))).containsExactly("secret-a");
    assertThat(first(a, TypeUrls.ROUTE).getResourcesCount()).isZero();
    assertThat(names(first(a, TypeUrls.ENDPOINT))).containsExactly("shared");
    // Only names that exist outside the scope count: an unknown name is absent for everyone.
    assertThat(refused("Secret")).isEqualTo(1.0);
    assertThat(refused("RouteConfiguration")).isEqualTo(1.0);
    assertThat(refused("ClusterLoadAssignment")).isEqualTo(1.0);
  }

  @Test
  void deltaStreamsGetOnlyTheScopeByWildcardAndByName() {
    String bSecret = servedToB();
    MtlsAdsClient a = proxyA();
    a.subscribe(TypeUrls.LISTENER);
    a.subscribe(TypeUrls.SECRET, "secret-a", bSecret);
    a.subscribe(TypeUrls.CLUSTER);

    await().atMost(WAIT).until(() -> !a.deltaResponses(TypeUrls.LISTENER).isEmpty()
        && !a.deltaResponses(TypeUrls.SECRET).isEmpty() && !a.deltaResponses(TypeUrls.CLUSTER).isEmpty());
    assertThat(a.deltaFailure()).isEmpty();
    assertThat(deltaNames(a, TypeUrls.LISTENER)).containsExactly("listener-a");
    assertThat(deltaNames(a, TypeUrls.SECRET)).containsExactly("secret-a");
    assertThat(deltaNames(a, TypeUrls.CLUSTER)).containsExactlyInAnyOrder("shared", "upstream-a");
    assertThat(refused("Secret")).isEqualTo(1.0);

    // A new snapshot changes B's secret: A is sent nothing of it, and its view's version does not move; asked
    // again, the name is answered as absent, exactly as a name that does not exist.
    int secretsBefore = a.deltaResponses(TypeUrls.SECRET).size();
    String versionBefore = a.deltaResponses(TypeUrls.LISTENER).get(0).getSystemVersionInfo();
    cache.setSnapshot(twoGateways(2));
    a.subscribe(TypeUrls.SECRET, bSecret);
    await().atMost(WAIT).until(() -> a.deltaResponses(TypeUrls.SECRET).size() > secretsBefore);
    DeltaDiscoveryResponse again = a.deltaResponses(TypeUrls.SECRET).get(secretsBefore);
    assertThat(again.getResourcesList()).isEmpty();
    assertThat(again.getRemovedResourcesList()).containsExactly(bSecret);
    assertThat(deltaNames(a, TypeUrls.SECRET)).doesNotContain(bSecret);
    assertThat(cache.registry().current().orElseThrow().view(PROXY_A).version()).isEqualTo(versionBefore);
    assertThat(refused("Secret")).isEqualTo(2.0);
  }

  @Test
  void aNackOfAScopedViewNamesTheSnapshotVersionSoStatusesCanAttributeIt() {
    MtlsAdsClient a = proxyA();
    a.ask(TypeUrls.CLUSTER);
    DiscoveryResponse response = first(a, TypeUrls.CLUSTER);
    String snapshotVersion = cache.currentSnapshot().orElseThrow().version();
    assertThat(response.getVersionInfo()).as("a view has its own version").isNotEqualTo(snapshotVersion);
    a.nack(response);
    await().atMost(WAIT).until(() -> !nacks.isEmpty());
    assertThat(nacks.get(0).rejectedVersion()).isEqualTo(snapshotVersion);
    assertThat(nacks.get(0).resourceNames()).containsExactly("shared", "upstream-a");
  }

  @Test
  void aCertificateNamingNoProxyIsRefusedAndCounted() {
    MtlsAdsClient nobody = client(ProxyCertificates.client(CA, "O=acme", "spiffe://holdfast.local/workload/x"));
    nobody.ask(TypeUrls.LISTENER);
    // A NACK from it changes no status: the stream is closed before any request is read.
    nobody.nack(DiscoveryResponse.newBuilder().setTypeUrl(TypeUrls.LISTENER).setNonce("0").build());
    await().atMost(WAIT).until(() -> nobody.sotwFailure().isPresent());
    assertThat(nacks).isEmpty();
    assertThat(nobody.sotwFailure().orElseThrow().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
    assertThat(nobody.sotwResponses(TypeUrls.LISTENER)).isEmpty();
    assertThat(meters.get(XdsMetrics.REFUSED).tag("reason", "no_proxy_identity").counter().count())
        .isGreaterThanOrEqualTo(1.0);
  }

  @Test
  void aClientWithoutCertificateFailsTheHandshake() {
    TlsAdsClient anonymous = track(TlsAdsClient.connect(server.port(), List.of(CA.certificate())));
    await().atMost(WAIT).until(() -> anonymous.failure().isPresent());
    assertThat(anonymous.failedInTls()).as("failed in TLS: %s", anonymous.failure()).isTrue();
    assertThat(anonymous.responses()).isEmpty();
  }

  @Test
  void aSnapshotWithoutScopesIsServedToNoProxy() {
    cache.setSnapshot(Fixtures.snapshot(listener("listener-a", 1000), listener("listener-b", 1001)));
    MtlsAdsClient a = proxyA();
    a.ask(TypeUrls.LISTENER);
    await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> a.sotwResponses(TypeUrls.LISTENER).isEmpty());
    cache.setSnapshot(twoGateways(1));
    assertThat(names(first(a, TypeUrls.LISTENER))).containsExactly("listener-a");
  }

  /** What holdfast status compares a proxy's ACKs with: what was sent it (its own view's version). */
  @Test
  void aProxyIsInSyncWithTheVersionOfItsOwnViewNotTheSnapshots() {
    XdsSnapshot whole = cache.currentSnapshot().orElseThrow();
    MtlsAdsClient a = proxyA();
    a.subscribe(TypeUrls.LISTENER);

    await().atMost(WAIT).until(() -> server.proxies().stream().anyMatch(ProxyStatus::inSync));
    ProxyStatus status = server.proxies().get(0);
    String viewVersion = a.deltaResponses(TypeUrls.LISTENER).get(0).getSystemVersionInfo();
    assertThat(status.sentVersions()).containsExactly(Map.entry(TypeUrls.LISTENER, viewVersion));
    assertThat(status.ackedVersions()).containsEntry(TypeUrls.LISTENER, viewVersion);
    assertThat(viewVersion).isNotEqualTo(whole.version());
  }

  /** The name of the secret gateway B's proxy is served when it asks for it: what A then asks for by name. */
  private String servedToB() {
    MtlsAdsClient b = client(ProxyCertificates.client(CA, "CN=" + PROXY_B));
    b.ask(TypeUrls.SECRET, "secret-b");
    List<String> served = names(first(b, TypeUrls.SECRET));
    assertThat(served).containsExactly("secret-b");
    return served.get(0);
  }

  private MtlsAdsClient proxyA() {
    return client(ProxyCertificates.client(CA, "CN=ignored-when-spiffe",
        "https://example.com/not-spiffe", "spiffe://holdfast.local/proxy/" + PROXY_A));
  }

  private MtlsAdsClient client(TestPki.Issued identity) {
    return track(new MtlsAdsClient(server.port(), CA.certificate(), identity));
  }

  private static DiscoveryResponse first(MtlsAdsClient client, String typeUrl) {
    await().atMost(WAIT).until(() -> !client.sotwResponses(typeUrl).isEmpty() || client.sotwFailure().isPresent());
    assertThat(client.sotwFailure()).isEmpty();
    return client.sotwResponses(typeUrl).get(0);
  }

  private static List<String> names(DiscoveryResponse response) {
    return response.getResourcesList().stream().map(ProxyAuthorisationTest::nameOf).toList();
  }

  private static Set<String> deltaNames(MtlsAdsClient client, String typeUrl) {
    Set<String> names = new TreeSet<>();
    for (DeltaDiscoveryResponse response : client.deltaResponses(typeUrl)) {
      response.getResourcesList().forEach(r -> names.add(r.getName()));
    }
    return names;
  }

  private static String nameOf(Any any) {
    try {
      return Resources.getResourceName(any);
    } catch (RuntimeException e) {
      throw new AssertionError(e);
    }
  }

  private double refused(String type) {
    return meters.get("holdfast.xds.refused.resources").tag("type", type).counter().count();
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.push(closeable);
    return closeable;
  }

  /**
   * Gateway A (proxy {@code shop/web}) and B ({@code payments}) with a cluster each, one shared cluster and a
   * secret each; {@code generation} changes B's secret only.
   */
  static XdsSnapshot twoGateways(int generation) {
    Map<String, Map<String, Message>> resources = new TreeMap<>();
    put(resources, listener("listener-a", 1000), listener("listener-b", 1001),
        route("routes-a", "upstream-a"), route("routes-b", "upstream-b"),
        edsCluster("upstream-a"), edsCluster("upstream-b"), edsCluster("shared"),
        endpoints("upstream-a", 2000), endpoints("upstream-b", 2001), endpoints("shared", 2002),
        secret("secret-a", "key-a"), secret("secret-b", "key-b-" + generation));
    ProxyScopes scopes = ProxyScopes.of(Map.of(
        PROXY_A, scope("listener-a", "routes-a", List.of("upstream-a", "shared"), "secret-a"),
        PROXY_B, scope("listener-b", "routes-b", List.of("upstream-b", "shared"), "secret-b")));
    return XdsSnapshot.of(resources, scopes);
  }

  private static ProxyScopes.Scope scope(String listener, String routes, List<String> clusters, String secret) {
    return new ProxyScopes.Scope(new TreeMap<>(Map.of(
        TypeUrls.LISTENER, new TreeSet<>(Set.of(listener)),
        TypeUrls.ROUTE, new TreeSet<>(Set.of(routes)),
        TypeUrls.CLUSTER, new TreeSet<>(clusters),
        TypeUrls.ENDPOINT, new TreeSet<>(clusters),
        TypeUrls.SECRET, new TreeSet<>(Set.of(secret)))));
  }

  private static void put(Map<String, Map<String, Message>> resources, Message... messages) {
    for (Message message : messages) {
      resources.computeIfAbsent(Any.pack(message).getTypeUrl(), t -> new TreeMap<>())
          .put(Resources.getResourceName(message), message);
    }
  }

  static Secret secret(String name, String key) {
    return Secret.newBuilder().setName(name).setTlsCertificate(TlsCertificate.newBuilder()
        .setCertificateChain(DataSource.newBuilder().setInlineString("chain of " + name))
        .setPrivateKey(DataSource.newBuilder().setInlineString(key))).build();
  }
}
