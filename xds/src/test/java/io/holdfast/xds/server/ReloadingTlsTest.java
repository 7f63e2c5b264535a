package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.TlsServerCredentials;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reload loop on its own: outcomes of each check, what is kept on a bad file, scheduling and closing. */
class ReloadingTlsTest {

  private static final TestPki.Issued CA = TestPki.ca("reload CA");

  @TempDir
  Path dir;

  private final CapturingScheduler scheduler = new CapturingScheduler();

  @AfterEach
  void tearDown() {
    scheduler.shutdownNow();
  }

  private Path cert() {
    return dir.resolve("tls.crt");
  }

  private Path key() {
    return dir.resolve("tls.key");
  }

  private ReloadingTls start(XdsTls tls) {
    return ReloadingTls.builder(tls).scheduler(scheduler).start();
  }

  @Test
  void startFailsNamingTheBadFile() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    TestPki.writeString(key(), "not a key");

    assertThatThrownBy(() -> start(XdsTls.serverOnly(cert(), key())))
        .isInstanceOf(XdsTlsException.class)
        .hasMessage("private key file " + key() + ": not PEM (no -----BEGIN PRIVATE KEY----- block)");
  }

  @Test
  void periodicCheckRunsAtTheIntervalAndPicksUpNewFiles() {
    TestPki.Issued first = TestPki.leaf(CA, "xds");
    first.write(cert(), key());
    try (ReloadingTls tls = start(XdsTls.serverOnly(cert(), key()))) {
      assertThat(scheduler.delayMillis()).isEqualTo(XdsTls.DEFAULT_RELOAD_INTERVAL.toMillis());
      scheduler.tick();
      assertThat(tls.certificate()).isEqualTo(first.certificate());

      TestPki.Issued second = TestPki.leaf(CA, "xds");
      second.write(cert(), key());
      scheduler.tick();

      assertThat(tls.certificate()).isEqualTo(second.certificate());
    }
  }

  @Test
  void eachCheckReportsWhatItFound() {
    TestPki.Issued first = TestPki.leaf(CA, "xds");
    first.write(cert(), key());
    try (ReloadingTls tls = start(XdsTls.serverOnly(cert(), key()))) {
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.UNCHANGED);

      TestPki.writeString(key(), "garbage");
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.REJECTED);
      // The same bad bytes are reported once, not at every check.
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.UNCHANGED);
      assertThat(tls.certificate()).isEqualTo(first.certificate());

      TestPki.Issued second = TestPki.leaf(CA, "xds");
      second.write(cert(), key());
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.RELOADED);
      assertThat(tls.certificate()).isEqualTo(second.certificate());
    }
  }

  @Test
  void tornRotationKeepsTheOldPairUntilBothFilesAreNew() {
    TestPki.Issued first = TestPki.leaf(CA, "xds");
    first.write(cert(), key());
    try (ReloadingTls tls = start(XdsTls.serverOnly(cert(), key()))) {
      TestPki.Issued second = TestPki.leaf(CA, "xds");
      TestPki.writeString(cert(), second.certificatePem());

      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.REJECTED);
      assertThat(tls.certificate()).isEqualTo(first.certificate());

      TestPki.writeString(key(), second.privateKeyPem());
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.RELOADED);
      assertThat(tls.certificate()).isEqualTo(second.certificate());
    }
  }

  @Test
  void fileMissingDuringASwapIsRejectedThenRecovered() throws Exception {
    TestPki.Issued first = TestPki.leaf(CA, "xds");
    first.write(cert(), key());
    try (ReloadingTls tls = start(XdsTls.serverOnly(cert(), key()))) {
      Files.delete(cert());
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.REJECTED);
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.UNCHANGED);
      assertThat(tls.certificate()).isEqualTo(first.certificate());

      first.write(cert(), key());
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.RELOADED);
      assertThat(tls.certificate()).isEqualTo(first.certificate());
    }
  }

  @Test
  void credentialsRequireClientCertificatesOnlyWithAClientCa() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    Path bundle = dir.resolve("ca.crt");
    TestPki.writeString(bundle, CA.certificatePem());

    try (ReloadingTls plain = start(XdsTls.serverOnly(cert(), key()));
        ReloadingTls mutual = start(XdsTls.mutual(cert(), key(), bundle))) {
      var plainCredentials = (TlsServerCredentials) plain.credentials();
      var mutualCredentials = (TlsServerCredentials) mutual.credentials();

      assertThat(plainCredentials.getClientAuth()).isEqualTo(TlsServerCredentials.ClientAuth.NONE);
      assertThat(plainCredentials.getTrustManagers()).isNull();
      assertThat(mutualCredentials.getClientAuth()).isEqualTo(TlsServerCredentials.ClientAuth.REQUIRE);
      assertThat(mutualCredentials.getTrustManagers()).hasSize(1);
      assertThat(mutualCredentials.getKeyManagers()).hasSize(1);
    }
  }

  @Test
  void changedClientCaBundleIsReloaded() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    Path bundle = dir.resolve("ca.crt");
    TestPki.writeString(bundle, CA.certificatePem());
    try (ReloadingTls tls = start(XdsTls.mutual(cert(), key(), bundle))) {
      TestPki.writeString(bundle, CA.certificatePem() + TestPki.ca("next CA").certificatePem());
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.RELOADED);

      TestPki.writeString(bundle, "");
      assertThat(tls.reloadNow()).isEqualTo(ReloadingTls.Outcome.REJECTED);
    }
  }

  @Test
  void closeCancelsTheChecks() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    ReloadingTls tls = start(XdsTls.serverOnly(cert(), key()).withReloadInterval(Duration.ofSeconds(3)));
    assertThat(scheduler.delayMillis()).isEqualTo(3_000);

    tls.close();
    tls.close();

    assertThat(scheduler.future().isCancelled()).isTrue();
  }

  @Test
  void ownSchedulerThreadStopsOnClose() {
    TestPki.leaf(CA, "xds").write(cert(), key());
    ReloadingTls tls = ReloadingTls.builder(XdsTls.serverOnly(cert(), key())).start();
    assertThat(reloadThreads()).isPositive();

    tls.close();

    await().atMost(Duration.ofSeconds(5)).until(() -> reloadThreads() == 0);
  }

  private static long reloadThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("holdfast-xds-tls-reload") && t.isAlive())
        .count();
  }
}
