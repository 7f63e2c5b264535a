package io.holdfast.pipeline;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.UnparsedResource;
import io.holdfast.common.WorkerFailures;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.gloo.GlooFrontEnd;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Finding;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.Ir;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The verdict half of the pipeline: front end, then the {@link IrBuilder} settling shared claims (duplicate
 * listeners and domains), giving every resource's status. {@link ConfigPipeline} runs it before translating;
 * {@code holdfast validate} runs it alone, so the command and the server reach their verdicts by one path.
 * Stateful through the front end's last-good memory: one instance per config history, one thread at a time.
 *
 * <p>Total: whatever the config holds, {@link #run} returns a result (only an error that leaves the JVM unsound,
 * {@link WorkerFailures#isFatal}, passes through). Invalid objects are the front ends' business (rejected with
 * their reasons); a failure of Holdfast itself is contained here, as narrowly as the structure allows, and
 * reported as a {@link BuildProblem}:
 * <ul>
 *   <li>a front end that throws has everything it added to this build taken back, and its last good contribution
 *       (from the last build it completed, on this instance) stands in, limited to the objects still in the
 *       config, each with a {@link #FRONT_END_FAILED} warning; the other front end's objects are unaffected;</li>
 *   <li>an IR invariant breach leaves out only the objects it names ({@link IrBuilder#build});</li>
 *   <li>anything else failing in the IR builder keeps the last good IR (empty on a first build), with the
 *       statuses the front ends gave.</li>
 * </ul>
 */
public final class ConfigCheck {
  private static final Logger log = LoggerFactory.getLogger(ConfigCheck.class);

  /** Reason of the warning on an object served from its front end's last good build after that front end failed. */
  public static final String FRONT_END_FAILED = "FrontEndFailed";

  private final List<FrontEnd<GatewayConfig>> frontEnds;
  /** Per front end (same index), what it added to the last build it completed. */
  private final List<Optional<IrBuilder.Contribution>> lastGood = new ArrayList<>();
  private Optional<Ir> lastGoodIr = Optional.empty();

  /**
   * With both front ends (Holdfast's kinds, the Gateway API under its default controller name) and no history:
   * verdicts as a freshly started server would give them.
   */
  public ConfigCheck() {
    this(PipelineSettings.DEFAULTS);
  }

  /** Both front ends, configured by {@code settings}, as the server, the webhook and validate build them. */
  public ConfigCheck(PipelineSettings settings) {
    this(frontEnds(settings));
  }

  /**
   * The front ends a check with {@code settings} runs, in order: Holdfast's kinds, the Gateway API, then Gloo
   * Edge's kinds.
   */
  public static List<FrontEnd<GatewayConfig>> frontEnds(PipelineSettings settings) {
    return List.of(new HoldfastFrontEnd(Clock.systemUTC(), settings.limits(), settings.access()),
        new GatewayApiFrontEnd(settings.gatewayControllerName(), settings.limits(), settings.access()),
        new GlooFrontEnd(Clock.systemUTC(), settings.limits(), settings.access()));
  }

  /**
   * A check running {@code frontEnds} in order: the standard ones ({@link #frontEnds}), some of them decorated
   * (fault injection in tests), or one more API's.
   */
  public static ConfigCheck of(List<FrontEnd<GatewayConfig>> frontEnds) {
    return new ConfigCheck(frontEnds);
  }

  /** Both front ends; the Gateway API one programs the GatewayClasses naming {@code controllerName}. */
  public ConfigCheck(String controllerName) {
    this(new PipelineSettings(controllerName));
  }

  ConfigCheck(FrontEnd<GatewayConfig> frontEnd) {
    this(List.of(frontEnd));
  }

  ConfigCheck(List<FrontEnd<GatewayConfig>> frontEnds) {
    this.frontEnds = List.copyOf(frontEnds);
    frontEnds.forEach(f -> lastGood.add(Optional.empty()));
  }

  /**
   * @param built    the IR and the full statuses (with each finding's severity)
   * @param statuses the one-line view of each status, as the status board and the status writer show it
   * @param problems failures of Holdfast itself that this build contained, in the order met
   */
  public record Result(IrBuilder.Result built, SortedMap<ResourceKey, ResourceStatus> statuses,
      List<BuildProblem> problems) {
    public Result {
      Objects.requireNonNull(built, "built");
      statuses = Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
      problems = List.copyOf(problems);
    }

    public Result(IrBuilder.Result built, SortedMap<ResourceKey, ResourceStatus> statuses) {
      this(built, statuses, List.of());
    }

    /**
     * The full statuses of the Gateway API's objects and of Holdfast's policy kinds (whose writer needs more than
     * the one-line view: a policy's status lists its targets as ancestors).
     */
    public SortedMap<ResourceKey, ObjectStatus> gatewayApiStatuses() {
      SortedMap<ResourceKey, ObjectStatus> out = new TreeMap<>();
      built.statuses().forEach((key, status) -> {
        if (key.group().equals(GatewayApiFrontEnd.GROUP)
            || key.group().equals(io.holdfast.api.PolicyKinds.GROUP) && io.holdfast.api.PolicyKinds.ALL.contains(
                key.kind())) {
          out.put(key, status);
        }
      });
      return out;
    }

    /** The full status of {@code key}, with severities; absent if the config has no such resource. */
    public Optional<ObjectStatus> objectStatus(ResourceKey key) {
      return Optional.ofNullable(built.statuses().get(key));
    }
  }

  public Result run(GatewayConfig given) {
    IrBuilder builder = new IrBuilder();
    List<BuildProblem> problems = new ArrayList<>();
    GatewayConfig config = withoutDuplicateApiObjects(given, builder);
    // Each front end lowers its API's objects into the one builder, which settles the claims they share
    // (a port, a domain on a port) whatever API made them.
    for (int i = 0; i < frontEnds.size(); i++) {
      lower(i, config, builder, problems);
    }
    IrBuilder.Result built;
    try {
      built = builder.build();
      lastGoodIr = Optional.of(built.ir());
      built.breaches().forEach(b -> problems.add(new BuildProblem(BuildProblem.Stage.IR, b.objects(),
          "IR invariant broken: " + b.message())));
    } catch (RuntimeException | Error e) {
      rethrowFatal(e);
      log.error("IR build failed; keeping the last good IR error={}", e.toString(), e);
      problems.add(new BuildProblem(BuildProblem.Stage.IR, List.of(), "IR build failed (" + describe(e)
          + "); the last good IR stands in"));
      built = new IrBuilder.Result(lastGoodIr.orElseGet(Ir::empty), builder.statusesSoFar());
    }
    Set<ResourceKey> leftOutByIr = new HashSet<>();
    built.breaches().forEach(b -> leftOutByIr.addAll(b.objects()));
    SortedMap<ResourceKey, ResourceStatus> statuses = new TreeMap<>();
    built.statuses().forEach((key, status) -> {
      statuses.put(key, ResourceStatus.of(status));
      // A front end that contained a failure of its own on one object (Reasons.INTERNAL_ERROR) counts too.
      if (!leftOutByIr.contains(key)) {
        status.findings().stream().filter(f -> f.reason().equals(Reasons.INTERNAL_ERROR)).findFirst()
            .ifPresent(f -> problems.add(new BuildProblem(BuildProblem.Stage.FRONTEND, List.of(key), f.message())));
      }
    });
    return new Result(built, statuses, problems);
  }

  /**
   * {@code config} without the objects of other config APIs (the Gateway API's) declared more than once, each of
   * which is rejected here with {@link Reasons#DUPLICATE_RESOURCE}, as the Holdfast kinds are by their validator:
   * only files can hold two (the API server cannot), and which one was meant is the user's call.
   */
  private static GatewayConfig withoutDuplicateApiObjects(GatewayConfig config, IrBuilder builder) {
    java.util.Map<ResourceKey, List<ApiObject>> byKey = new TreeMap<>();
    config.apiObjects().forEach(o -> byKey.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(o));
    if (byKey.values().stream().allMatch(list -> list.size() == 1)) {
      return config;
    }
    GatewayConfig.Builder kept = config.toBuilder();
    byKey.forEach((key, copies) -> {
      if (copies.size() > 1) {
        kept.remove(key);
        builder.status(ObjectStatus.of(key, copies.get(0).generation(), List.of(new Finding(Finding.Severity.ERROR,
            "metadata.name", Reasons.DUPLICATE_RESOURCE, key + " is defined " + copies.size()
            + " times; keep exactly one definition"))), Optional.empty());
      }
    });
    return kept.build();
  }

  /** Runs front end {@code index}; if it throws, takes back what it added and replays its last good share. */
  private void lower(int index, GatewayConfig config, IrBuilder builder, List<BuildProblem> problems) {
    FrontEnd<GatewayConfig> frontEnd = frontEnds.get(index);
    IrBuilder.Mark mark = builder.mark();
    try {
      frontEnd.lower(config, builder);
      lastGood.set(index, Optional.of(builder.since(mark)));
    } catch (RuntimeException | Error e) {
      rethrowFatal(e);
      String name = frontEnd.getClass().getSimpleName();
      log.error("front end failed; its last good build stands in frontEnd={} error={}", name, e.toString(), e);
      builder.rollBack(mark);
      Set<ResourceKey> present = keysOf(config);
      String message = name + " failed (" + describe(e) + ")";
      problems.add(new BuildProblem(BuildProblem.Stage.FRONTEND, List.of(), message
          + (lastGood.get(index).isPresent() ? "; its last good build stands in for the objects still present"
          : "; none of its objects is served until it succeeds")));
      lastGood.get(index).ifPresent(previous -> replay(previous, present, builder, message));
    }
  }

  /** Adds {@code previous}'s elements and statuses of the objects in {@code present}, with a warning on each. */
  private static void replay(IrBuilder.Contribution previous, Set<ResourceKey> present, IrBuilder builder,
      String message) {
    previous.clusters().stream().filter(c -> present.contains(c.origin().object())).forEach(builder::add);
    previous.secrets().stream().filter(s -> present.contains(s.origin().object())).forEach(builder::add);
    previous.listeners().stream().filter(l -> present.contains(l.origin().object())).forEach(builder::add);
    for (ObjectStatus status : previous.statuses()) {
      if (present.contains(status.key())) {
        builder.status(status.with(new Finding(Finding.Severity.WARNING, "", FRONT_END_FAILED, message
            + "; this object's last good build is served, not its current version")),
            previous.created().getOrDefault(status.key(), Optional.empty()));
      }
    }
  }

  private static Set<ResourceKey> keysOf(GatewayConfig config) {
    Set<ResourceKey> keys = new HashSet<>();
    config.resources().stream().map(GatewayResource::key).forEach(keys::add);
    config.unparsed().stream().map(UnparsedResource::key).forEach(keys::add);
    config.apiObjects().stream().map(ApiObject::key).forEach(keys::add);
    return keys;
  }

  /** Errors that leave the JVM unsound are not Holdfast's to contain: the worker's guard ends the process. */
  private static void rethrowFatal(Throwable e) {
    if (WorkerFailures.isFatal(e)) {
      if (e instanceof Error error) {
        throw error;
      }
    }
  }

  private static String describe(Throwable e) {
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
