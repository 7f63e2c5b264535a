package io.holdfast.pipeline;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.xds.server.XdsCache;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source-independent half of the data flow: config -> front end -> IR -> translation -> snapshot. Sources
 * (files, Kubernetes) hand it a whole {@link GatewayConfig}; {@link ConfigCheck} lowers it through the Holdfast
 * front end into an IR builder, and the pipeline publishes one snapshot to the xDS cache and one
 * {@link StatusBoard.Build}.
 * Not thread-safe by design: one source thread calls {@link #apply}, in order.
 *
 * <p>Nothing here discards the last good config: a rejected resource keeps serving its last accepted version
 * (the front end's last-good memory), and a failure anywhere leaves the previous snapshot in place.
 */
public final class ConfigPipeline {
  private static final Logger log = LoggerFactory.getLogger(ConfigPipeline.class);

  /** Where a built snapshot is served: {@link XdsCache#setSnapshot} in production. */
  @FunctionalInterface
  interface SnapshotTarget {
    /** Serves {@code snapshot}; false, having done nothing, if a snapshot of that version is already served. */
    boolean setSnapshot(XdsSnapshot snapshot);
  }

  private final SnapshotTarget cache;
  private final StatusBoard board;
  private final Clock clock;
  private final Consumer<Translation> onNewSnapshot;
  private final ConfigCheck check;
  private final Translator translator = new Translator();
  private final Timer buildTimer;
  /** The config of the latest {@link #apply}, for readers on other threads (the admission webhook). */
  private volatile GatewayConfig currentInput;

  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot) {
    this(cache, board, clock, registry, onNewSnapshot, GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME);
  }

  /** As above; the Gateway API front end programs the GatewayClasses naming {@code gatewayControllerName}. */
  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, String gatewayControllerName) {
    this(cache, board, clock, registry, onNewSnapshot, gatewayControllerName, InputLimits.DEFAULTS);
  }

  /** As above; the front ends check against {@code limits}. */
  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, String gatewayControllerName, InputLimits limits) {
    this(Objects.requireNonNull(cache, "cache")::setSnapshot, board, clock, registry, onNewSnapshot,
        new ConfigCheck(Objects.requireNonNull(gatewayControllerName, "gatewayControllerName"), limits));
  }

  ConfigPipeline(SnapshotTarget cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot) {
    this(cache, board, clock, registry, onNewSnapshot, GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME);
  }

  ConfigPipeline(SnapshotTarget cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, String gatewayControllerName) {
    this(cache, board, clock, registry, onNewSnapshot,
        new ConfigCheck(Objects.requireNonNull(gatewayControllerName, "gatewayControllerName")));
  }

  private ConfigPipeline(SnapshotTarget cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, ConfigCheck check) {
    this.check = check;
    this.cache = Objects.requireNonNull(cache, "cache");
    this.board = Objects.requireNonNull(board, "board");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.onNewSnapshot = Objects.requireNonNull(onNewSnapshot, "onNewSnapshot");
    this.buildTimer = Timer.builder("holdfast.snapshot.build")
        .description("Time to validate and translate the config into a snapshot")
        .register(registry);
  }

  /** Validates, translates and publishes {@code config}; returns whether the served snapshot changed. */
  public boolean apply(GatewayConfig config, List<ManifestError> manifestErrors) {
    currentInput = Objects.requireNonNull(config, "config");
    try {
      long start = System.nanoTime();
      ConfigCheck.Result checked = check.run(config);
      Translation translation = translator.translate(checked.built().ir());
      SortedMap<ResourceKey, ResourceStatus> statuses = checked.statuses();
      buildTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
      // Served first, then shown: a proxy may NACK the new version before the board learns it, and the board
      // keeps such a NACK for the version it is about to be told (StatusBoard.onNack).
      boolean changed = cache.setSnapshot(translation.snapshot());
      board.publish(new StatusBoard.Build(translation.snapshot().version(), clock.instant(), statuses,
          manifestErrors, translation, gatewayApiStatuses(config, checked)));
      logVerdicts(statuses, manifestErrors, translation, changed);
      if (changed) {
        onNewSnapshot.accept(translation);
      }
      return changed;
    } catch (RuntimeException e) {
      // A bug in the front end or translation must not take serving down: keep the last snapshot.
      log.error("config build failed; still serving the previous snapshot", e);
      return false;
    }
  }

  /**
   * The full statuses of the Gateway API's objects, plus an empty one (no parents) for every route (of every route
   * kind, {@link io.holdfast.api.GatewayApiKinds#ROUTES}) the front end
   * reported nothing on: a route that no longer names any of Holdfast's Gateways must lose the parent entries
   * Holdfast wrote on it before, and the status writer removes those it finds (others' entries stay).
   */
  static SortedMap<ResourceKey, ObjectStatus> gatewayApiStatuses(GatewayConfig config, ConfigCheck.Result checked) {
    SortedMap<ResourceKey, ObjectStatus> out = checked.gatewayApiStatuses();
    for (ApiObject object : config.apiObjectsOf(GatewayApiFrontEnd.GROUP)) {
      if (io.holdfast.api.GatewayApiKinds.isRoute(object.key()) && !out.containsKey(object.key())) {
        out.put(object.key(), ObjectStatus.of(object.key(), object.generation(), List.of()));
      }
    }
    return out;
  }

  /**
   * The config this pipeline was last given, whether or not its build succeeded: the replica's current view
   * of its input, before validation. Empty until the first {@link #apply}. Safe to call from any thread.
   */
  public java.util.Optional<GatewayConfig> currentInput() {
    return java.util.Optional.ofNullable(currentInput);
  }

  private static void logVerdicts(Map<ResourceKey, ResourceStatus> statuses, List<ManifestError> errors,
      Translation t, boolean changed) {
    Map<ResourceStatus.State, Long> counts = statuses.values().stream()
        .collect(java.util.stream.Collectors.groupingBy(ResourceStatus::state, java.util.stream.Collectors.counting()));
    log.info("config built version={} changed={} accepted={} warning={} rejected={} manifestErrors={} resources={}",
        t.snapshot().version(), changed, counts.getOrDefault(ResourceStatus.State.ACCEPTED, 0L),
        counts.getOrDefault(ResourceStatus.State.WARNING, 0L), counts.getOrDefault(ResourceStatus.State.REJECTED, 0L),
        errors.size(), t.origins().size());
    statuses.values().stream().filter(s -> s.state() != ResourceStatus.State.ACCEPTED).forEach(s ->
        log.warn("resource {} {}: {}", s.key(), s.state(), s.problems()));
    errors.forEach(e -> log.warn("manifest error {}", e));
  }
}
