package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.pki.Keys;
import io.holdfast.pki.Pem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code holdfast certs} through the real command line: the files, their modes, what openssl and {@link Pem} make of
 * them, the Secret manifests, and every refusal naming its option. The TLS handshake between the outputs:
 * {@link CertsHandshakeTest}.
 */
class CertsCommandTest {
  @TempDir
  Path tmp;

  private final CertsFixture cli = new CertsFixture();

  private Path out() {
    return tmp.resolve("out");
  }

  private String read(String file) throws IOException {
    return Files.readString(out().resolve(file), StandardCharsets.US_ASCII);
  }

  private String mode(String file) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(out().resolve(file)));
  }

  @Test
  void defaultsMakeTheCaServerAndGatewayProxyWithPrivateKeys() throws Exception {
    int code = cli.run(out());

    assertThat(cli.err.toString()).isEmpty();
    assertThat(code).isZero();
    try (var files = Files.list(out())) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("ca.crt", "ca.key",
          "server.crt", "server.key", "proxy-gateway-proxy.crt", "proxy-gateway-proxy.key");
    }
    for (String key : List.of("ca.key", "server.key", "proxy-gateway-proxy.key")) {
      assertThat(mode(key)).as(key).isEqualTo("rw-------");
      assertThat(read(key)).as(key).startsWith("-----BEGIN PRIVATE KEY-----");
    }
    assertThat(mode("server.crt")).isEqualTo("rw-r--r--");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out()))).isEqualTo("rwx------");
    assertThat(cli.out.toString()).contains("wrote " + out().resolve("ca.key"));

    X509Certificate ca = Pem.certificates(read("ca.crt")).get(0);
    X509Certificate server = Pem.certificates(read("server.crt")).get(0);
    X509Certificate proxy = Pem.certificates(read("proxy-gateway-proxy.crt")).get(0);
    assertThat(server.getSubjectAlternativeNames()).containsExactly(
        List.of(2, "holdfast-xds.holdfast-system.svc"), List.of(2, "holdfast-xds.holdfast-system.svc.cluster.local"));
    assertThat(proxy.getSubjectAlternativeNames()).containsExactly(
        List.of(6, "spiffe://holdfast.local/proxy/gateway-proxy"));
    assertThat(proxy.getSubjectX500Principal().getName()).isEqualTo("CN=gateway-proxy");
    assertKeyMatches("ca.key", ca);
    assertKeyMatches("server.key", server);
    assertKeyMatches("proxy-gateway-proxy.key", proxy);
    // Validity: CA 3650 days, leaves 365, both starting a few minutes back for clocks running behind.
    Instant now = Instant.now();
    assertThat(Duration.between(ca.getNotBefore().toInstant(), ca.getNotAfter().toInstant()))
        .isEqualTo(Duration.ofDays(3650));
    assertThat(Duration.between(proxy.getNotBefore().toInstant(), proxy.getNotAfter().toInstant()))
        .isEqualTo(Duration.ofDays(365));
    assertThat(proxy.getNotBefore().toInstant()).isBetween(now.minus(Duration.ofMinutes(6)),
        now.minus(Duration.ofMinutes(4)));
  }

  private void assertKeyMatches(String file, X509Certificate certificate) throws IOException {
    PrivateKey key = Pem.servingKey(read(file));
    assertThat(Keys.matches(key, certificate.getPublicKey())).as(file).isTrue();
  }

  @Test
  void opensslVerifiesTheOutputsForTheirPurposeAndShowsTheProxysUriSan() throws Exception {
    assertThat(cli.run(out(), "--proxy", "edge-a", "--proxy", "team-b/web", "--trust-domain", "prod.example",
        "--server-dns", "xds.example.com", "--loopback")).isZero();
    String ca = out().resolve("ca.crt").toString();

    assertThat(openssl("verify", "-CAfile", ca, "-purpose", "sslserver", out().resolve("server.crt").toString()))
        .endsWith(": OK\n");
    for (String proxy : List.of("proxy-edge-a.crt", "proxy-team-b-web.crt")) {
      assertThat(openssl("verify", "-CAfile", ca, "-purpose", "sslclient", out().resolve(proxy).toString()))
          .endsWith(": OK\n");
    }
    assertThat(openssl("x509", "-in", out().resolve("proxy-team-b-web.crt").toString(), "-noout", "-text"))
        .contains("URI:spiffe://prod.example/proxy/team-b/web", "Subject: CN = team-b/web");
    assertThat(openssl("x509", "-in", out().resolve("server.crt").toString(), "-noout", "-ext", "subjectAltName"))
        .contains("DNS:xds.example.com", "DNS:localhost", "IP Address:127.0.0.1", "IP Address:0:0:0:0:0:0:0:1")
        .doesNotContain("svc");
  }

  @Test
  void kubernetesSecretsHoldWhatTheDeploymentMountsAndNeverTheCaKey() throws Exception {
    assertThat(cli.run(out(), "--proxy", "gateway-proxy", "--proxy", "apps/public", "--kubernetes-secrets",
        "holdfast-system", "--proxy-secrets-namespace", "gateways", "--snapshot-key")).isZero();

    assertThat(mode("secrets.yaml")).isEqualTo("rw-------");
    assertThat(mode("snapshot.key")).isEqualTo("rw-------");
    assertThat(Base64.getDecoder().decode(read("snapshot.key").trim())).hasSize(32);
    String yaml = read("secrets.yaml");
    String caKey = read("ca.key");
    assertThat(yaml).doesNotContain(b64(caKey)).doesNotContain("BEGIN PRIVATE KEY");
    assertThat(cli.out.toString()).contains("kubectl apply -f " + out().resolve("secrets.yaml"));

    Map<String, Secret> secrets = new java.util.TreeMap<>();
    Object parsed = new KubernetesSerialization().unmarshal(
        new java.io.ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    for (Object o : (List<?>) parsed) {
      Secret s = (Secret) o;
      secrets.put(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName(), s);
    }
    assertThat(secrets).containsOnlyKeys("holdfast-system/holdfast-xds-tls", "holdfast-system/holdfast-snapshot-key",
        "gateways/holdfast-proxy-gateway-proxy", "gateways/holdfast-proxy-apps-public");

    Secret server = secrets.get("holdfast-system/holdfast-xds-tls");
    assertThat(server.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(server.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt")
        .containsEntry("tls.crt", b64(read("server.crt"))).containsEntry("tls.key", b64(read("server.key")))
        .containsEntry("ca.crt", b64(read("ca.crt")));
    Secret proxy = secrets.get("gateways/holdfast-proxy-apps-public");
    assertThat(proxy.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(proxy.getMetadata().getAnnotations()).containsEntry("holdfast.io/proxy-name", "apps/public")
        .containsEntry("holdfast.io/spiffe-id", "spiffe://holdfast.local/proxy/apps/public");
    assertThat(proxy.getData()).containsEntry("tls.crt", b64(read("proxy-apps-public.crt")))
        .containsEntry("ca.crt", b64(read("ca.crt")));
    assertThat(secrets.get("holdfast-system/holdfast-snapshot-key").getData())
        .containsOnly(Map.entry("snapshot.key", b64(read("snapshot.key"))));
    assertThat(yaml).doesNotContain("\"\"");
  }

  private static String b64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }

  @Test
  void existingFilesAreKeptWithoutForceAndNothingIsWritten() throws Exception {
    assertThat(cli.run(out())).isZero();
    String caBefore = read("ca.crt");
    Files.delete(out().resolve("server.key"));

    CertsFixture again = new CertsFixture();
    assertThat(again.run(out(), "--snapshot-key")).isEqualTo(HoldfastCli.EXIT_USAGE);

    assertThat(again.err.toString()).startsWith("holdfast: --output-dir " + out() + " already has ca.crt, ca.key,"
        + " server.crt, proxy-gateway-proxy.crt, proxy-gateway-proxy.key: use --force");
    assertThat(read("ca.crt")).isEqualTo(caBefore);
    assertThat(out().resolve("server.key")).doesNotExist();
    assertThat(out().resolve("snapshot.key")).doesNotExist();

    assertThat(new CertsFixture().run(out(), "--force")).isZero();
    assertThat(read("ca.crt")).isNotEqualTo(caBefore);
    assertThat(mode("ca.key")).isEqualTo("rw-------");
    try (var files = Files.list(out())) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
    }
  }

  @Test
  void reuseCaIssuesMoreProxiesUnderTheExistingCaAndKeepsIt() throws Exception {
    assertThat(cli.run(out(), "--proxy", "first")).isZero();
    String ca = read("ca.crt");
    String caKey = read("ca.key");
    String first = read("proxy-first.crt");

    CertsFixture again = new CertsFixture();
    assertThat(again.run(out(), "--reuse-ca", "--force", "--proxy", "second")).isZero();

    assertThat(again.out.toString()).doesNotContain("ca.crt").doesNotContain("ca.key");
    assertThat(read("ca.crt")).isEqualTo(ca);
    assertThat(read("ca.key")).isEqualTo(caKey);
    assertThat(read("proxy-first.crt")).isEqualTo(first);
    Path caFile = out().resolve("ca.crt");
    for (String proxy : List.of("proxy-first.crt", "proxy-second.crt")) {
      assertThat(openssl("verify", "-CAfile", caFile.toString(), "-purpose", "sslclient",
          out().resolve(proxy).toString())).endsWith(": OK\n");
    }
    assertThat(openssl("verify", "-CAfile", caFile.toString(), "-purpose", "sslserver",
        out().resolve("server.crt").toString())).endsWith(": OK\n");
  }

  @Test
  void reuseCaRefusesAMissingOrMismatchedCaOrOneExpiringTooSoon() throws Exception {
    assertThat(cli.run(out(), "--reuse-ca")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(cli.err.toString()).startsWith("holdfast: --reuse-ca: cannot read " + out().resolve("ca.crt"));

    assertThat(new CertsFixture().run(out(), "--ca-validity-days", "30", "--validity-days", "30")).isZero();
    CertsFixture soon = new CertsFixture();
    assertThat(soon.run(out(), "--reuse-ca", "--force")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(soon.err.toString()).startsWith("holdfast: --reuse-ca: ca.crt expires ")
        .contains("before certificates of --validity-days would");

    Files.writeString(out().resolve("ca.key"), read("server.key"));
    CertsFixture mismatched = new CertsFixture();
    assertThat(mismatched.run(out(), "--reuse-ca", "--force", "--validity-days", "1")).isEqualTo(
        HoldfastCli.EXIT_USAGE);
    assertThat(mismatched.err.toString()).startsWith("holdfast: --reuse-ca: ca.key is not the key of ca.crt");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "--proxy=|--proxy: proxy name is empty",
    "--proxy=a b|--proxy: proxy name 'a b' is not a SPIFFE ID path",
    "--proxy=/abs|--proxy: proxy name '/abs' is not a SPIFFE ID path",
    "--trust-domain=Example.COM|--trust-domain: trust domain 'Example.COM' may only have lower-case letters",
    "--server-dns=under_score.svc|--server-dns: 'under_score.svc' is not a DNS name",
    "--server-dns=192.0.2.1|--server-dns: '192.0.2.1' is not a DNS name",
    "--server-ip=300.1.1.1|--server-ip: '300.1.1.1' is not an IPv4 or IPv6 address",
    "--server-ip=xds.example|--server-ip: 'xds.example' is not an IPv4 or IPv6 address",
    "--validity-days=0|--validity-days must be in 1..36500, got 0",
    "--ca-validity-days=ten|--ca-validity-days: 'ten' is not a whole number of days",
    "--validity-days=4000|--validity-days (4000) must not exceed --ca-validity-days (3650)",
    "--kubernetes-secrets=Holdfast|--kubernetes-secrets: 'Holdfast' is not a namespace name",
    "--proxy-secrets-namespace=gw|--proxy-secrets-namespace needs --kubernetes-secrets",
  })
  void badOptionsAreRefusedNamingTheOptionAndWriteNothing(String option, String message) {
    int code = cli.run(out(), option);

    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(cli.err.toString()).startsWith("holdfast: " + message)
        .contains("Try 'holdfast certs --help'");
    assertThat(out()).doesNotExist();
  }

  @Test
  void overlongControlAndCollidingProxyNamesAreRefused() {
    assertThat(cli.run(out(), "--proxy", "p".repeat(254))).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(cli.err.toString()).startsWith("holdfast: --proxy: proxy name is 254 characters long, over 253");

    CertsFixture control = new CertsFixture();
    assertThat(control.run(out(), "--proxy", "edge\nforged: yes")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(control.err.toString()).startsWith("holdfast: --proxy: proxy name 'edge?forged: yes' has a control"
        + " character").doesNotContain("\nforged");

    CertsFixture colliding = new CertsFixture();
    assertThat(colliding.run(out(), "--proxy", "team/edge", "--proxy", "team-edge")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(colliding.err.toString()).startsWith("holdfast: --proxy: 'team/edge' and 'team-edge' would share the"
        + " files proxy-team-edge.crt/.key and the Secret holdfast-proxy-team-edge");
    assertThat(out()).doesNotExist();
  }

  @Test
  void repeatsAreBoundedBeforeAnyKeyIsMade() {
    List<String> args = new ArrayList<>();
    for (int i = 0; i <= CertsCommand.MAX_PROXIES; i++) {
      args.add("--proxy=p" + i);
    }
    assertThat(cli.run(out(), args.toArray(String[]::new))).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(cli.err.toString()).startsWith("holdfast: --proxy is given 1001 times, over 1000");

    CertsFixture names = new CertsFixture();
    String many = String.join(",", java.util.Collections.nCopies(CertsCommand.MAX_SERVER_NAMES + 1, "a.example"));
    assertThat(names.run(out(), "--server-dns", many)).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(names.err.toString()).startsWith("holdfast: --server-dns names 101 values, over 100");
    assertThat(out()).doesNotExist();
  }

  @Test
  void theLongestProxyNameGetsAHashedFileNameAndItsFullSpiffeId() throws Exception {
    String name = "a".repeat(253);
    assertThat(cli.run(out(), "--proxy", name, "--kubernetes-secrets", "holdfast-system")).isZero();

    Path crt;
    try (var files = Files.list(out())) {
      crt = files.filter(p -> p.getFileName().toString().endsWith(".crt")
          && p.getFileName().toString().startsWith("proxy-")).findFirst().orElseThrow();
    }
    assertThat(crt.getFileName().toString()).hasSize("proxy-".length() + CertsOutput.MAX_STEM + ".crt".length());
    X509Certificate proxy = Pem.certificates(Files.readString(crt)).get(0);
    assertThat(proxy.getSubjectAlternativeNames()).containsExactly(List.of(6, "spiffe://holdfast.local/proxy/" + name));
    assertThat(read("secrets.yaml")).contains("name: \"holdfast-proxy-" + "a".repeat(191) + "-")
        .containsPattern("name: \"?holdfast-proxy-a{191}-[0-9a-f]{8}\"?\n");
  }

  private String openssl(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("openssl"));
    command.addAll(List.of(arguments));
    Path log = tmp.resolve("openssl.out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String output = Files.readString(log);
    assertThat(process.exitValue()).as("openssl %s: %s", arguments[0], output).isZero();
    return output;
  }
}
