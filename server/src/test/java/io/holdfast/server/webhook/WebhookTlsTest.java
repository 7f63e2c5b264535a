package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.GatewayConfig;
import io.holdfast.xds.server.XdsTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The webhook's certificate: it may arrive after the start, and a replaced one is served without a restart. */
class WebhookTlsTest {

  private static final Duration RELOAD = Duration.ofMillis(100);

  @TempDir
  Path dir;

  @Test
  void missingFilesDoNotFailTheStartAndAreServedOnceTheyAppear() throws Exception {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    try (AdmissionWebhook webhook = start(cert, key)) {
      assertThat(webhook.tlsLoaded()).isFalse();
      // Another CA's client would fail too; what matters is that no handshake succeeds before the files exist.
      Path elsewhere = Files.createDirectories(dir.resolve("other"));
      HttpClient early = client(WebhookFixture.writeServerCertificate(elsewhere.resolve("c"), elsewhere.resolve("k"),
          false));
      assertThatThrownBy(() -> get(early, webhook)).isInstanceOf(SSLHandshakeException.class);

      X509Certificate ca = WebhookFixture.writeServerCertificate(cert, key, false);

      HttpClient client = client(ca);
      await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(IOException.class).untilAsserted(() -> assertThat(get(client, webhook)).isEqualTo(405));
      assertThat(webhook.tlsLoaded()).isTrue();
    }
  }

  @Test
  void aReplacedCertificateIsServedWithoutARestart() throws Exception {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    X509Certificate first = WebhookFixture.writeServerCertificate(cert, key, false);
    try (AdmissionWebhook webhook = start(cert, key)) {
      assertThat(get(client(first), webhook)).isEqualTo(405);

      // cert-manager writes RSA keys as PKCS#1 unless told otherwise: the rotation brings one.
      X509Certificate second = WebhookFixture.writeServerCertificate(cert, key, true);

      HttpClient client = client(second);
      await().atMost(Duration.ofSeconds(10)).ignoreExceptionsInstanceOf(IOException.class).untilAsserted(() -> assertThat(get(client, webhook)).isEqualTo(405));
    }
  }

  private static AdmissionWebhook start(Path cert, Path key) throws IOException {
    return AdmissionWebhook.builder(new InetSocketAddress("127.0.0.1", 0),
        XdsTls.serverOnly(cert, key).withReloadInterval(RELOAD), () -> Optional.<GatewayConfig>empty()).start();
  }

  /** A GET of the webhook path: 405 once TLS works (the path only answers POST). */
  private static int get(HttpClient client, AdmissionWebhook webhook) throws IOException, InterruptedException {
    return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + webhook.port() + "/validate"))
        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** A new client per trust: no TLS session from one certificate is resumed under the other. */
  private static HttpClient client(X509Certificate ca) {
    return WebhookFixture.client(WebhookFixture.trusting(ca));
  }
}
