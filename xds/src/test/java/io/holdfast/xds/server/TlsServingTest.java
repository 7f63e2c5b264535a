package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * xDS over TLS and mutual TLS on 127.0.0.1 with real gRPC: who is served, who is refused, and certificate
 * rotation without a server restart. Reloads are driven by {@link ReloadingTls#reloadNow()}; the periodic
 * schedule is {@link ReloadingTlsTest}'s concern.
 */
class TlsServingTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final TestPki.Issued CA = TestPki.ca("holdfast xDS CA");
  private static final TestPki.Issued OTHER_CA = TestPki.ca("some other CA");

  @TempDir
  Path dir;

  private final XdsCache cache = new XdsCache();
  private final Deque<AutoCloseable> open = new ArrayDeque<>();
  private ReloadingTls tls;
  private XdsServer server;

  @AfterEach
  void tearDown() throws Exception {
    while (!open.isEmpty()) {
      open.pop().close();
    }
  }

  private Path cert() {
    return dir.resolve("tls.crt");
  }

  private Path key() {
    return dir.resolve("tls.key");
  }

  private Path clientCa() {
    return dir.resolve("client-ca.crt");
  }

  private void serve(XdsTls settings) {
    cache.setSnapshot(snapshot(listener("l1", 1000)));
    tls = track(ReloadingTls.builder(settings.withReloadInterval(Duration.ofHours(1))).start());
    server = track(XdsServer.builder(cache,
            XdsServerSettings.on("127.0.0.1", 0).withDrainTimeout(Duration.ofSeconds(1)), new SimpleMeterRegistry())
        .credentials(tls.credentials())
        .start());
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.push(closeable);
    return closeable;
  }

  private TlsAdsClient client(List<X509Certificate> trusted) {
    return track(TlsAdsClient.connect(server.port(), trusted));
  }

  private TlsAdsClient client(List<X509Certificate> trusted, TestPki.Issued identity) {
    return track(TlsAdsClient.connect(server.port(), trusted, identity));
  }

  private static void assertServed(TlsAdsClient client) {
    await().atMost(WAIT).until(() -> !client.responses().isEmpty() || client.failure().isPresent());
    assertThat(client.failure()).isEmpty();
    assertThat(client.responses().get(0).getTypeUrl()).isEqualTo(TypeUrls.LISTENER);
    assertThat(client.responses().get(0).getResourcesCount()).isEqualTo(1);
  }

  private static void assertRefused(TlsAdsClient client) {
    await().atMost(WAIT).until(() -> client.failure().isPresent());
    assertThat(client.failure().orElseThrow().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(client.failedInTls()).as("failed in the TLS handshake: %s", client.failure()).isTrue();
    assertThat(client.responses()).isEmpty();
  }

  private TestPki.Issued serverCertificate(TestPki.Issued issuer) {
    TestPki.Issued leaf = TestPki.leaf(issuer, "xds-server");
    leaf.write(cert(), key());
    return leaf;
  }

  @Test
  void tlsClientTrustingTheCaIsServed() {
    TestPki.Issued leaf = serverCertificate(CA);
    serve(XdsTls.serverOnly(cert(), key()));

    TlsAdsClient client = client(List.of(CA.certificate()));

    assertServed(client);
    assertThat(client.serverCertificate()).contains(leaf.certificate());
  }

  @Test
  void tlsClientNotTrustingTheCaFailsTheHandshake() {
    TestPki.Issued leaf = serverCertificate(CA);
    serve(XdsTls.serverOnly(cert(), key()));

    TlsAdsClient client = client(List.of(OTHER_CA.certificate()));

    assertRefused(client);
    // It got as far as seeing the server's certificate and turned it down.
    assertThat(client.serverCertificate()).contains(leaf.certificate());
  }

  @Test
  void mtlsServesAClientWithACertificateFromTheClientCa() {
    serverCertificate(CA);
    TestPki.writeString(clientCa(), CA.certificatePem());
    serve(XdsTls.mutual(cert(), key(), clientCa()));

    assertServed(client(List.of(CA.certificate()), TestPki.leaf(CA, "envoy-1")));
  }

  @Test
  void mtlsRefusesAClientWithoutACertificate() {
    serverCertificate(CA);
    TestPki.writeString(clientCa(), CA.certificatePem());
    serve(XdsTls.mutual(cert(), key(), clientCa()));

    assertRefused(client(List.of(CA.certificate())));
    assertServed(client(List.of(CA.certificate()), TestPki.leaf(CA, "envoy-1")));
  }

  @Test
  void mtlsRefusesAClientCertificateFromAnotherCa() {
    serverCertificate(CA);
    TestPki.writeString(clientCa(), CA.certificatePem());
    serve(XdsTls.mutual(cert(), key(), clientCa()));

    assertRefused(client(List.of(CA.certificate()), TestPki.leaf(OTHER_CA, "intruder")));
    assertThat(server.connectedStreams()).isEmpty();
  }

  @Test
  void rotatedServerCertificateIsPresentedToNewConnectionsWhileOpenStreamsContinue() {
    TestPki.Issued first = serverCertificate(CA);
    serve(XdsTls.serverOnly(cert(), key()));
    List<X509Certificate> both = List.of(CA.certificate(), OTHER_CA.certificate());
    TlsAdsClient before = client(both);
    assertServed(before);
    assertThat(before.serverCertificate()).contains(first.certificate());

    TestPki.Issued second = serverCertificate(OTHER_CA);
    assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.RELOADED);

    TlsAdsClient after = client(both);
    assertServed(after);
    assertThat(after.serverCertificate().orElseThrow().getSerialNumber())
        .isEqualTo(second.serial())
        .isNotEqualTo(first.serial());
    // Proof the old certificate is gone for new handshakes: a client trusting only the old CA is now refused.
    assertRefused(client(List.of(CA.certificate())));
    // The stream opened before the rotation is not cut: it still gets updates.
    cache.setSnapshot(snapshot(listener("l1", 1001)));
    await().atMost(WAIT).until(() -> before.responses().size() >= 2);
    assertThat(before.failure()).isEmpty();
  }

  @Test
  void brokenReplacementKeepsTheOldCertificateServing() {
    TestPki.Issued first = serverCertificate(CA);
    serve(XdsTls.serverOnly(cert(), key()));

    TestPki.writeString(key(), "-----BEGIN PRIVATE KEY-----\ntruncat");
    assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.REJECTED);
    TlsAdsClient afterBadKey = client(List.of(CA.certificate()));
    assertServed(afterBadKey);
    assertThat(afterBadKey.serverCertificate()).contains(first.certificate());

    // A new certificate beside the old key (a half-done rotation) is refused too.
    TestPki.writeString(key(), first.privateKeyPem());
    TestPki.writeString(cert(), TestPki.leaf(CA, "xds-server").certificatePem());
    assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.REJECTED);
    TlsAdsClient afterMismatch = client(List.of(CA.certificate()));
    assertServed(afterMismatch);
    assertThat(afterMismatch.serverCertificate()).contains(first.certificate());
  }

  @Test
  void rotatedClientCaAdmitsClientsOfTheNewCa() {
    serverCertificate(CA);
    TestPki.writeString(clientCa(), CA.certificatePem());
    serve(XdsTls.mutual(cert(), key(), clientCa()));
    TestPki.Issued newcomer = TestPki.leaf(OTHER_CA, "envoy-2");
    assertRefused(client(List.of(CA.certificate()), newcomer));

    TestPki.writeString(clientCa(), CA.certificatePem() + OTHER_CA.certificatePem());
    assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.RELOADED);

    assertServed(client(List.of(CA.certificate()), newcomer));
  }
}
