package io.holdfast.server.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.StringValue;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every damaged file loads as empty, never throws, and is reported with its specific reason. */
class SnapshotCorruptionTest {
    @TempDir
    Path dir;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private SnapshotStore store;
    private byte[] valid;

    @BeforeEach
    void saveAGoodSnapshot() throws IOException {
        store = SnapshotStore.open(dir, "r", Clock.fixed(Instant.EPOCH, java.time.ZoneOffset.UTC), registry);
        assertThat(store.save(EnvoyResources.gateway(9000))).isEqualTo(SaveOutcome.WRITTEN);
        valid = Files.readAllBytes(store.file());
    }

    @Test
    void aFlippedPayloadByteIsAChecksumMismatch() throws IOException {
        byte[] damaged = valid.clone();
        damaged[valid.length / 2] ^= 0x01;

        assertUnusable(damaged, "checksum mismatch");
    }

    @Test
    void aFlippedChecksumByteIsAChecksumMismatch() throws IOException {
        byte[] damaged = valid.clone();
        damaged[valid.length - 1] ^= (byte) 0x80;

        assertUnusable(damaged, "checksum mismatch");
    }

    @Test
    void aTruncatedFileSaysWhereItEnds() throws IOException {
        assertUnusable(Arrays.copyOf(valid, 100), "truncated at byte 100 (expected " + valid.length + " bytes)");
    }

    @Test
    void aFileCutInsideTheHeaderIsTruncated() throws IOException {
        assertUnusable(Arrays.copyOf(valid, 11), "truncated at byte 11");
    }

    @Test
    void anEmptyFileIsReportedAsEmpty() throws IOException {
        assertUnusable(new byte[0], "empty file");
    }

    @Test
    void garbageHasTheWrongMagic() throws IOException {
        assertUnusable("listeners: []\n".getBytes(java.nio.charset.StandardCharsets.UTF_8), "wrong magic");
    }

    @Test
    void aFileFromANewerFormatIsRecognisedAsSuch() throws IOException {
        byte[] future = valid.clone();
        ByteBuffer.wrap(future).putInt(8, SnapshotCodec.FORMAT_VERSION + 1);

        assertUnusable(future, "unsupported format version 4 (this build reads 1 to 3)");
    }

    @Test
    void trailingBytesAreRejected() throws IOException {
        assertUnusable(Arrays.copyOf(valid, valid.length + 3), "3 unexpected bytes after the checksum");
    }

    @Test
    void anUnknownResourceTypeIsNamed() throws IOException {
        // A well-formed file with a correct checksum, as a build serving more types might write it.
        XdsSnapshot foreign = XdsSnapshot.of(Map.of(
                "type.googleapis.com/google.protobuf.StringValue", Map.of("x", StringValue.of("x"))));
        byte[] file = SnapshotCodec.encode(new StoredSnapshot(foreign, Instant.EPOCH, "other"));

        assertUnusable(file, "unknown resource type type.googleapis.com/google.protobuf.StringValue");
    }

    @Test
    void anUnreadableFileIsReportedNotThrown() throws IOException {
        Files.delete(store.file());
        Files.createDirectory(store.file()); // a directory where the file should be: open works, read fails

        assertThat(store.read()).isInstanceOf(ReadOutcome.Unusable.class);
        assertThat(store.load()).isEmpty();
        assertThat(loadFailures()).isEqualTo(1);
    }

    @Test
    void theUndamagedFileStillLoads() {
        // Guards the cases above: they fail because of the damage, not because the fixture never loads.
        assertThat(store.read()).isInstanceOf(ReadOutcome.Found.class);
        assertThat(loadFailures()).isZero();
    }

    private void assertUnusable(byte[] content, String reason) throws IOException {
        Files.write(store.file(), content);

        assertThat(store.read()).isInstanceOfSatisfying(ReadOutcome.Unusable.class,
                unusable -> assertThat(unusable.reason()).contains(reason));
        assertThat(store.load()).isEmpty();
        assertThat(loadFailures()).isEqualTo(1);
    }

    private double loadFailures() {
        return registry.get("holdfast.snapshot.store.failures").tag("op", "load").counter().count();
    }
}
