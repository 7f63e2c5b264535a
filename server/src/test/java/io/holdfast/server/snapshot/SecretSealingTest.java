package io.holdfast.server.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.GenericSecret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsCertificate;
import io.holdfast.pki.TestCertificates;
import io.holdfast.testkit.ManualClock;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Private keys never reach the snapshot file in clear text: sealed with the snapshot key, or left out. */
class SecretSealingTest {

  private static final TestCertificates.Issued LEAF =
      TestCertificates.leaf(TestCertificates.ca("sealing CA"), "a", "a.test");
  private static final String SECRET = SecretSealing.SECRET;

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-02T10:15:30Z"));

  private static SecretKey key(int seed) {
    byte[] bytes = new byte[32];
    java.util.Arrays.fill(bytes, (byte) seed);
    return new SecretKeySpec(bytes, "AES");
  }

  private SnapshotStore open(Optional<SecretKey> key) {
    return SnapshotStore.open(dir.resolve("state"), "holdfast-0", clock, new SimpleMeterRegistry(), key);
  }

  private static XdsSnapshot withSecret() {
    Map<String, Map<String, Message>> resources = new TreeMap<>();
    EnvoyResources.gateway(9000).resources().forEach((type, byName) -> resources.put(type, new TreeMap<>(byName)));
    resources.put(SECRET, Map.of("secret/demo/a", Secret.newBuilder().setName("secret/demo/a")
        .setTlsCertificate(TlsCertificate.newBuilder()
            .setCertificateChain(DataSource.newBuilder().setInlineString(LEAF.certificatePem()))
            .setPrivateKey(DataSource.newBuilder().setInlineString(LEAF.privateKeyPem())))
        .build()));
    return XdsSnapshot.of(resources);
  }

  private String fileText() throws IOException {
    return new String(Files.readAllBytes(dir.resolve("state").resolve(SnapshotStore.FILE_NAME)),
        StandardCharsets.ISO_8859_1);
  }

  private static String keyBody() {
    String pem = LEAF.privateKeyPem();
    return pem.substring(pem.indexOf('\n') + 1, pem.indexOf('\n') + 41);
  }

  @Test
  void withAKeySecretsAreSealedAndComeBackWithTheVersion() throws IOException {
    XdsSnapshot saved = withSecret();
    SnapshotStore store = open(Optional.of(key(7)));
    assertThat(store.save(saved)).isEqualTo(SaveOutcome.WRITTEN);

    assertThat(fileText()).contains("secret/demo/a").doesNotContain(keyBody()).doesNotContain("PRIVATE KEY")
        .doesNotContain(LEAF.certificatePem().substring(28, 60));
    XdsSnapshot loaded = open(Optional.of(key(7))).load().orElseThrow().snapshot();
    assertThat(loaded).isEqualTo(saved);
  }

  @Test
  void aGenericSecretOfHoldfastsOwnIsSealedAndComesBackAsItWas() throws IOException {
    String credential = "oauth2-client-secret-never-on-disk";
    Map<String, Map<String, Message>> resources = new TreeMap<>();
    withSecret().resources().forEach((type, byName) -> resources.put(type, new TreeMap<>(byName)));
    resources.get(SECRET).put("oauth2/VirtualService/demo/a/client-secret", Secret.newBuilder()
        .setName("oauth2/VirtualService/demo/a/client-secret").setGenericSecret(GenericSecret.newBuilder()
            .setSecret(DataSource.newBuilder().setInlineString(credential))).build());
    XdsSnapshot saved = XdsSnapshot.of(resources);
    assertThat(open(Optional.of(key(7))).save(saved)).isEqualTo(SaveOutcome.WRITTEN);

    assertThat(fileText()).contains("oauth2/VirtualService/demo/a/client-secret").doesNotContain(credential);
    assertThat(open(Optional.of(key(7))).load().orElseThrow().snapshot()).isEqualTo(saved);
  }

  @Test
  void withoutAKeySecretsAreLeftOutAndTheVersionIsThatOfWhatIsStored() throws IOException {
    XdsSnapshot saved = withSecret();
    SnapshotStore store = open(Optional.empty());
    assertThat(store.save(saved)).isEqualTo(SaveOutcome.WRITTEN);
    assertThat(store.save(saved)).isEqualTo(SaveOutcome.UNCHANGED);

    assertThat(fileText()).doesNotContain("secret/demo/a").doesNotContain(keyBody());
    XdsSnapshot loaded = store.load().orElseThrow().snapshot();
    assertThat(loaded.ofType(SECRET)).isEmpty();
    assertThat(loaded.ofType(EnvoyResources.LISTENER)).isEqualTo(saved.ofType(EnvoyResources.LISTENER));
    // Another version: when the source is back with the secrets, the full snapshot is a change and gets pushed.
    assertThat(loaded.version()).isNotEqualTo(saved.version())
        .isEqualTo(XdsSnapshot.contentVersion(loaded.resources()));
  }

  @Test
  void anotherKeyDropsTheSecretsInsteadOfFailingTheLoad() {
    open(Optional.of(key(7))).save(withSecret());
    XdsSnapshot wrongKey = open(Optional.of(key(8))).load().orElseThrow().snapshot();
    assertThat(wrongKey.ofType(SECRET)).isEmpty();
    assertThat(wrongKey.ofType(EnvoyResources.LISTENER)).isNotEmpty();
    XdsSnapshot noKey = open(Optional.empty()).load().orElseThrow().snapshot();
    assertThat(noKey.ofType(SECRET)).isEmpty();
    assertThat(noKey.version()).isEqualTo(wrongKey.version());
  }

  @Test
  void keyFilesAreRawOrBase64And256Bits() throws IOException {
    Path raw = dir.resolve("raw.key");
    Files.write(raw, new byte[32]);
    assertThat(SnapshotKey.read(raw).getEncoded()).hasSize(32);
    Path text = dir.resolve("b64.key");
    Files.writeString(text, Base64.getEncoder().encodeToString(new byte[32]) + "\n");
    assertThat(SnapshotKey.read(text).getEncoded()).hasSize(32);
    Path shortKey = dir.resolve("short.key");
    Files.writeString(shortKey, "c2hvcnQ=");
    assertThatThrownBy(() -> SnapshotKey.read(shortKey)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--snapshot-key-file " + shortKey + " must hold a 256-bit key")
        .hasMessageNotContaining("c2hvcnQ=");
    assertThatThrownBy(() -> SnapshotKey.read(dir.resolve("missing"))).hasMessageContaining("cannot be read");
  }
}
