package io.holdfast.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pki.Pem;
import io.holdfast.pki.TestCertificates;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * File mode with an HTTPS gateway, through the real server: a replaced PEM file is a new Secret while the listener
 * stays byte-identical; bad files keep the last good certificate served with a Rejected status; the private key
 * shows up nowhere in clear text (logs, /state, /metrics, the snapshot file); certificate expiry is reported.
 */
class TlsFileModeTest {

  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final String SECRET_NAME = "file/tls/a.crt";
  private static final ResourceKey VS = ResourceKey.virtualService("demo", "a");
  private static final TestCertificates.Issued CA = TestCertificates.ca("file mode test CA");

  @TempDir
  Path configDir;
  @TempDir
  Path snapshotDir;
  @TempDir
  Path keyDir;

  private HoldfastServer holdfast;
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

  @BeforeEach
  void start() throws IOException {
    Files.writeString(configDir.resolve("config.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: web, namespace: demo}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: a, namespace: demo}
        spec:
          domains: [a.test]
          routes: [{match: {prefix: /}, route: {upstream: web}}]
          sslConfig: {files: {certChain: tls/a.crt, privateKey: tls/a.key}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: https, namespace: demo}
        spec: {port: 10443, ssl: true, bindAddress: 127.0.0.1}
        """);
    Files.createDirectories(configDir.resolve("tls"));
    Path keyFile = keyDir.resolve("snapshot.key");
    Files.writeString(keyFile, Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'B'));
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    logs.start();
    root.addAppender(logs);
    holdfastWith(TestCertificates.leaf(CA, "a", "a.test"), keyFile);
  }

  private TestCertificates.Issued first;

  private void holdfastWith(TestCertificates.Issued leaf, Path keyFile) throws IOException {
    first = leaf;
    write(leaf.certificatePem() + CA.certificatePem(), leaf.traditionalPrivateKeyPem());
    holdfast = HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.of(snapshotDir), LogFormat.TEXT, Optional.empty(), Optional.empty(), ServeSettings.SINGLE_REPLICA,
        Optional.of(keyFile)), Clock.systemUTC());
    await().atMost(WAIT).until(() -> servedCertificate().map(c -> c.equals(leaf.certificate())).orElse(false));
  }

  @AfterEach
  void stop() {
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logs);
    if (holdfast != null) {
      holdfast.close();
    }
  }

  /** Replaces both files by rename, as a certificate tool would. */
  private void write(String chain, String key) throws IOException {
    replace(configDir.resolve("tls/a.key"), key);
    replace(configDir.resolve("tls/a.crt"), chain);
  }

  private static void replace(Path file, String text) throws IOException {
    Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.writeString(temp, text);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private XdsSnapshot snapshot() {
    return holdfast.cache().currentSnapshot().orElseThrow();
  }

  private Optional<X509Certificate> servedCertificate() {
    return holdfast.cache().currentSnapshot().map(s -> s.ofType(Resources.V3.SECRET_TYPE_URL).get(SECRET_NAME))
        .map(secret -> Pem.certificates(((Secret) secret).getTlsCertificate().getCertificateChain()
            .getInlineString()).get(0));
  }

  private Optional<ResourceStatus> status() {
    return holdfast.statusBoard().statusOf(VS);
  }

  private static String keyBody(TestCertificates.Issued issued) {
    String pem = issued.traditionalPrivateKeyPem();
    return pem.substring(pem.indexOf('\n') + 1, pem.indexOf('\n') + 41);
  }

  @Test
  void aReplacedPemFileIsANewSecretWhileTheListenerStaysByteIdentical() throws IOException {
    Message listener = snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).get("gateway/demo/https");
    String version = snapshot().version();

    TestCertificates.Issued renewed = TestCertificates.leaf(CA, "a renewed", "a.test");
    write(renewed.certificatePem() + CA.certificatePem(), renewed.traditionalPrivateKeyPem());

    await().atMost(WAIT).until(() -> servedCertificate().map(c -> c.equals(renewed.certificate())).orElse(false));
    assertThat(snapshot().version()).isNotEqualTo(version);
    assertThat(snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).get("gateway/demo/https").toByteString())
        .isEqualTo(listener.toByteString());
    assertThat(status().orElseThrow().state()).isEqualTo(ResourceStatus.State.ACCEPTED);
  }

  @Test
  void badFilesAreRejectedWhileTheLastGoodCertificateIsServed() throws IOException {
    replace(configDir.resolve("tls/a.crt"), "-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n");
    await().atMost(WAIT).until(() -> status().map(s -> s.problems().stream()
        .anyMatch(p -> p.reason().equals(Reasons.INVALID_CERTIFICATE))).orElse(false));
    assertThat(status().orElseThrow().state()).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(servedCertificate()).contains(first.certificate());

    // The key of another certificate: KeyMismatch, still the last good one.
    TestCertificates.Issued other = TestCertificates.leaf(CA, "other", "a.test");
    write(first.certificatePem(), other.traditionalPrivateKeyPem());
    await().atMost(WAIT).until(() -> status().map(s -> s.problems().stream()
        .anyMatch(p -> p.reason().equals(Reasons.KEY_MISMATCH))).orElse(false));
    assertThat(servedCertificate()).contains(first.certificate());

    Files.delete(configDir.resolve("tls/a.key"));
    await().atMost(WAIT).until(() -> status().map(s -> s.problems().stream()
        .anyMatch(p -> p.reason().equals(Reasons.SECRET_NOT_FOUND))).orElse(false));
    assertThat(servedCertificate()).contains(first.certificate());

    // Nothing logged along the way carries either key.
    String logged = String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList());
    assertThat(logged).contains("KeyMismatch").doesNotContain(keyBody(first)).doesNotContain(keyBody(other));
  }

  @Test
  void theKeyIsInNoReportAndNotInClearInTheSnapshotFileAndExpiryIsReported() throws Exception {
    String key = keyBody(first);
    HttpClient http = HttpClient.newHttpClient();
    String state = get(http, "/state").replaceAll("\\s", "");
    String metrics = get(http, "/metrics");
    String page = get(http, "/");
    assertThat(state).contains("\"secret\":\"" + SECRET_NAME + "\"").contains("\"daysLeft\":0")
        .doesNotContain(key).doesNotContain("PRIVATE KEY");
    assertThat(metrics).contains("holdfast_tls_certificate_expiry_seconds{secret=\"" + SECRET_NAME + "\"}")
        .doesNotContain(key);
    assertThat(page).doesNotContain(key);

    Path file = snapshotDir.resolve("xds-snapshot.bin");
    await().atMost(WAIT).until(() -> Files.exists(file));
    String stored = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
    assertThat(stored).contains(SECRET_NAME).doesNotContain(key).doesNotContain("PRIVATE KEY");
    assertThat(String.join("\n", logs.list.stream().map(ILoggingEvent::getFormattedMessage).toList()))
        .doesNotContain(key);
  }

  private String get(HttpClient http, String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + holdfast.adminPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }
}
