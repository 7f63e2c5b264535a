package io.holdfast.server.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Disks that refuse. Tests run as root, which ignores permission bits, so a regular file where the directory
 * should be stands in for a read-only or broken directory.
 */
class SnapshotStoreFailureTest {
    @TempDir
    Path dir;
    private final Clock clock = Clock.systemUTC();

    @Test
    void openingOnARegularFileNamesThePathAndWhy() throws IOException {
        Path notADir = Files.writeString(dir.resolve("state"), "x");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> SnapshotStore.open(notADir, "r", clock, new SimpleMeterRegistry()))
                .withMessageContaining(notADir.toString())
                .withMessageContaining("not a directory");
    }

    @Test
    void openingBelowARegularFileNamesThePathAndWhy() throws IOException {
        Path parent = Files.writeString(dir.resolve("file"), "x");
        Path below = parent.resolve("state");

        assertThatIllegalArgumentException()
                .isThrownBy(() -> SnapshotStore.open(below, "r", clock, new SimpleMeterRegistry()))
                .withMessageContaining(below.toString())
                .withMessageContaining("cannot be");
    }

    @Test
    void aBlankReplicaIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> SnapshotStore.open(dir, " ", clock, new SimpleMeterRegistry()))
                .withMessageContaining("replica");
    }

    @Test
    void aSaveThatCannotWriteFailsWithoutThrowingAndIsRetriedOnceTheDiskRecovers() throws IOException {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Path state = dir.resolve("state");
        SnapshotStore store = SnapshotStore.open(state, "r", clock, registry);
        Files.delete(state);
        Files.writeString(state, "the directory is gone");
        XdsSnapshot snapshot = EnvoyResources.gateway(9000);

        assertThat(store.save(snapshot)).isEqualTo(SaveOutcome.FAILED);
        assertThat(store.save(snapshot)).isEqualTo(SaveOutcome.FAILED); // not "unchanged": nothing was written
        assertThat(failures(registry, "save")).isEqualTo(2);
        assertThat(store.load()).isEmpty();

        Files.delete(state);
        Files.createDirectory(state);
        assertThat(store.save(snapshot)).isEqualTo(SaveOutcome.WRITTEN);
        assertThat(store.load()).map(StoredSnapshot::snapshot).contains(snapshot);
    }

    @Test
    void onlyTheFirstFailureOfAStreakWarns() {
        FailureStreak streak = new FailureStreak("save", new SimpleMeterRegistry());
        Path path = dir.resolve("x");

        assertThat(streak.failed(path, "disk full")).isTrue();
        assertThat(streak.failed(path, "disk full")).isFalse();
        streak.succeeded(path);
        assertThat(streak.failed(path, "disk full")).isTrue();
    }

    @Test
    void failuresAreExportedUnderThePrometheusName() throws IOException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        SnapshotStore store = SnapshotStore.open(dir, "r", clock, registry);
        Files.write(store.file(), new byte[] {1, 2, 3});

        store.load();

        assertThat(registry.scrape())
                .contains("holdfast_snapshot_store_failures_total{op=\"load\"} 1.0")
                .contains("holdfast_snapshot_store_failures_total{op=\"save\"} 0.0");
    }

    private static double failures(MeterRegistry registry, String op) {
        return registry.get("holdfast.snapshot.store.failures").tag("op", op).counter().count();
    }
}
