package io.holdfast.server.webhook;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.pki.TestCertificates;
import io.holdfast.xds.server.XdsTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * A webhook on 127.0.0.1 (ephemeral port) with a throwaway certificate, its view held in {@link #view}, and a
 * client that trusts only that certificate's CA and speaks to it over real HTTPS.
 */
final class WebhookFixture implements AutoCloseable {
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final YAMLMapper YAML = YAMLMapper.builder().build();

  /** What the webhook judges against: empty until a test sets it (a replica whose source has not delivered). */
  final AtomicReference<Optional<GatewayConfig>> view;
  final AdmissionWebhook webhook;
  final SSLContext clientTls;
  private final HttpClient client;

  private WebhookFixture(AtomicReference<Optional<GatewayConfig>> view, AdmissionWebhook.Builder builder,
      X509Certificate ca) throws IOException {
    this.view = view;
    this.webhook = builder.start();
    this.clientTls = trusting(ca);
    this.client = client(clientTls);
  }

  /** A webhook with {@code options} applied to its builder, certificate files written under {@code dir}. */
  static WebhookFixture start(Path dir, java.util.function.UnaryOperator<AdmissionWebhook.Builder> options)
      throws IOException {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    X509Certificate ca = writeServerCertificate(cert, key, false);
    AtomicReference<Optional<GatewayConfig>> view = new AtomicReference<>(Optional.empty());
    AdmissionWebhook.Builder builder = AdmissionWebhook.builder(new InetSocketAddress("127.0.0.1", 0),
        XdsTls.serverOnly(cert, key), view::get);
    return new WebhookFixture(view, options.apply(builder), ca);
  }

  /** A webhook judging against {@code view} (not {@link #view}), e.g. one that fails on purpose. */
  static WebhookFixture startWithView(Path dir, java.util.function.Supplier<Optional<GatewayConfig>> view,
      java.util.function.UnaryOperator<AdmissionWebhook.Builder> options) throws IOException {
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    X509Certificate ca = writeServerCertificate(cert, key, false);
    AdmissionWebhook.Builder builder = AdmissionWebhook.builder(new InetSocketAddress("127.0.0.1", 0),
        XdsTls.serverOnly(cert, key), view);
    return new WebhookFixture(new AtomicReference<>(Optional.empty()), options.apply(builder), ca);
  }

  /** The view built from manifests, as file mode builds it. */
  void viewOf(String yaml) {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("view.yaml", yaml)), Map.of());
    if (!loaded.errors().isEmpty()) {
      throw new IllegalArgumentException("test view has manifest errors: " + loaded.errors());
    }
    view.set(Optional.of(loaded.config()));
  }

  URI uri(String path) {
    return URI.create("https://127.0.0.1:" + webhook.port() + path);
  }

  HttpResponse<String> post(byte[] body) throws IOException, InterruptedException {
    return client.send(HttpRequest.newBuilder(uri(AdmissionWebhook.PATH)).timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts a review and returns its {@code response}, failing unless the answer is 200 with a review. */
  JsonNode review(String body) throws IOException, InterruptedException {
    HttpResponse<String> answer = post(body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    if (answer.statusCode() != 200) {
      throw new AssertionError("expected 200, got " + answer.statusCode() + ": " + answer.body());
    }
    JsonNode root = JSON.readTree(answer.body());
    if (!"admission.k8s.io/v1".equals(root.path("apiVersion").asString())
        || !"AdmissionReview".equals(root.path("kind").asString())) {
      throw new AssertionError("not an AdmissionReview v1: " + answer.body());
    }
    return root.get("response");
  }

  /** A raw TLS socket to the webhook, for requests an HTTP client would not send. */
  SSLSocket rawSocket() throws IOException {
    SSLSocket socket = (SSLSocket) clientTls.getSocketFactory().createSocket("127.0.0.1", webhook.port());
    socket.setSoTimeout(10_000);
    socket.startHandshake();
    return socket;
  }

  /**
   * An AdmissionReview v1 request as the API server sends it: {@code object} is a YAML manifest (or null), the
   * request's kind, namespace and name taken from it unless given.
   */
  static String reviewOf(String uid, String operation, String group, String kind, String namespace, String name,
      String objectYaml) {
    return reviewOfTree(uid, operation, group, kind, namespace, name,
        objectYaml == null ? null : YAML.readTree(objectYaml));
  }

  /** As {@link #reviewOf(String, String, String, String, String, String, String)}, the object given as a tree. */
  static String reviewOfTree(String uid, String operation, String group, String kind, String namespace, String name,
      JsonNode object) {
    ObjectNode root = JSON.createObjectNode();
    root.put("apiVersion", "admission.k8s.io/v1");
    root.put("kind", "AdmissionReview");
    ObjectNode request = root.putObject("request");
    request.put("uid", uid);
    request.putObject("kind").put("group", group).put("version", "v1").put("kind", kind);
    request.putObject("resource").put("group", group).put("version", "v1").put("resource", kind.toLowerCase() + "s");
    request.put("namespace", namespace);
    request.put("name", name);
    request.put("operation", operation);
    request.putObject("userInfo").put("username", "kubernetes-admin");
    request.put("dryRun", false);
    if (object != null) {
      request.set("object", object);
    }
    return JSON.writeValueAsString(root);
  }

  /**
   * What a review's {@code response} says, in the server's terms: each denial cause as a {@code Problem}'s text,
   * then each warning, to compare with a status's problems.
   */
  static List<String> said(JsonNode response) {
    List<String> said = new java.util.ArrayList<>();
    response.path("status").path("details").path("causes").forEach(c -> said.add(new io.holdfast.api.Problem(
        c.get("field").asString(), c.get("reason").asString(), c.get("message").asString()).toString()));
    response.path("warnings").forEach(w -> said.add(w.asString()));
    return said;
  }

  /** An UPDATE review: {@code object} as it would be stored, {@code oldObject} as stored before. */
  static String reviewOfUpdate(String uid, String group, String kind, String namespace, String name,
      JsonNode object, JsonNode oldObject) {
    ObjectNode root = (ObjectNode) JSON.readTree(reviewOfTree(uid, "UPDATE", group, kind, namespace, name, object));
    ((ObjectNode) root.get("request")).set("oldObject", oldObject);
    return JSON.writeValueAsString(root);
  }

  /** A CREATE review of a Holdfast manifest; kind, namespace and name read from it. */
  static String create(String uid, String objectYaml) {
    JsonNode object = YAML.readTree(objectYaml);
    // The API server names the object's own group in the review: gateway.solo.io for Gloo's kinds, and so on.
    String apiVersion = object.path("apiVersion").asString();
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "gateway.holdfast.io";
    return reviewOf(uid, "CREATE", group, object.path("kind").asString(),
        object.path("metadata").path("namespace").asString(), object.path("metadata").path("name").asString(),
        objectYaml);
  }

  /**
   * Writes a fresh certificate for 127.0.0.1 and localhost and its key, issued by a fresh CA, which it returns
   * for clients to trust; {@code pkcs1} writes an RSA key as PKCS#1 (cert-manager's default form).
   */
  static X509Certificate writeServerCertificate(Path certificate, Path key, boolean pkcs1) {
    TestCertificates.Issued ca = TestCertificates.ca("holdfast webhook test CA");
    TestCertificates.Issued leaf = pkcs1
        ? TestCertificates.leaf(ca, "holdfast-webhook", TestCertificates.rsa(), java.time.Instant.now().minusSeconds(60),
            TestCertificates.LIFETIME)
        : TestCertificates.leaf(ca, "holdfast-webhook");
    try {
      java.nio.file.Files.writeString(certificate, leaf.certificatePem());
      java.nio.file.Files.writeString(key, pkcs1 ? leaf.traditionalPrivateKeyPem() : leaf.privateKeyPem());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return ca.certificate();
  }

  /** An HTTP/1.1 client (the API server's webhook client speaks it too) with {@code tls}. */
  static HttpClient client(SSLContext tls) {
    return HttpClient.newBuilder().sslContext(tls).version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** TLS that trusts {@code ca} alone. */
  static SSLContext trusting(X509Certificate ca) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      store.setCertificateEntry("ca", ca);
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    webhook.close();
  }
}
