package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import io.holdfast.server.http.SlowClients;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 24: slow TLS clients must not starve the webhook's reviews; TLS 1.2 only with AEAD suites. */
class WebhookSlowClientTest {
  private static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: echo, namespace: demo}
      spec:
        static:
          hosts: [{address: 127.0.0.1, port: 9101}]
      """;
  /** A TLS record header announcing a ClientHello whose body never comes. */
  private static final byte[] PARTIAL_CLIENT_HELLO = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01};
  /** Far under the API server's default webhook timeout of 10 s. */
  private static final Duration REVIEW_BOUND = Duration.ofSeconds(2);
  private static final int REVIEWS = 20;

  @TempDir
  Path dir;
  private final List<AutoCloseable> opened = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable closeable : opened) {
      closeable.close();
    }
  }

  private WebhookFixture start(UnaryOperator<AdmissionWebhook.Builder> options) throws IOException {
    Path own = Files.createDirectories(dir.resolve("tls-" + opened.size()));
    WebhookFixture fixture = WebhookFixture.start(own, options);
    opened.add(fixture);
    fixture.viewOf(UPSTREAM);
    return fixture;
  }

  /** Half stall before the handshake, half after it with partial headers. */
  private void stall(WebhookFixture webhook, int count) throws IOException {
    opened.add(SlowClients.open(webhook.webhook.port(), count / 2, PARTIAL_CLIENT_HELLO));
    for (int i = 0; i < count - count / 2; i++) {
      SSLSocket socket = webhook.rawSocket();
      opened.add(socket);
      socket.getOutputStream().write(("POST " + AdmissionWebhook.PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
    }
  }

  private static void assertReviewsAnswered(WebhookFixture webhook) throws Exception {
    for (int i = 0; i < REVIEWS; i++) {
      long started = System.nanoTime();
      assertThat(webhook.review(WebhookFixture.create("slow-" + i, UPSTREAM)).get("allowed").asBoolean()).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - started)).as("review %d", i).isLessThan(REVIEW_BOUND);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8})
  void slowTlsClientsLeaveEveryReviewAnswered(int slow) throws Exception {
    WebhookFixture webhook = start(b -> b);
    stall(webhook, slow);
    assertReviewsAnswered(webhook);
  }

  @Test
  void slowClientsBeyondTheWorkersAreCutAfterTheHeaderTimeout() throws Exception {
    WebhookFixture webhook = start(b -> b.threads(1).connectionThreads(2).headerTimeout(Duration.ofMillis(300)));
    try (SlowClients loris = SlowClients.open(webhook.webhook.port(), 6, PARTIAL_CLIENT_HELLO)) {
      await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50))
          .until(() -> loris.closedByServer() == 6);
      assertReviewsAnswered(webhook);
    }
  }

  @Test
  void tls12OffersOnlyAeadSuites() throws Exception {
    WebhookFixture webhook = start(b -> b);
    try (SSLSocket cbc = (SSLSocket) webhook.clientTls.getSocketFactory().createSocket("127.0.0.1",
        webhook.webhook.port())) {
      cbc.setSoTimeout(5_000);
      cbc.setEnabledProtocols(new String[] {"TLSv1.2"});
      cbc.setEnabledCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
          "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"});
      assertThatExceptionOfType(SSLHandshakeException.class).isThrownBy(cbc::startHandshake);
    }
    try (SSLSocket gcm = (SSLSocket) webhook.clientTls.getSocketFactory().createSocket("127.0.0.1",
        webhook.webhook.port())) {
      gcm.setSoTimeout(5_000);
      gcm.setEnabledProtocols(new String[] {"TLSv1.2"});
      gcm.setEnabledCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"});
      gcm.startHandshake();
      assertThat(gcm.getSession().getProtocol()).isEqualTo("TLSv1.2");
      assertThat(gcm.getSession().getCipherSuite()).contains("_GCM_");
    }
    try (SSLSocket tls13 = webhook.rawSocket()) {
      assertThat(tls13.getSession().getProtocol()).isEqualTo("TLSv1.3");
    }
  }

  @Test
  void theAeadFilterKeepsTls13AndEcdheAeadSuitesOnly() {
    assertThat(WebhookCiphers.aeadOnly(new String[] {"TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_GCM_SHA256", "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384"}))
        .containsExactly("TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256");
  }
}
