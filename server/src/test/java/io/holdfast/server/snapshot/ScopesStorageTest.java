package io.holdfast.server.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.holdfast.testkit.ManualClock;
import io.holdfast.xds.snapshot.ProxyScopes;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxies' scopes in the snapshot file (format 3): a restart from the file serves each proxy the same view;
 * a format 2 file (before scopes) loads with unknown scopes.
 */
class ScopesStorageTest {

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-12-04T10:00:00Z"));

  private SnapshotStore open() {
    return SnapshotStore.open(dir, "holdfast-0", clock, new SimpleMeterRegistry());
  }

  static XdsSnapshot scoped() {
    XdsSnapshot plain = EnvoyResources.gateway(9000);
    ProxyScopes scopes = ProxyScopes.of(Map.of(
        "shop/web", new ProxyScopes.Scope(new TreeMap<>(Map.of(
            Resources.V3.LISTENER_TYPE_URL, new TreeSet<>(Set.of("ingress_http")),
            Resources.V3.CLUSTER_TYPE_URL, new TreeSet<>(Set.of("default/backend"))))),
        "other", ProxyScopes.Scope.EMPTY));
    return XdsSnapshot.of(plain.resources(), scopes);
  }

  @Test
  void scopesRoundTripWithTheirVersion() {
    XdsSnapshot saved = scoped();
    assertThat(open().save(saved)).isEqualTo(SaveOutcome.WRITTEN);

    XdsSnapshot loaded = open().load().orElseThrow().snapshot();
    assertThat(loaded).isEqualTo(saved);
    assertThat(loaded.scopes().of("shop/web")).isEqualTo(saved.scopes().of("shop/web"));
    assertThat(loaded.scopes().byProxy()).containsOnlyKeys("other", "shop/web");
    assertThat(loaded.version()).isEqualTo(XdsSnapshot.scopedVersion(
        XdsSnapshot.contentVersion(loaded.resources()), loaded.scopes()));
  }

  @Test
  void unknownScopesStayUnknown() {
    XdsSnapshot saved = EnvoyResources.gateway(9000);
    open().save(saved);
    assertThat(open().load().orElseThrow().snapshot().scopes()).isEqualTo(ProxyScopes.UNKNOWN);
  }

  @Test
  void aFormatTwoFileLoadsWithUnknownScopes() throws Exception {
    XdsSnapshot saved = EnvoyResources.gateway(9000);
    open().save(saved);
    Path file = dir.resolve(SnapshotStore.FILE_NAME);
    Files.write(file, formatTwo(Files.readAllBytes(file)));

    StoredSnapshot loaded = open().load().orElseThrow();
    assertThat(loaded.snapshot()).isEqualTo(saved);
    assertThat(loaded.snapshot().scopes().known()).isFalse();
  }

  /** The format 2 file of the same content: format 3 without its (unknown, empty) scopes section. */
  private static byte[] formatTwo(byte[] v3) {
    ByteBuffer in = ByteBuffer.wrap(v3);
    assertThat(in.getInt(8)).isEqualTo(SnapshotCodec.FORMAT_VERSION);
    int payload = in.getInt(12);
    assertThat(in.getLong(SnapshotCodec.HEADER_BYTES + payload - 8)).as("unknown scopes").isZero();
    int payloadV2 = payload - 8;
    ByteBuffer out = ByteBuffer.allocate(SnapshotCodec.HEADER_BYTES + payloadV2 + SnapshotCodec.CHECKSUM_BYTES);
    out.put(Arrays.copyOf(v3, 8)).putInt(SnapshotCodec.FORMAT_VERSION_2).putInt(payloadV2)
        .put(v3, SnapshotCodec.HEADER_BYTES, payloadV2);
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.position());
    out.putInt((int) crc.getValue());
    return out.array();
  }
}
