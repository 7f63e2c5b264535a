package io.holdfast.pki;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code openssl} command (as Envoy's BoringSSL-era tooling and operators check certificates) verifies what
 * {@link CertificateIssuer} makes, for the right purpose, and shows the contract's names. Not skipped without
 * openssl: it fails naming the command.
 */
class OpensslIssuedCertificatesTest {
  private static final Instant NOW = Instant.now().minusSeconds(60);
  private static final Duration DAY = Duration.ofDays(1);

  @TempDir
  Path dir;

  private final IssuedCertificate ca = CertificateIssuer.newCa("Holdfast xDS CA", NOW, Duration.ofDays(3650));
  private final CertificateIssuer issuer = CertificateIssuer.signingWith(ca);

  @Test
  void opensslVerifiesTheServerCertificateForServerUse() throws Exception {
    Path caFile = write("ca.crt", ca.certificatePem());
    Path server = write("server.crt", issuer.server("holdfast-xds",
        List.of("holdfast-xds.holdfast-system.svc", "localhost"), List.of(InetAddress.getByName("127.0.0.1")),
        NOW, DAY).certificatePem());

    assertThat(openssl("verify", "-CAfile", caFile.toString(), "-purpose", "sslserver", server.toString()))
        .isEqualTo(new Result(0, server + ": OK\n"));
    assertThat(openssl("verify", "-CAfile", caFile.toString(), "-purpose", "sslclient", server.toString()).code())
        .isNotZero();
    String text = openssl("x509", "-in", server.toString(), "-noout", "-text").output();
    assertThat(text).contains("DNS:holdfast-xds.holdfast-system.svc", "DNS:localhost", "IP Address:127.0.0.1",
        "TLS Web Server Authentication", "ASN1 OID: prime256v1", "ecdsa-with-SHA256");
  }

  @Test
  void opensslVerifiesAProxyCertificateForClientUseAndShowsItsUriSan() throws Exception {
    Path caFile = write("ca.crt", ca.certificatePem());
    Path proxy = write("proxy.crt", issuer.proxy(ProxyIdentity.of("gateway-proxy"), NOW, DAY).certificatePem());

    assertThat(openssl("verify", "-CAfile", caFile.toString(), "-purpose", "sslclient", proxy.toString()))
        .isEqualTo(new Result(0, proxy + ": OK\n"));
    String text = openssl("x509", "-in", proxy.toString(), "-noout", "-text").output();
    assertThat(text).contains("URI:spiffe://holdfast.local/proxy/gateway-proxy", "Subject: CN = gateway-proxy",
        "TLS Web Client Authentication", "CA:FALSE");
  }

  @Test
  void aProxyNameOfTheLongestLengthStillVerifies() throws Exception {
    // 253 characters is over RFC 5280's 64 for a common name: the subject is empty, the URI SAN critical.
    Path caFile = write("ca.crt", ca.certificatePem());
    String name = "p".repeat(120) + "/" + "q".repeat(132);
    Path proxy = write("proxy.crt", issuer.proxy(ProxyIdentity.of(name), NOW, DAY).certificatePem());

    assertThat(openssl("verify", "-CAfile", caFile.toString(), "-purpose", "sslclient", proxy.toString()).code())
        .isZero();
    assertThat(openssl("x509", "-in", proxy.toString(), "-noout", "-ext", "subjectAltName").output())
        .contains("URI:spiffe://holdfast.local/proxy/" + name).contains("critical");
  }

  @Test
  void opensslRefusesACertificateOfAnotherCa() throws Exception {
    Path caFile = write("ca.crt", ca.certificatePem());
    CertificateIssuer other = CertificateIssuer.signingWith(CertificateIssuer.newCa("Holdfast xDS CA", NOW, DAY));
    Path proxy = write("proxy.crt", other.proxy(ProxyIdentity.of("gateway-proxy"), NOW, DAY).certificatePem());

    Result result = openssl("verify", "-CAfile", caFile.toString(), proxy.toString());
    assertThat(result.code()).isNotZero();
    assertThat(result.output()).contains("unable to get local issuer certificate");
  }

  @Test
  void opensslReadsThePkcs8KeyAsTheCertificatesKey() throws Exception {
    IssuedCertificate proxy = issuer.proxy(ProxyIdentity.of("gateway-proxy"), NOW, DAY);
    Path cert = write("proxy.crt", proxy.certificatePem());
    Path key = write("proxy.key", proxy.privateKeyPem());

    String fromKey = openssl("pkey", "-in", key.toString(), "-pubout").output();
    String fromCert = openssl("x509", "-in", cert.toString(), "-noout", "-pubkey").output();
    assertThat(fromKey).startsWith("-----BEGIN PUBLIC KEY-----").isEqualTo(fromCert);
  }

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text, StandardCharsets.US_ASCII);
  }

  record Result(int code, String output) {
  }

  private Result openssl(String... arguments) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    command.addAll(List.of(arguments));
    Path log = dir.resolve("openssl.out");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("openssl finished within 60 s").isTrue();
    return new Result(process.exitValue(), Files.readString(log));
  }
}
