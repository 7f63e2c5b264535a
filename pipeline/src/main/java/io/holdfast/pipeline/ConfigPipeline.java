package io.holdfast.pipeline;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.xds.server.XdsCache;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import io.micrometer.core.instrument.Counter;
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
 * (the front end's last-good memory), a failure of Holdfast in one front end or IR element costs only the objects
 * involved ({@link ConfigCheck}), and a failure in translation leaves the previous snapshot in place.
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
  /** Prometheus: {@code holdfast_config_build_failures_total{stage}}. */
  static final String BUILD_FAILURES = "holdfast.config.build.failures";
  private final java.util.Map<BuildProblem.Stage, Counter> failures = new java.util.EnumMap<>(BuildProblem.Stage.class);
  /** The config of the latest {@link #apply}, for readers on other threads (the admission webhook). */
  private volatile GatewayConfig currentInput;
  /** The verdicts and manifest errors the last build logged ({@link #logVerdicts}); each guarded by itself. */
  private final Map<ResourceKey, ResourceStatus> loggedVerdicts = new java.util.HashMap<>();
  private final java.util.Set<ManifestError> loggedErrors = new java.util.HashSet<>();
  /** Verdict lines logged per build at most: log volume stays bounded whatever the config holds. */
  static final int MAX_VERDICT_LINES = 100;

  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot) {
    this(cache, board, clock, registry, onNewSnapshot, PipelineSettings.DEFAULTS);
  }

  /** As above; the Gateway API front end programs the GatewayClasses naming {@code gatewayControllerName}. */
  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, String gatewayControllerName) {
    this(cache, board, clock, registry, onNewSnapshot, new PipelineSettings(gatewayControllerName));
  }

  /** As above, with the front ends configured by {@code settings} (the same value validate and the webhook use). */
  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, PipelineSettings settings) {
    this(Objects.requireNonNull(cache, "cache")::setSnapshot, board, clock, registry, onNewSnapshot,
        new ConfigCheck(settings));
  }

  /** As above, with a given check (see {@link ConfigCheck#of}). */
  public ConfigPipeline(XdsCache cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, ConfigCheck check) {
    this(Objects.requireNonNull(cache, "cache")::setSnapshot, board, clock, registry, onNewSnapshot, check);
  }

  ConfigPipeline(SnapshotTarget cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot) {
    this(cache, board, clock, registry, onNewSnapshot, new ConfigCheck(PipelineSettings.DEFAULTS));
  }

  ConfigPipeline(SnapshotTarget cache, StatusBoard board, Clock clock, MeterRegistry registry,
      Consumer<Translation> onNewSnapshot, ConfigCheck check) {
    this.check = Objects.requireNonNull(check, "check");
    this.cache = Objects.requireNonNull(cache, "cache");
    this.board = Objects.requireNonNull(board, "board");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.onNewSnapshot = Objects.requireNonNull(onNewSnapshot, "onNewSnapshot");
    this.buildTimer = Timer.builder("holdfast.snapshot.build")
        .description("Time to validate and translate the config into a snapshot")
        .register(registry);
    for (BuildProblem.Stage stage : BuildProblem.Stage.values()) {
      // Registered at 0 from the start, so an alert on an increase sees the first failure.
      failures.put(stage, Counter.builder(BUILD_FAILURES)
          .description("Failures of Holdfast itself contained in a config build, by stage: objects left out or"
              + " standing in from a last good build (frontend, ir), or a build not served (translate, publish)")
          .tag("stage", stage.label())
          .register(registry));
    }
  }

  /**
   * Validates, translates and publishes {@code config}; returns whether the served snapshot changed. Never throws
   * (short of an error that leaves the JVM unsound): a failure of a front end or the IR builder is contained by
   * {@link ConfigCheck}; one of translation or publication keeps the previous snapshot served. Each is counted
   * in {@value #BUILD_FAILURES} and is the {@link StatusBoard#lastOutcome() last outcome} until a build succeeds.
   */
  public boolean apply(GatewayConfig config, List<ManifestError> manifestErrors) {
    currentInput = Objects.requireNonNull(config, "config");
    long start = System.nanoTime();
    ConfigCheck.Result checked = check.run(config);
    List<BuildProblem> problems = new java.util.ArrayList<>(checked.problems());
    BuildProblem.Stage stage = BuildProblem.Stage.TRANSLATE;
    boolean served = false;
    try {
      Translation translation = translator.translate(checked.built().ir());
      stage = BuildProblem.Stage.PUBLISH;
      SortedMap<ResourceKey, ResourceStatus> statuses = checked.statuses();
      buildTimer.record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
      // Served first, then shown: a proxy may NACK the new version before the board learns it, and the board
      // keeps such a NACK for the version it is about to be told (StatusBoard.onNack).
      boolean changed = cache.setSnapshot(translation.snapshot());
      served = true;
      board.publish(new StatusBoard.Build(translation.snapshot().version(), clock.instant(), statuses,
          manifestErrors, translation, gatewayApiStatuses(config, checked)));
      logVerdicts(statuses, manifestErrors, translation, changed);
      if (changed) {
        onNewSnapshot.accept(translation);
      }
      finish(problems, true);
      return changed;
    } catch (RuntimeException | Error e) {
      if (io.holdfast.common.WorkerFailures.isFatal(e)) {
        throw e;
      }
      // A bug in translation must not take serving down: keep the last snapshot, and say so.
      log.error("config build failed stage={} served={}", stage.label(), served, e);
      problems.add(new BuildProblem(stage, List.of(), (stage == BuildProblem.Stage.TRANSLATE
          ? "the config could not be translated" : "the build could not be published") + " ("
          + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")"
          + (served ? "" : "; the previous snapshot is still served")));
      finish(problems, served);
      return served;
    }
  }

  /** Counts the problems and records the outcome; the latest failure first, as the banner shows one. */
  private void finish(List<BuildProblem> problems, boolean served) {
    problems.forEach(p -> failures.get(p.stage()).increment());
    List<BuildProblem> ordered = new java.util.ArrayList<>(problems);
    if (!served && !ordered.isEmpty()) {
      java.util.Collections.rotate(ordered, 1); // the failure that stopped the build leads
    }
    board.recordOutcome(new BuildOutcome(clock.instant(), served, ordered));
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

  /**
   * Each build's summary, then the verdicts that changed since the last build: a resource newly rejected or
   * warned about, or with other problems, or accepted again; and new manifest errors. Not every non-accepted
   * verdict on every build: a config holding thousands of rejected objects (a 2,000-table delegation chain) wrote
   * thousands of lines on every unrelated edit, which slowed each build by seconds and buried the edit's own news.
   * At most {@value #MAX_VERDICT_LINES} lines a build (a bound on log volume per build, whatever the input); the
   * rest is counted on one line, and every verdict is on the status page and {@code holdfast status}.
   */
  /** The log lines for what changed between two builds' verdicts and manifest errors (see {@link #logVerdicts}). */
  static List<String> changedVerdicts(Map<ResourceKey, ResourceStatus> before, Map<ResourceKey, ResourceStatus> now,
      java.util.Set<ManifestError> errorsBefore, List<ManifestError> errors) {
    List<String> lines = new java.util.ArrayList<>();
    for (ResourceStatus status : now.values()) {
      ResourceStatus was = before.get(status.key());
      if (was != null && was.state() == status.state() && was.problems().equals(status.problems())) {
        continue;
      }
      if (status.state() != ResourceStatus.State.ACCEPTED) {
        lines.add("resource " + status.key() + " " + status.state() + ": " + status.problems());
      } else if (was != null && was.state() != ResourceStatus.State.ACCEPTED) {
        lines.add("resource " + status.key() + " ACCEPTED (was " + was.state() + ")");
      }
    }
    errors.stream().filter(e -> !errorsBefore.contains(e)).forEach(e -> lines.add("manifest error " + e));
    return lines;
  }

  private void logVerdicts(Map<ResourceKey, ResourceStatus> statuses, List<ManifestError> errors,
      Translation t, boolean changed) {
    Map<ResourceStatus.State, Long> counts = statuses.values().stream()
        .collect(java.util.stream.Collectors.groupingBy(ResourceStatus::state, java.util.stream.Collectors.counting()));
    log.info("config built version={} changed={} accepted={} warning={} rejected={} manifestErrors={} resources={}",
        t.snapshot().version(), changed, counts.getOrDefault(ResourceStatus.State.ACCEPTED, 0L),
        counts.getOrDefault(ResourceStatus.State.WARNING, 0L), counts.getOrDefault(ResourceStatus.State.REJECTED, 0L),
        errors.size(), t.origins().size());
    List<String> lines;
    synchronized (loggedVerdicts) {
      lines = changedVerdicts(loggedVerdicts, statuses, loggedErrors, errors);
      loggedVerdicts.clear();
      loggedVerdicts.putAll(statuses);
      loggedErrors.clear();
      loggedErrors.addAll(errors);
    }
    lines.stream().limit(MAX_VERDICT_LINES).forEach(log::warn);
    if (lines.size() > MAX_VERDICT_LINES) {
      log.warn("{} more verdicts changed in this build (at most {} logged a build); see the status page or"
          + " `holdfast status`", lines.size() - MAX_VERDICT_LINES, MAX_VERDICT_LINES);
    }
  }

}
