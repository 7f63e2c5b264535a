package io.holdfast.pki;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Keys and self-signed certificates made at test time by the {@code openssl} command (Debian's package), as users
 * make them: {@code genrsa -traditional}, {@code ecparam -genkey} (an EC PARAMETERS block, then a SEC1 key),
 * {@code genpkey}, {@code req -x509}. Nothing is checked in. Without the command every test using this fails,
 * naming it: these tests are not skipped.
 */
public final class OpensslPems {

  /** One generated pair: the certificate PEM and the key PEM, as openssl wrote them. */
  public record Pair(String name, String certificatePem, String keyPem) {
  }

  private final Path directory;

  private OpensslPems(Path directory) {
    this.directory = directory;
  }

  /** Generates into {@code directory} (a test's temp dir). */
  public static OpensslPems in(Path directory) {
    return new OpensslPems(directory);
  }

  public Pair rsa(int bits) {
    return pair("rsa" + bits, List.of("genrsa", "-traditional", "-out", "%k", Integer.toString(bits)));
  }

  /** @param curve openssl's curve name: prime256v1, secp384r1, secp521r1, secp256k1 */
  public Pair ec(String curve) {
    return pair("ec-" + curve, List.of("ecparam", "-name", curve, "-genkey", "-out", "%k"));
  }

  public Pair ed25519() {
    return pair("ed25519", List.of("genpkey", "-algorithm", "ed25519", "-out", "%k"));
  }

  private Pair pair(String name, List<String> keyCommand) {
    Path key = directory.resolve(name + ".key");
    Path certificate = directory.resolve(name + ".crt");
    run(keyCommand.stream().map(a -> a.replace("%k", key.toString())).toList());
    run(List.of("req", "-x509", "-new", "-key", key.toString(), "-subj", "/CN=a.test",
        "-addext", "subjectAltName=DNS:a.test", "-days", "1", "-out", certificate.toString()));
    try {
      return new Pair(name, Files.readString(certificate, StandardCharsets.US_ASCII),
          Files.readString(key, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new IllegalStateException("openssl wrote no " + name + " files", e);
    }
  }

  private void run(List<String> arguments) {
    List<String> command = new ArrayList<>();
    command.add("openssl");
    command.addAll(arguments);
    Process process;
    try {
      process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
          .redirectOutput(directory.resolve("openssl.log").toFile()).start();
    } catch (IOException e) {
      throw new IllegalStateException("the openssl command is needed by this test (Debian: apt-get install"
          + " openssl) and could not be run: " + e.getMessage(), e);
    }
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("openssl " + arguments.get(0) + " did not finish in 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for openssl", e);
    }
    if (process.exitValue() != 0) {
      String log;
      try {
        log = Files.readString(directory.resolve("openssl.log"));
      } catch (IOException e) {
        log = "(no output)";
      }
      throw new IllegalStateException("openssl " + String.join(" ", arguments) + " failed: " + log);
    }
  }
}
