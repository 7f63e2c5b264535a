package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.InvalidProtocolBufferException;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.pki.Pem;
import io.holdfast.pki.TestCertificates;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translator;
import java.net.InetAddress;
import java.net.Socket;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.StandardConstants;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Certificates through SDS end to end: an HTTPS config is lowered and translated, the xDS server serves it over
 * ADS, and a JDK TLS server built only from what a client received (the listener's chains and the Secret resources
 * they name) presents, per SNI, the certificate Envoy would: a JDK client asking for a.test gets A, b.test gets B,
 * anything else the default chain's, each chain verified against the test CA. All on 127.0.0.1, port 0.
 */
class SdsHandshakeTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final TestCertificates.Issued CA = TestCertificates.ca("sds test CA");
  private static final TestCertificates.Issued A = TestCertificates.leaf(CA, "a", "a.test");
  private static final TestCertificates.Issued B = TestCertificates.leaf(CA, "b", "b.test");
  private static final TestCertificates.Issued OTHER = TestCertificates.leaf(CA, "other", "other.test");
  private static final String SDS = TypeUrls.SECRET;

  private final ServerHarness harness = new ServerHarness();
  private final ExecutorService executor = Executors.newSingleThreadExecutor();

  @AfterEach
  void tearDown() {
    executor.shutdownNow();
    harness.close();
  }

  private static String vs(String name, String domain, String secret) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s}
        spec:
          domains: [%s]
          routes: [{match: {prefix: /}, route: {upstream: up}}]
          sslConfig: {secretRef: {name: %s}}
        """.formatted(name, domain, secret);
  }

  private static TlsSecretData tls(TestCertificates.Issued leaf, String key) {
    return new TlsSecretData(new TreeMap<>(Map.of(TlsSecretData.TLS_CRT, leaf.certificatePem() + CA.certificatePem(),
        TlsSecretData.TLS_KEY, key)));
  }

  /** A config with certificates for a.test (given), b.test and a default chain, lowered and translated. */
  private static XdsSnapshot translated(TlsSecretData a) {
    GatewayConfig config = TestManifests.config(TestManifests.upstream("up", 9101), vs("a", "a.test", "a-tls"),
        vs("b", "b.test", "b-tls"), vs("other", "\"*\"", "other-tls"), """
            apiVersion: gateway.holdfast.io/v1
            kind: Gateway
            metadata: {name: https}
            spec: {port: 8443, ssl: true}
            """).toBuilder()
        .secret(TlsSecretData.secretKey("default", "a-tls"), a)
        .secret(TlsSecretData.secretKey("default", "b-tls"), tls(B, B.privateKeyPem()))
        .secret(TlsSecretData.secretKey("default", "other-tls"), tls(OTHER, OTHER.privateKeyPem()))
        .build();
    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd().lower(config, builder);
    return EnvoyConstraints.checked(new Translator().translate(builder.build().ir())).snapshot();
  }

  @Test
  void aJdkServerBuiltFromTheServedSecretsPresentsTheCertificateOfEachServerName() throws Exception {
    harness.cache.setSnapshot(translated(tls(A, A.traditionalPrivateKeyPem())));
    try (AdsTestClient client = AdsTestClient.ads(harness.port(), "envoy-1")) {
      client.subscribe(Fixtures.LDS);
      await().atMost(WAIT).until(() -> !client.responses(Fixtures.LDS).isEmpty());
      Listener listener = client.responses(Fixtures.LDS).get(0).getResourcesList().stream()
          .map(any -> unpack(any, Listener.class)).filter(l -> l.getName().equals("gateway/default/https"))
          .findFirst().orElseThrow();
      List<String> secretNames = listener.getFilterChainsList().stream().map(SdsHandshakeTest::certificateName)
          .toList();
      assertThat(secretNames).containsExactly("secret/default/a-tls", "secret/default/b-tls",
          "secret/default/other-tls");
      client.subscribe(SDS, secretNames.toArray(String[]::new));
      await().atMost(WAIT).until(() -> !client.responses(SDS).isEmpty());
      Map<String, Secret> secrets = new TreeMap<>();
      client.responses(SDS).get(0).getResourcesList()
          .forEach(any -> secrets.put(unpack(any, Secret.class).getName(), unpack(any, Secret.class)));
      assertThat(secrets).containsOnlyKeys(secretNames);

      SniKeyManager keys = new SniKeyManager(listener, secrets);
      assertThat(handshake(keys, "a.test")).isEqualTo(List.of(A.certificate(), CA.certificate()));
      assertThat(handshake(keys, "b.test")).isEqualTo(List.of(B.certificate(), CA.certificate()));
      assertThat(handshake(keys, "other.test").get(0)).isEqualTo(OTHER.certificate());
    }
  }

  @Test
  void secretsAreServedOverDeltaAndARotationIsANewSecretVersionWithTheListenerUnchanged() {
    XdsSnapshot first = translated(tls(A, A.privateKeyPem()));
    TestCertificates.Issued renewed = TestCertificates.leaf(CA, "a renewed", "a.test");
    XdsSnapshot rotated = translated(tls(renewed, renewed.privateKeyPem()));
    assertThat(rotated.ofType(Fixtures.LDS)).isEqualTo(first.ofType(Fixtures.LDS));
    assertThat(rotated.ofType(Fixtures.RDS)).isEqualTo(first.ofType(Fixtures.RDS));

    harness.cache.setSnapshot(first);
    try (DeltaTestClient client = new DeltaTestClient(harness.port(), "envoy-delta");
        AdsTestClient sotw = AdsTestClient.ads(harness.port(), "envoy-sotw")) {
      client.subscribe(SDS, List.of("secret/default/a-tls", "secret/default/b-tls"), Map.of());
      sotw.subscribe(Fixtures.LDS);
      sotw.subscribe(SDS, "secret/default/a-tls");
      await().atMost(WAIT).until(() -> client.responses(SDS).size() == 1 && sotw.responses(SDS).size() == 1
          && sotw.responses(Fixtures.LDS).size() == 1);
      assertThat(DeltaTestClient.names(client.responses(SDS).get(0)))
          .containsExactly("secret/default/a-tls", "secret/default/b-tls");

      harness.cache.setSnapshot(rotated);
      await().atMost(WAIT).until(() -> client.responses(SDS).size() == 2 && sotw.responses(SDS).size() == 2);
      DeltaDiscoveryResponse delta = client.responses(SDS).get(1);
      assertThat(DeltaDiscoveryResponse.class.cast(delta).getResourcesList()).singleElement().satisfies(r -> {
        assertThat(r.getName()).isEqualTo("secret/default/a-tls");
        assertThat(firstCertificate(unpack(r.getResource(), Secret.class))).isEqualTo(renewed.certificate());
      });
      DiscoveryResponse state = sotw.responses(SDS).get(1);
      assertThat(firstCertificate(unpack(state.getResources(0), Secret.class))).isEqualTo(renewed.certificate());
      // The listener did not change, so nothing was pushed for it.
      assertThat(sotw.responses(Fixtures.LDS)).hasSize(1);
    }
  }

  private static X509Certificate firstCertificate(Secret secret) {
    return Pem.certificates(secret.getTlsCertificate().getCertificateChain().getInlineString()).get(0);
  }

  private static String certificateName(FilterChain chain) {
    DownstreamTlsContext context = unpack(chain.getTransportSocket().getTypedConfig(), DownstreamTlsContext.class);
    return context.getCommonTlsContext().getTlsCertificateSdsSecretConfigs(0).getName();
  }

  private static <T extends com.google.protobuf.Message> T unpack(com.google.protobuf.Any any, Class<T> type) {
    try {
      return any.unpack(type);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Connects with SNI {@code serverName} to a server using {@code keys}; the chain the client verified. */
  private List<X509Certificate> handshake(SniKeyManager keys, String serverName) throws Exception {
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(new javax.net.ssl.KeyManager[] {keys}, null, null);
    try (SSLServerSocket server = (SSLServerSocket) serverContext.getServerSocketFactory()
        .createServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Future<?> accepted = executor.submit(() -> {
        try (SSLSocket socket = (SSLSocket) server.accept()) {
          socket.startHandshake();
          socket.getOutputStream().write(1);
          socket.getOutputStream().flush();
        }
        return null;
      });
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      trust.setCertificateEntry("ca", CA.certificate());
      TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trustManagers.init(trust);
      SSLContext clientContext = SSLContext.getInstance("TLS");
      clientContext.init(null, trustManagers.getTrustManagers(), null);
      try (SSLSocket socket = (SSLSocket) clientContext.getSocketFactory()
          .createSocket(InetAddress.getByName("127.0.0.1"), server.getLocalPort())) {
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the chain and the name, checked by the JDK
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        assertThat(socket.getInputStream().read()).isEqualTo(1);
        List<X509Certificate> chain = new ArrayList<>();
        for (var certificate : socket.getSession().getPeerCertificates()) {
          chain.add((X509Certificate) certificate);
        }
        accepted.get(10, TimeUnit.SECONDS);
        return chain;
      }
    }
  }

  /**
   * Chooses the certificate as Envoy chooses the filter chain: the chain whose server names hold the requested SNI
   * name, else the chain without server names. Keys and chains come from the served Secret resources only.
   */
  private static final class SniKeyManager extends X509ExtendedKeyManager {
    private final Map<String, String> secretByServerName = new TreeMap<>();
    private String defaultSecret;
    private final Map<String, X509Certificate[]> chains = new TreeMap<>();
    private final Map<String, PrivateKey> keys = new TreeMap<>();

    SniKeyManager(Listener listener, Map<String, Secret> secrets) {
      for (FilterChain chain : listener.getFilterChainsList()) {
        String secret = certificateName(chain);
        if (chain.getFilterChainMatch().getServerNamesCount() == 0) {
          defaultSecret = secret;
        }
        chain.getFilterChainMatch().getServerNamesList().forEach(name -> secretByServerName.put(name, secret));
      }
      secrets.forEach((name, secret) -> {
        chains.put(name, Pem.certificates(secret.getTlsCertificate().getCertificateChain().getInlineString())
            .toArray(X509Certificate[]::new));
        keys.put(name, Pem.privateKey(secret.getTlsCertificate().getPrivateKey().getInlineString()));
      });
    }

    private String choose(Optional<String> serverName) {
      return serverName.map(secretByServerName::get).orElse(defaultSecret);
    }

    private static Optional<String> requested(javax.net.ssl.SSLSession session) {
      if (!(session instanceof ExtendedSSLSession extended)) {
        return Optional.empty();
      }
      return extended.getRequestedServerNames().stream().filter(n -> n.getType() == StandardConstants.SNI_HOST_NAME)
          .map(SNIServerName::getEncoded).map(bytes -> new String(bytes, java.nio.charset.StandardCharsets.US_ASCII))
          .findFirst();
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      String alias = choose(requested(((SSLSocket) socket).getHandshakeSession()));
      return keys.get(alias).getAlgorithm().equals(keyType) ? alias : null;
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      String alias = choose(requested(engine.getHandshakeSession()));
      return keys.get(alias).getAlgorithm().equals(keyType) ? alias : null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return chains.get(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return keys.get(alias);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return keys.keySet().toArray(String[]::new);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return new String[0];
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return null;
    }
  }
}
