package io.holdfast.pipeline;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The verdict half of the pipeline: front end, then the {@link IrBuilder} settling shared claims (duplicate
 * listeners and domains), giving every resource's status. {@link ConfigPipeline} runs it before translating;
 * {@code holdfast validate} runs it alone, so the command and the server reach their verdicts by one path.
 * Stateful through the front end's last-good memory: one instance per config history, one thread at a time.
 */
public final class ConfigCheck {
  private final List<FrontEnd<GatewayConfig>> frontEnds;

  /**
   * With both front ends (Holdfast's kinds, the Gateway API under its default controller name) and no history:
   * verdicts as a freshly started server would give them.
   */
  public ConfigCheck() {
    this(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME);
  }

  /** Both front ends; the Gateway API one programs the GatewayClasses naming {@code controllerName}. */
  public ConfigCheck(String controllerName) {
    this(controllerName, InputLimits.DEFAULTS);
  }

  /** As above, both front ends checking against {@code limits}. */
  public ConfigCheck(String controllerName, InputLimits limits) {
    this(List.of(new HoldfastFrontEnd(Clock.systemUTC(), limits), new GatewayApiFrontEnd(controllerName, limits)));
  }

  ConfigCheck(FrontEnd<GatewayConfig> frontEnd) {
    this(List.of(frontEnd));
  }

  ConfigCheck(List<FrontEnd<GatewayConfig>> frontEnds) {
    this.frontEnds = List.copyOf(frontEnds);
  }

  /**
   * @param built    the IR and the full statuses (with each finding's severity)
   * @param statuses the one-line view of each status, as the status board and the status writer show it
   */
  public record Result(IrBuilder.Result built, SortedMap<ResourceKey, ResourceStatus> statuses) {
    public Result {
      Objects.requireNonNull(built, "built");
      statuses = Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
    }

    /** The full statuses of the Gateway API's objects (whose writer needs more than the one-line view). */
    public SortedMap<ResourceKey, ObjectStatus> gatewayApiStatuses() {
      SortedMap<ResourceKey, ObjectStatus> out = new TreeMap<>();
      built.statuses().forEach((key, status) -> {
        if (key.group().equals(GatewayApiFrontEnd.GROUP)) {
          out.put(key, status);
        }
      });
      return out;
    }

    /** The full status of {@code key}, with severities; absent if the config has no such resource. */
    public java.util.Optional<ObjectStatus> objectStatus(ResourceKey key) {
      return java.util.Optional.ofNullable(built.statuses().get(key));
    }
  }

  public Result run(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    // Each front end lowers its API's objects into the one builder, which settles the claims they share
    // (a port, a domain on a port) whatever API made them.
    frontEnds.forEach(frontEnd -> frontEnd.lower(config, builder));
    IrBuilder.Result built = builder.build();
    SortedMap<ResourceKey, ResourceStatus> statuses = new TreeMap<>();
    built.statuses().forEach((key, status) -> statuses.put(key, ResourceStatus.of(status)));
    return new Result(built, statuses);
  }
}
