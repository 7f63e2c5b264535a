package io.holdfast.pipeline;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.InputLimits;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import java.util.Objects;

/**
 * Every setting that changes a verdict: the one value {@code holdfast serve}, {@code holdfast validate} and the
 * admission webhook build their {@link ConfigCheck} from, so the three judge a config alike. A setting that
 * changes what is accepted belongs here, never in one of the three alone.
 *
 * @param gatewayControllerName the Gateway API controller name: GatewayClasses naming it are Holdfast's
 * @param limits                the bounds on regexes, delegation and webhook checks (README, "Bounds")
 * @param access                what Holdfast objects may reach: other namespaces' Secrets, Upstreams and
 *                              RouteTables, upstream addresses, listener ports (README, "Tenancy")
 */
public record PipelineSettings(String gatewayControllerName, InputLimits limits, AccessPolicy access) {

  /** The settings of a file-mode server started without flags. */
  public static final PipelineSettings DEFAULTS =
      new PipelineSettings(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME, InputLimits.DEFAULTS);

  public PipelineSettings {
    Objects.requireNonNull(gatewayControllerName, "gatewayControllerName");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(access, "access");
  }

  /** With the file-mode access policy ({@link AccessPolicy#FILE_DEFAULTS}). */
  public PipelineSettings(String gatewayControllerName, InputLimits limits) {
    this(gatewayControllerName, limits, AccessPolicy.FILE_DEFAULTS);
  }

  /** With the default bounds and the file-mode access policy. */
  public PipelineSettings(String gatewayControllerName) {
    this(gatewayControllerName, InputLimits.DEFAULTS);
  }

  /** The same settings with {@code value} as their limits. */
  public PipelineSettings withLimits(InputLimits value) {
    return new PipelineSettings(gatewayControllerName, value, access);
  }
}
