package io.holdfast.server.snapshot;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts every failure of one store operation but warns only on the first of a streak: a broken disk would
 * otherwise log on every config change. The next success ends the streak (logged at INFO).
 */
final class FailureStreak {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStore.class);

    private final String op;
    private final Counter failures;
    private boolean failing; // guarded by this

    FailureStreak(String op, MeterRegistry registry) {
        this.op = op;
        this.failures = Counter.builder("holdfast.snapshot.store.failures")
                .description("Failed saves and loads of the on-disk last-known xDS snapshot")
                .tag("op", op)
                .register(registry);
    }

    /** @return whether this failure started a streak (and so was logged at WARN) */
    synchronized boolean failed(Path path, String reason) {
        failures.increment();
        if (failing) {
            LOG.debug("snapshot {} failed again path={} reason={}", op, path, reason);
            return false;
        }
        failing = true;
        LOG.warn("snapshot {} failed path={} reason={} (repeats are counted, not logged, until one succeeds)",
                op, path, reason);
        return true;
    }

    synchronized void succeeded(Path path) {
        if (failing) {
            failing = false;
            LOG.info("snapshot {} succeeded again after failures path={}", op, path);
        }
    }
}
