package io.holdfast.server.snapshot;

import io.holdfast.api.ResourceKey;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import javax.crypto.SecretKey;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the last xDS snapshot in one file, {@value #FILE_NAME}, in a directory owned by this replica.
 *
 * <p>{@link #save} replaces the file atomically (temp file in the same directory, fsync, rename, fsync of the
 * directory), so a reader or a crash sees the old file or the new one, never a mix. {@link #load} verifies a
 * checksum and parses only the four Envoy types Holdfast serves; any problem yields empty plus a WARN naming
 * the reason. Failures of either are counted in {@code holdfast_snapshot_store_failures_total{op}}.
 *
 * <p>Private keys never reach the file in clear text: SDS Secrets are sealed with the snapshot key, or left out
 * without one ({@link SecretSealing}).
 *
 * <p>Thread-safe: saves are serialised; loads need no lock because the rename is atomic. One store per
 * directory: stray temp files are deleted on {@link #open}, which would break a second writer.
 */
public final class SnapshotStore {
    static final String FILE_NAME = "xds-snapshot.bin";
    private static final String TEMP_PREFIX = FILE_NAME + ".";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStore.class);

    private final Path directory;
    private final Path file;
    private final String replica;
    private final Clock clock;
    private final FailureStreak saveFailures;
    private final FailureStreak loadFailures;
    private final Object saveLock = new Object();
    private String lastSavedVersion; // guarded by saveLock; only a successful save sets it
    private SortedMap<ResourceKey, Instant> lastSavedFirstServed = new TreeMap<>(); // guarded by saveLock; likewise
    private final SecretSealing sealing;

    private SnapshotStore(Path directory, String replica, Clock clock, MeterRegistry registry,
            Optional<SecretKey> key) {
        this.sealing = new SecretSealing(key, new SecureRandom());
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME);
        this.replica = replica;
        this.clock = clock;
        this.saveFailures = new FailureStreak("save", registry);
        this.loadFailures = new FailureStreak("load", registry);
    }

    /**
     * Registers the store's failure counters at 0 for a replica without a snapshot directory: nothing is stored,
     * so nothing fails, and the series still exist for dashboards.
     */
    public static void registerMeters(MeterRegistry registry) {
        new FailureStreak("save", registry);
        new FailureStreak("load", registry);
    }

    /**
     * Opens (creating if needed) the store in {@code dir} and deletes temp files left by interrupted saves.
     *
     * @param replica identity of this replica, recorded as {@link StoredSnapshot#savedBy} (e.g. the pod name)
     * @throws IllegalArgumentException naming the path and the cause if {@code dir} cannot be created or written,
     *                                  or if {@code replica} is blank
     */
    public static SnapshotStore open(Path dir, String replica, Clock clock, MeterRegistry registry) {
        return open(dir, replica, clock, registry, Optional.empty());
    }

    /**
     * As {@link #open(Path, String, Clock, MeterRegistry)}, sealing SDS Secrets with {@code key} (AES-256-GCM);
     * without a key they are left out of the file ({@link SecretSealing}).
     */
    public static SnapshotStore open(Path dir, String replica, Clock clock, MeterRegistry registry,
            Optional<SecretKey> key) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(replica, "replica");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(registry, "registry");
        if (replica.isBlank()) {
            throw new IllegalArgumentException("replica must not be blank");
        }
        Path directory = dir.toAbsolutePath();
        try {
            Files.createDirectories(directory);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalArgumentException("snapshot directory " + directory + " cannot be used: it exists and is not a directory", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("snapshot directory " + directory + " cannot be created: " + IoErrors.describe(e), e);
        }
        removeStrayTempFiles(directory);
        try {
            Files.delete(Files.createTempFile(directory, TEMP_PREFIX, TEMP_SUFFIX));
        } catch (IOException e) {
            throw new IllegalArgumentException("snapshot directory " + directory + " is not writable: " + IoErrors.describe(e), e);
        }
        return new SnapshotStore(directory, replica, clock, registry, key);
    }

    /** The snapshot file (it may not exist yet). */
    public Path file() {
        return file;
    }

    /**
     * Persists {@code snapshot} unless its version equals the last one this store wrote. Never throws on I/O
     * failure: it returns {@link SaveOutcome#FAILED}, logs and counts, and leaves the previous file intact.
     * A snapshot holding a type other than Listener, RouteConfiguration, Cluster, ClusterLoadAssignment fails too.
     */
    public SaveOutcome save(XdsSnapshot snapshot) {
        return save(snapshot, new TreeMap<>());
    }

    /**
     * As {@link #save(XdsSnapshot)}, with file mode's first-served times ({@link StoredSnapshot#firstServed}):
     * written unless both the version and the times equal the last ones this store wrote.
     */
    public SaveOutcome save(XdsSnapshot snapshot, SortedMap<ResourceKey, Instant> firstServed) {
        Objects.requireNonNull(snapshot, "snapshot");
        Objects.requireNonNull(firstServed, "firstServed");
        synchronized (saveLock) {
            if (snapshot.version().equals(lastSavedVersion) && firstServed.equals(lastSavedFirstServed)) {
                return SaveOutcome.UNCHANGED;
            }
            Optional<String> unsupported = ResourceTypes.unsupported(snapshot);
            if (unsupported.isPresent()) {
                saveFailures.failed(file, unsupported.get());
                return SaveOutcome.FAILED;
            }
            try {
                byte[] bytes = SnapshotCodec.encode(new StoredSnapshot(sealing.forStorage(snapshot), clock.instant(),
                        replica, firstServed));
                writeAtomically(bytes);
                lastSavedVersion = snapshot.version();
                lastSavedFirstServed = new TreeMap<>(firstServed);
                saveFailures.succeeded(file);
                LOG.debug("snapshot saved path={} version={} bytes={}", file, snapshot.version(), bytes.length);
                return SaveOutcome.WRITTEN;
            } catch (IOException | RuntimeException e) {
                // Persistence is a fallback: it must never take serving down with it.
                saveFailures.failed(file, IoErrors.describe(e));
                return SaveOutcome.FAILED;
            }
        }
    }

    /**
     * Reads the stored snapshot. Empty if there is none (INFO) or it cannot be used: unreadable, truncated,
     * corrupt, from a newer format, or holding an unknown type (WARN with the reason). Never throws.
     */
    public Optional<StoredSnapshot> load() {
        ReadOutcome outcome = read();
        if (outcome instanceof ReadOutcome.Found found) {
            loadFailures.succeeded(file);
            SecretSealing.Loaded opened = sealing.fromStorage(found.stored().snapshot());
            opened.secretsDropped().ifPresent(why -> LOG.warn("snapshot secrets left out path={} reason={}; TLS"
                    + " listeners wait for their secrets from the config source", file, why));
            StoredSnapshot stored = new StoredSnapshot(opened.snapshot(), found.stored().savedAt(),
                    found.stored().savedBy(), found.stored().firstServed());
            int resources = stored.snapshot().resources().values().stream().mapToInt(Map::size).sum();
            LOG.info("snapshot loaded path={} version={} savedAt={} savedBy={} resources={}", file,
                    stored.snapshot().version(), stored.savedAt(), stored.savedBy(), resources);
            return Optional.of(stored);
        }
        if (outcome instanceof ReadOutcome.Unusable unusable) {
            loadFailures.failed(file, unusable.reason());
        } else {
            loadFailures.succeeded(file);
            LOG.info("no stored snapshot path={}", file);
        }
        return Optional.empty();
    }

    /** {@link #load} without logging or counting: what is in the file and, if unusable, why. */
    ReadOutcome read() {
        byte[] bytes;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            // Size and content come from the one open file, even if a save renames a new one in meanwhile.
            long size = channel.size();
            long limit = SnapshotCodec.HEADER_BYTES + SnapshotCodec.MAX_PAYLOAD_BYTES + SnapshotCodec.CHECKSUM_BYTES;
            if (size > limit) {
                return new ReadOutcome.Unusable("file of " + size + " bytes is larger than the limit of " + limit);
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // each read makes progress or reports end of file
            }
            bytes = Arrays.copyOf(buffer.array(), buffer.position());
        } catch (NoSuchFileException e) {
            return new ReadOutcome.Missing();
        } catch (IOException | RuntimeException e) {
            return new ReadOutcome.Unusable(IoErrors.describe(e));
        }
        try {
            return new ReadOutcome.Found(SnapshotCodec.decode(bytes));
        } catch (SnapshotFormatException e) {
            return new ReadOutcome.Unusable(e.getMessage());
        }
    }

    private void writeAtomically(byte[] bytes) throws IOException {
        Path temp = Files.createTempFile(directory, TEMP_PREFIX, TEMP_SUFFIX);
        boolean renamed = false;
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            renamed = true;
        } finally {
            if (!renamed) {
                deleteQuietly(temp);
            }
        }
        forceDirectory();
    }

    /** Makes the rename itself durable. Linux allows fsync on a directory; platforms that refuse are ignored. */
    private void forceDirectory() {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            LOG.debug("directory fsync not supported path={} reason={}", directory, IoErrors.describe(e));
        }
    }

    private static void removeStrayTempFiles(Path directory) {
        try (DirectoryStream<Path> strays = Files.newDirectoryStream(directory, TEMP_PREFIX + "*" + TEMP_SUFFIX)) {
            for (Path stray : strays) {
                if (deleteQuietly(stray)) {
                    LOG.info("removed temp file of an interrupted snapshot save path={}", stray);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not list snapshot directory for stray temp files path={} reason={}", directory,
                    IoErrors.describe(e));
        }
    }

    private static boolean deleteQuietly(Path path) {
        try {
            return Files.deleteIfExists(path);
        } catch (IOException e) {
            LOG.warn("could not delete snapshot temp file path={} reason={}", path, IoErrors.describe(e));
            return false;
        }
    }
}
