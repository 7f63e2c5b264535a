package io.holdfast.server.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.testkit.ManualClock;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File mode's first-served times in the snapshot file (format 2 on), and files of format 1 still read. */
class FirstServedStorageTest {

  private static final Instant T0 = Instant.parse("2026-12-02T10:15:30Z");

  @TempDir
  Path dir;
  private final ManualClock clock = new ManualClock(T0);

  private SnapshotStore open() {
    return SnapshotStore.open(dir, "holdfast-0", clock, new SimpleMeterRegistry());
  }

  private static SortedMap<ResourceKey, Instant> ages() {
    SortedMap<ResourceKey, Instant> ages = new TreeMap<>();
    ages.put(ResourceKey.virtualService("default", "web"), Instant.parse("2026-01-01T00:00:00.123Z"));
    ages.put(new ResourceKey("gateway.networking.k8s.io", "HTTPRoute", "shop", "cart"),
        Instant.parse("2026-01-02T00:00:00Z"));
    return ages;
  }

  @Test
  void firstServedTimesRoundTrip() {
    XdsSnapshot saved = EnvoyResources.gateway(9000);
    SnapshotStore store = open();
    assertThat(store.save(saved, ages())).isEqualTo(SaveOutcome.WRITTEN);

    StoredSnapshot loaded = open().load().orElseThrow();
    assertThat(loaded.snapshot()).isEqualTo(saved);
    assertThat(loaded.firstServed()).isEqualTo(ages());
  }

  /** A newly seen object whose arrival did not change the snapshot still gets its time stored. */
  @Test
  void changedTimesAreSavedEvenForTheSameSnapshotVersion() {
    XdsSnapshot saved = EnvoyResources.gateway(9000);
    SnapshotStore store = open();
    store.save(saved, new TreeMap<>());
    assertThat(store.save(saved, new TreeMap<>())).isEqualTo(SaveOutcome.UNCHANGED);
    assertThat(store.save(saved, ages())).isEqualTo(SaveOutcome.WRITTEN);
    assertThat(store.save(saved, ages())).isEqualTo(SaveOutcome.UNCHANGED);
    assertThat(open().load().orElseThrow().firstServed()).isEqualTo(ages());
  }

  /** A file written before first-served times existed (format 1) loads, with none. */
  @Test
  void aFormatOneFileStillLoads() throws Exception {
    XdsSnapshot saved = EnvoyResources.gateway(9000);
    SnapshotStore store = open();
    store.save(saved);
    Path file = dir.resolve(SnapshotStore.FILE_NAME);
    byte[] v2 = Files.readAllBytes(file);
    Files.write(file, formatOne(v2));

    StoredSnapshot loaded = open().load().orElseThrow();
    assertThat(loaded.snapshot()).isEqualTo(saved);
    assertThat(loaded.savedBy()).isEqualTo("holdfast-0");
    assertThat(loaded.firstServed()).isEmpty();
  }

  /**
   * The format 1 file of the same content: format 3 without its (empty) first-served section and its (unknown)
   * scopes section.
   */
  private static byte[] formatOne(byte[] v2) {
    ByteBuffer in = ByteBuffer.wrap(v2);
    int payload = in.getInt(12);
    for (int tail = 4; tail <= 12; tail += 4) {
      assertThat(in.getInt(SnapshotCodec.HEADER_BYTES + payload - tail))
          .as("empty first-served section, unknown scopes").isZero();
    }
    int payloadV1 = payload - 12;
    ByteBuffer out = ByteBuffer.allocate(SnapshotCodec.HEADER_BYTES + payloadV1 + SnapshotCodec.CHECKSUM_BYTES);
    out.put(Arrays.copyOf(v2, 8)).putInt(SnapshotCodec.FORMAT_VERSION_1).putInt(payloadV1)
        .put(v2, SnapshotCodec.HEADER_BYTES, payloadV1);
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.position());
    out.putInt((int) crc.getValue());
    return out.array();
  }
}
