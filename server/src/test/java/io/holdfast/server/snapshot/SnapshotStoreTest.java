package io.holdfast.server.snapshot;

import static io.holdfast.server.snapshot.EnvoyResources.CLUSTER;
import static io.holdfast.server.snapshot.EnvoyResources.LISTENER;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.StringValue;
import io.holdfast.testkit.ManualClock;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:15:30.123456789Z");

    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock(T0);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private SnapshotStore open(String replica) {
        return SnapshotStore.open(dir.resolve("state"), replica, clock, registry);
    }

    @Test
    void loadsBackExactlyWhatWasSaved() {
        XdsSnapshot saved = EnvoyResources.gateway(9000);
        SnapshotStore store = open("holdfast-0");

        assertThat(store.save(saved)).isEqualTo(SaveOutcome.WRITTEN);
        StoredSnapshot loaded = store.load().orElseThrow();

        assertThat(loaded.snapshot()).isEqualTo(saved);
        assertThat(loaded.snapshot().version())
                .isEqualTo(saved.version())
                .isEqualTo(XdsSnapshot.contentVersion(loaded.snapshot().resources()));
        assertThat(loaded.snapshot().ofType(LISTENER).get("ingress_http")).isEqualTo(EnvoyResources.listener());
        assertThat(loaded.savedAt()).isEqualTo(T0);
        assertThat(loaded.savedBy()).isEqualTo("holdfast-0");
        assertThat(failures("load") + failures("save")).isZero();
    }

    @Test
    void aRestartedReplicaLoadsWhatTheEarlierProcessSaved() {
        XdsSnapshot saved = EnvoyResources.gateway(9000);
        open("holdfast-0").save(saved);

        Optional<StoredSnapshot> loaded = open("holdfast-0-restarted").load();

        assertThat(loaded).map(StoredSnapshot::snapshot).contains(saved);
        assertThat(loaded).map(StoredSnapshot::savedBy).contains("holdfast-0");
    }

    @Test
    void aTypeWithNoResourcesSurvivesTheRoundTrip() {
        // An empty group still counts towards the content version, so dropping it would change the version.
        XdsSnapshot saved = XdsSnapshot.of(Map.of(CLUSTER, Map.of(), LISTENER, Map.of("l", EnvoyResources.listener())));
        SnapshotStore store = open("r");
        store.save(saved);

        assertThat(store.load()).map(StoredSnapshot::snapshot).contains(saved);
        assertThat(store.load().orElseThrow().snapshot().resources()).containsKey(CLUSTER);
    }

    @Test
    void anEmptySnapshotRoundTrips() {
        SnapshotStore store = open("r");
        store.save(XdsSnapshot.empty());

        assertThat(store.load()).map(StoredSnapshot::snapshot).contains(XdsSnapshot.empty());
    }

    @Test
    void anUnchangedVersionIsNotRewritten() throws IOException {
        SnapshotStore store = open("r");
        XdsSnapshot first = EnvoyResources.gateway(9000);
        store.save(first);
        Object inode = Files.readAttributes(store.file(), BasicFileAttributes.class).fileKey();
        clock.advance(Duration.ofMinutes(5));

        assertThat(store.save(EnvoyResources.gateway(9000))).isEqualTo(SaveOutcome.UNCHANGED);
        assertThat(Files.readAttributes(store.file(), BasicFileAttributes.class).fileKey()).isEqualTo(inode);
        assertThat(store.load().orElseThrow().savedAt()).isEqualTo(T0);

        // A real change is written (as a new file renamed into place), stamped with the current time.
        assertThat(store.save(EnvoyResources.gateway(9001))).isEqualTo(SaveOutcome.WRITTEN);
        assertThat(Files.readAttributes(store.file(), BasicFileAttributes.class).fileKey()).isNotEqualTo(inode);
        assertThat(store.load().orElseThrow().savedAt()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
    }

    @Test
    void equalContentGivesIdenticalFiles() throws IOException {
        SnapshotStore a = SnapshotStore.open(dir.resolve("a"), "r", clock, registry);
        SnapshotStore b = SnapshotStore.open(dir.resolve("b"), "r", clock, registry);
        a.save(EnvoyResources.gateway(9000));
        b.save(EnvoyResources.gateway(9000));

        assertThat(Files.readAllBytes(a.file())).isEqualTo(Files.readAllBytes(b.file()));
    }

    @Test
    void aMissingFileLoadsEmptyAndIsNoFailure() {
        SnapshotStore store = open("r");

        assertThat(store.read()).isInstanceOf(ReadOutcome.Missing.class);
        assertThat(store.load()).isEmpty();
        assertThat(failures("load")).isZero();
    }

    @Test
    void aSnapshotWithATypeHoldfastDoesNotServeIsRefusedAndTheOldFileKept() {
        SnapshotStore store = open("r");
        XdsSnapshot good = EnvoyResources.gateway(9000);
        store.save(good);
        XdsSnapshot foreign = XdsSnapshot.of(Map.of(
                "type.googleapis.com/google.protobuf.StringValue", Map.of("x", StringValue.of("x"))));

        assertThat(store.save(foreign)).isEqualTo(SaveOutcome.FAILED);
        assertThat(failures("save")).isEqualTo(1);
        assertThat(store.load()).map(StoredSnapshot::snapshot).contains(good);
    }

    @Test
    void aMessageFiledUnderTheWrongTypeIsRefused() {
        SnapshotStore store = open("r");
        XdsSnapshot mislabelled = XdsSnapshot.of(Map.of(CLUSTER, Map.of("l", EnvoyResources.listener())));

        assertThat(store.save(mislabelled)).isEqualTo(SaveOutcome.FAILED);
        assertThat(store.load()).isEmpty();
    }

    @Test
    void anInterruptedSaveLeavesTheOldSnapshotAndItsTempFileIsRemovedOnOpen() throws IOException {
        XdsSnapshot old = EnvoyResources.gateway(9000);
        SnapshotStore first = open("r");
        first.save(old);
        // What a crash between "write temp file" and "rename" leaves behind: a partial newer file.
        byte[] newer = SnapshotCodec.encode(new StoredSnapshot(EnvoyResources.gateway(9001), T0, "r"));
        Path stray = first.file().resolveSibling(SnapshotStore.FILE_NAME + ".4711.tmp");
        Files.write(stray, java.util.Arrays.copyOf(newer, newer.length / 2));
        Path unrelated = Files.writeString(first.file().resolveSibling("notes.txt"), "keep me");

        SnapshotStore reopened = open("r");

        assertThat(stray).doesNotExist();
        assertThat(unrelated).exists();
        assertThat(reopened.load()).map(StoredSnapshot::snapshot).contains(old);
    }

    @Test
    void savingLeavesNoTempFilesBehind() throws IOException {
        SnapshotStore store = open("r");
        store.save(EnvoyResources.gateway(9000));
        store.save(EnvoyResources.gateway(9001));

        try (var files = Files.list(store.file().getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(SnapshotStore.FILE_NAME);
        }
    }

    private double failures(String op) {
        return registry.get("holdfast.snapshot.store.failures").tag("op", op).counter().count();
    }
}
