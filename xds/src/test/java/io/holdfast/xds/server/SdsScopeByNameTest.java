package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CertificateValidationContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.GenericSecret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-proxy scoping of SDS over real mutual TLS, proved by asking BY NAME: proxy {@code payments} is served its
 * TLS certificate, validation context and generic (OAuth2-style) secret; proxy {@code shop} then asks for exactly
 * those names, taken from what {@code payments} was served, and is sent none of them, over ADS (on the stream
 * that also carries its listeners and clusters, as Envoy's {@code sds_config: {ads: {}}} does) and over the
 * standalone SecretDiscoveryService, SotW and delta; the stream stays usable for its own names afterwards.
 *
 * <p>A SotW Secret request without names asks for nothing (only LDS and CDS read an empty list as wildcard), so
 * such a request proves nothing about scoping: {@link #anUnnamedSecretRequestYieldsNothingEvenOfTheProxysOwn}
 * documents that on its own. An explicit {@code "*"} is a real wildcard and is checked as one.
 */
class SdsScopeByNameTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final TestPki.Issued CA = TestPki.ca("holdfast xDS CA");
  private static final String SHOP = "shop";
  private static final String PAYMENTS = "payments";
  private static final List<String> SHOP_SECRETS = List.of("secret/shop/tls", "secret/shop/ca", "oauth2/shop/hmac");
  private static final List<String> PAYMENTS_SECRETS =
      List.of("secret/payments/tls", "secret/payments/ca", "oauth2/payments/hmac");

  @TempDir
  Path dir;

  private final XdsCache cache = new XdsCache();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private XdsServer server;

  @BeforeEach
  void serve() {
    cache.setSnapshot(twoProxies());
    server = track(ProxyIdentityServer.start(CA, cache, dir, meters, nack -> { })).server();
  }

  @AfterEach
  void tearDown() throws Exception {
    while (!open.isEmpty()) {
      open.pop().close();
    }
  }

  @Test
  void sotwOverAdsAskedByNameServesNoneOfAnotherProxysSecrets() {
    List<String> paymentsNames = servedSotw(ads(PAYMENTS), PAYMENTS_SECRETS);

    MtlsAdsClient shop = ads(SHOP);
    shop.ask(TypeUrls.LISTENER);
    shop.ask(TypeUrls.CLUSTER);
    shop.ask(TypeUrls.SECRET, paymentsNames.toArray(String[]::new));
    DiscoveryResponse refused = first(shop, TypeUrls.SECRET);
    assertThat(names(refused)).isEmpty();
    assertThat(refusedSecrets()).isEqualTo(paymentsNames.size());
    // The same ADS stream carries the proxy's own listeners and clusters.
    assertThat(names(first(shop, TypeUrls.LISTENER))).containsExactly("listener-shop");
    assertThat(names(first(shop, TypeUrls.CLUSTER))).containsExactly("upstream-shop");

    // Still usable: asked its own names beside the other proxy's, it is sent its own only.
    shop.askAfter(refused, Stream.concat(paymentsNames.stream(), SHOP_SECRETS.stream()).toArray(String[]::new));
    await().atMost(WAIT).until(() -> shop.sotwResponses(TypeUrls.SECRET).size() > 1);
    assertThat(shop.sotwFailure()).isEmpty();
    assertThat(names(shop.sotwResponses(TypeUrls.SECRET).get(1))).containsExactlyInAnyOrderElementsOf(SHOP_SECRETS);
  }

  @Test
  void deltaOverAdsSubscribedByNameServesNoneOfAnotherProxysSecrets() {
    assertDeltaByNameIsScoped(ads(PAYMENTS), ads(SHOP));
  }

  @Test
  void theStandaloneSecretServiceAskedByNameServesNoneOfAnotherProxysSecrets() {
    List<String> paymentsNames = servedSotw(sds(PAYMENTS), PAYMENTS_SECRETS);
    MtlsAdsClient shop = sds(SHOP);
    shop.ask(TypeUrls.SECRET, paymentsNames.toArray(String[]::new));
    DiscoveryResponse refused = first(shop, TypeUrls.SECRET);
    assertThat(names(refused)).isEmpty();
    shop.askAfter(refused, SHOP_SECRETS.toArray(String[]::new));
    await().atMost(WAIT).until(() -> shop.sotwResponses(TypeUrls.SECRET).size() > 1);
    assertThat(names(shop.sotwResponses(TypeUrls.SECRET).get(1))).containsExactlyInAnyOrderElementsOf(SHOP_SECRETS);
    assertThat(shop.sotwFailure()).isEmpty();

    assertDeltaByNameIsScoped(sds(PAYMENTS), sds(SHOP));
  }

  @Test
  void anExplicitWildcardServesOnlyTheProxysOwnSecrets() {
    MtlsAdsClient shop = ads(SHOP);
    shop.ask(TypeUrls.SECRET, "*");
    assertThat(names(first(shop, TypeUrls.SECRET))).containsExactlyInAnyOrderElementsOf(SHOP_SECRETS);

    shop.subscribe(TypeUrls.SECRET, "*");
    await().atMost(WAIT).until(() -> !shop.deltaResponses(TypeUrls.SECRET).isEmpty());
    assertThat(shop.deltaFailure()).isEmpty();
    assertThat(deltaNames(shop)).containsExactlyInAnyOrderElementsOf(SHOP_SECRETS);
  }

  /** Not a scoping proof: a SotW Secret request without names asks for nothing, for every proxy. */
  @Test
  void anUnnamedSecretRequestYieldsNothingEvenOfTheProxysOwn() {
    MtlsAdsClient shop = ads(SHOP);
    shop.ask(TypeUrls.SECRET);
    assertThat(names(first(shop, TypeUrls.SECRET))).isEmpty();
  }

  /**
   * {@code owner} subscribes to its secrets by name; {@code other} then subscribes to exactly the names
   * {@code owner} was sent: none comes back (they are answered as removed, like names that do not exist), and
   * its own names, subscribed afterwards on the same stream, do.
   */
  private void assertDeltaByNameIsScoped(MtlsAdsClient owner, MtlsAdsClient other) {
    owner.subscribe(TypeUrls.SECRET, PAYMENTS_SECRETS.toArray(String[]::new));
    await().atMost(WAIT).until(() -> deltaNames(owner).size() == PAYMENTS_SECRETS.size()
        || owner.deltaFailure().isPresent());
    assertThat(owner.deltaFailure()).isEmpty();
    Set<String> ownerNames = deltaNames(owner);
    assertThat(ownerNames).containsExactlyInAnyOrderElementsOf(PAYMENTS_SECRETS);

    other.subscribe(TypeUrls.SECRET, ownerNames.toArray(String[]::new));
    await().atMost(WAIT).until(() -> !other.deltaResponses(TypeUrls.SECRET).isEmpty()
        || other.deltaFailure().isPresent());
    assertThat(other.deltaFailure()).isEmpty();
    DeltaDiscoveryResponse answer = other.deltaResponses(TypeUrls.SECRET).get(0);
    assertThat(answer.getResourcesList()).isEmpty();
    assertThat(answer.getRemovedResourcesList()).containsExactlyInAnyOrderElementsOf(ownerNames);

    other.subscribe(TypeUrls.SECRET, SHOP_SECRETS.toArray(String[]::new));
    await().atMost(WAIT).until(() -> deltaNames(other).size() >= SHOP_SECRETS.size()
        || other.deltaFailure().isPresent());
    assertThat(other.deltaFailure()).isEmpty();
    assertThat(deltaNames(other)).containsExactlyInAnyOrderElementsOf(SHOP_SECRETS);
  }

  /** Asks {@code client} for {@code names} over SotW; returns the names it was served, checked to be all. */
  private static List<String> servedSotw(MtlsAdsClient client, List<String> names) {
    client.ask(TypeUrls.SECRET, names.toArray(String[]::new));
    DiscoveryResponse response = first(client, TypeUrls.SECRET);
    assertThat(response.getResourcesList()).extracting(SdsScopeByNameTest::kind)
        .containsExactlyInAnyOrder(Secret.TypeCase.TLS_CERTIFICATE, Secret.TypeCase.VALIDATION_CONTEXT,
            Secret.TypeCase.GENERIC_SECRET);
    List<String> served = names(response);
    assertThat(served).containsExactlyInAnyOrderElementsOf(names);
    return served;
  }

  private MtlsAdsClient ads(String proxy) {
    return track(new MtlsAdsClient(server.port(), CA.certificate(), identity(proxy)));
  }

  private MtlsAdsClient sds(String proxy) {
    return track(MtlsAdsClient.secretsOnly(server.port(), CA.certificate(), identity(proxy)));
  }

  private static TestPki.Issued identity(String proxy) {
    return ProxyCertificates.client(CA, "CN=" + proxy, "spiffe://holdfast.local/proxy/" + proxy);
  }

  private static DiscoveryResponse first(MtlsAdsClient client, String typeUrl) {
    await().atMost(WAIT).until(() -> !client.sotwResponses(typeUrl).isEmpty() || client.sotwFailure().isPresent());
    assertThat(client.sotwFailure()).isEmpty();
    return client.sotwResponses(typeUrl).get(0);
  }

  private static List<String> names(DiscoveryResponse response) {
    return response.getResourcesList().stream().map(Resources::getResourceName).toList();
  }

  private static Set<String> deltaNames(MtlsAdsClient client) {
    Set<String> names = new TreeSet<>();
    client.deltaResponses(TypeUrls.SECRET).forEach(r -> r.getResourcesList().forEach(x -> names.add(x.getName())));
    return names;
  }

  private static Secret.TypeCase kind(Any any) {
    try {
      return any.unpack(Secret.class).getTypeCase();
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  private double refusedSecrets() {
    return meters.get(XdsMetrics.REFUSED_RESOURCES).tag("type", "Secret").counter().count();
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.push(closeable);
    return closeable;
  }

  /** Proxies shop and payments, each with a listener, a cluster and one secret of each SDS kind. */
  private static XdsSnapshot twoProxies() {
    Map<String, Map<String, Message>> resources = new TreeMap<>();
    put(resources, Fixtures.listener("listener-shop", 1000), Fixtures.listener("listener-payments", 1001),
        Fixtures.edsCluster("upstream-shop"), Fixtures.edsCluster("upstream-payments"));
    for (List<String> names : List.of(SHOP_SECRETS, PAYMENTS_SECRETS)) {
      put(resources, ProxyAuthorisationTest.secret(names.get(0), "key of " + names.get(0)),
          Secret.newBuilder().setName(names.get(1)).setValidationContext(CertificateValidationContext.newBuilder()
              .setTrustedCa(DataSource.newBuilder().setInlineString("ca of " + names.get(1)))).build(),
          Secret.newBuilder().setName(names.get(2)).setGenericSecret(GenericSecret.newBuilder()
              .setSecret(DataSource.newBuilder().setInlineString("hmac of " + names.get(2)))).build());
    }
    return XdsSnapshot.of(resources, ProxyScopes.of(Map.of(
        SHOP, scope("listener-shop", "upstream-shop", SHOP_SECRETS),
        PAYMENTS, scope("listener-payments", "upstream-payments", PAYMENTS_SECRETS))));
  }

  private static ProxyScopes.Scope scope(String listener, String cluster, List<String> secrets) {
    return new ProxyScopes.Scope(new TreeMap<>(Map.of(
        TypeUrls.LISTENER, new TreeSet<>(Set.of(listener)),
        TypeUrls.CLUSTER, new TreeSet<>(Set.of(cluster)),
        TypeUrls.SECRET, new TreeSet<>(secrets))));
  }

  private static void put(Map<String, Map<String, Message>> resources, Message... messages) {
    for (Message message : messages) {
      resources.computeIfAbsent(Any.pack(message).getTypeUrl(), t -> new TreeMap<>())
          .put(Resources.getResourceName(message), message);
    }
  }
}
