package io.holdfast.server.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotStoreConcurrencyTest {
    private static final int WRITERS = 4;
    private static final int SAVES_PER_WRITER = 20;
    private static final int READERS = 2;
    private static final int MAX_READS_PER_READER = 200_000;

    @TempDir
    Path dir;

    @Test
    void loadsInterleavedWithSavesFromFourThreadsNeverSeeATornFile() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SnapshotStore store = SnapshotStore.open(dir, "r", Clock.systemUTC(), registry);
        // Every snapshot any writer will save, by version: a read must match one of them exactly.
        Map<String, XdsSnapshot> byVersion = IntStream.range(0, WRITERS * SAVES_PER_WRITER)
                .mapToObj(i -> EnvoyResources.gateway(10_000 + i))
                .collect(Collectors.toMap(XdsSnapshot::version, Function.identity()));
        assertThat(byVersion).hasSize(WRITERS * SAVES_PER_WRITER);
        store.save(EnvoyResources.gateway(10_000));

        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger writersLeft = new AtomicInteger(WRITERS);
        Set<String> versionsSeen = ConcurrentHashMap.newKeySet();
        List<String> bad = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Future<?>> tasks = new ArrayList<>();
        try {
            for (int w = 0; w < WRITERS; w++) {
                int first = w * SAVES_PER_WRITER;
                tasks.add(pool.submit(() -> {
                    start.await();
                    for (int i = first; i < first + SAVES_PER_WRITER; i++) {
                        store.save(EnvoyResources.gateway(10_000 + i));
                    }
                    writersLeft.decrementAndGet();
                    return null;
                }));
            }
            for (int r = 0; r < READERS; r++) {
                tasks.add(pool.submit(() -> {
                    start.await();
                    for (int n = 0; n < MAX_READS_PER_READER && writersLeft.get() > 0; n++) {
                        ReadOutcome outcome = store.read();
                        if (outcome instanceof ReadOutcome.Found found) {
                            XdsSnapshot read = found.stored().snapshot();
                            versionsSeen.add(read.version());
                            if (!read.equals(byVersion.get(read.version()))) {
                                bad.add("content differs from what was saved as " + read.version());
                            }
                        } else {
                            bad.add(outcome.toString());
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> task : tasks) {
                task.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(bad).isEmpty();
        assertThat(versionsSeen).as("readers saw saves happen").hasSizeGreaterThan(1);
        assertThat(byVersion).containsKey(store.load().orElseThrow().snapshot().version());
        assertThat(registry.get("holdfast.snapshot.store.failures").tag("op", "save").counter().count()).isZero();
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(store.file());
        }
    }
}
