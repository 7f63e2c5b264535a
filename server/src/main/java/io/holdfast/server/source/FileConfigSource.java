package io.holdfast.server.source;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.ManifestError;
import io.holdfast.pipeline.ConfigPipeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns each read of the config directory into one pipeline run. A file that is malformed (bad YAML) or
 * unreadable keeps contributing its last good text, so a half-saved edit never takes routes away; its
 * errors are still reported with file, line and reason. A file never seen good is left out until it is.
 * PEM files go to the config as they are, under their file keys ({@link TlsSecretData#fileKey}, the path relative to
 * the directory): whether they are good is the front end's call, which keeps serving the last good certificate.
 * Objects without a creationTimestamp get their first-served time as one ({@link FirstServedOrder}), so "older wins"
 * means first served, never first in the alphabet.
 */
public final class FileConfigSource implements ConfigFilesListener {
  private final ConfigPipeline pipeline;
  private final ConfigLoader loader = new ConfigLoader();
  private final Map<Path, String> lastGood = new HashMap<>();
  private final FirstServedOrder ages;
  private final Runnable agesChanged;
  /** Where each resource of the latest read was declared; replaced whole by the watcher's thread. */
  private volatile Map<io.holdfast.api.ResourceKey, List<ConfigLoader.Location>> locations = Map.of();

  /**
   * @param agesChanged called after a build that gave an object its first-served time or forgot one, on the
   *                    watcher's thread (to store the times even when the snapshot did not change)
   */
  public FileConfigSource(ConfigPipeline pipeline, FirstServedOrder ages, Runnable agesChanged) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.ages = Objects.requireNonNull(ages, "ages");
    this.agesChanged = Objects.requireNonNull(agesChanged, "agesChanged");
  }

  @Override
  public void onConfigFiles(ConfigFiles files) {
    List<ConfigLoader.Source> sources = new ArrayList<>();
    List<ManifestError> errors = new ArrayList<>();
    Map<Path, String> good = new HashMap<>();
    files.contents().forEach((path, text) -> {
      List<ManifestError> own = loader.load(List.of(new ConfigLoader.Source(path.toString(), text)), Map.of()).errors();
      if (own.isEmpty()) {
        good.put(path, text);
        sources.add(new ConfigLoader.Source(path.toString(), text));
        return;
      }
      errors.addAll(own);
      keepLastGood(path, sources, errors, "it has errors");
    });
    for (FileProblem problem : files.unreadable()) {
      errors.add(new ManifestError(problem.path().toString(), 1, 1, "unreadable: " + problem.reason()));
      keepLastGood(problem.path(), sources, errors, "it could not be read");
    }
    lastGood.keySet().retainAll(merge(good.keySet(), sources));
    lastGood.putAll(good);
    // The loader remembers parses by file; a deleted file's (up to 8 MiB of text, several times that as a tree)
    // would otherwise stay in the heap.
    java.util.Set<String> present = new java.util.HashSet<>();
    files.contents().keySet().forEach(path -> present.add(path.toString()));
    files.unreadable().forEach(problem -> present.add(problem.path().toString()));
    loader.retainOnly(present);
    ConfigLoader.Loaded loaded = loader.load(sources, Map.of());
    locations = loaded.locations();
    GatewayConfig.Builder config = loaded.config().toBuilder();
    files.tlsFiles().forEach((path, text) -> config.secret(TlsSecretData.fileKey(path), TlsSecretData.file(text)));
    java.util.SortedMap<io.holdfast.api.ResourceKey, java.time.Instant> before = ages.current();
    pipeline.apply(ages.stamp(config.build()), errors);
    if (!ages.current().equals(before)) {
      agesChanged.run();
    }
  }

  /** Where {@code key} was declared in the latest read (file and first line); empty if no document named it. */
  public List<ConfigLoader.Location> locationsOf(io.holdfast.api.ResourceKey key) {
    return locations.getOrDefault(key, List.of());
  }

  private void keepLastGood(Path path, List<ConfigLoader.Source> sources, List<ManifestError> errors, String why) {
    String previous = lastGood.get(path);
    if (previous != null) {
      sources.add(new ConfigLoader.Source(path.toString(), previous));
      errors.add(new ManifestError(path.toString(), 1, 1, "serving this file's last good version because " + why));
    }
  }

  private static java.util.Set<Path> merge(java.util.Set<Path> good, List<ConfigLoader.Source> used) {
    java.util.Set<Path> keep = new java.util.HashSet<>(good);
    used.forEach(s -> keep.add(Path.of(s.name())));
    return keep;
  }
}
