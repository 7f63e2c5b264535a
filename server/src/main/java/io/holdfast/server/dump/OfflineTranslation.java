package io.holdfast.server.dump;

import io.holdfast.api.ManifestError;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.BuildOutcome;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.source.ConfigPaths;
import io.holdfast.server.source.FileConfigSource;
import io.holdfast.server.source.FirstServedOrder;
import io.holdfast.xds.server.XdsCache;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * A config directory translated as {@code holdfast serve --config-dir} would on its first read: the same reader
 * ({@link ConfigPaths}), the same source ({@link FileConfigSource}), the same pipeline ({@link ConfigPipeline}:
 * front ends, IR, translation) into an {@link XdsCache} of its own. Nothing is started and nothing listens; the
 * snapshot is what a freshly started server with these settings would serve.
 *
 * @param snapshot       the snapshot served; empty when the build failed (see {@code lastBuild})
 * @param rejected       resources left out, with their one-line statuses
 * @param manifestErrors files or documents that could not be read
 * @param lastBuild      the build's outcome (failures of Holdfast itself, contained)
 */
public record OfflineTranslation(Optional<XdsSnapshot> snapshot, List<String> rejected,
    List<ManifestError> manifestErrors, Optional<BuildOutcome> lastBuild) {

  public OfflineTranslation {
    rejected = List.copyOf(rejected);
    manifestErrors = List.copyOf(manifestErrors);
  }

  /** Translates {@code directory} with {@code settings} (the server's pipeline settings). */
  public static OfflineTranslation of(Path directory, PipelineSettings settings, Clock clock) throws IOException {
    XdsCache cache = new XdsCache();
    StatusBoard board = new StatusBoard();
    ConfigPipeline pipeline = new ConfigPipeline(cache, board, clock, new SimpleMeterRegistry(), t -> { },
        settings);
    try (QuietLogs quiet = QuietLogs.quiet()) {
      new FileConfigSource(pipeline, new FirstServedOrder(clock), () -> { })
          .onConfigFiles(ConfigPaths.readDirectory(directory, clock));
    }
    Optional<StatusBoard.Build> build = board.current();
    List<String> rejected = build.map(b -> b.statuses().entrySet().stream()
        .filter(e -> e.getValue().state() == ResourceStatus.State.REJECTED)
        .map(e -> e.getKey() + ": " + e.getValue().problems().stream().map(Object::toString).findFirst()
            .orElse("rejected")).toList()).orElse(List.of());
    return new OfflineTranslation(cache.currentSnapshot(), rejected,
        build.map(StatusBoard.Build::manifestErrors).orElse(List.of()), board.lastOutcome());
  }
}
