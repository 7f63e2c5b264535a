package io.holdfast.pipeline;

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
 */
public record PipelineSettings(String gatewayControllerName, InputLimits limits) {

  /** The settings of a server started without flags. */
  public static final PipelineSettings DEFAULTS =
      new PipelineSettings(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME, InputLimits.DEFAULTS);

  public PipelineSettings {
    Objects.requireNonNull(gatewayControllerName, "gatewayControllerName");
    Objects.requireNonNull(limits, "limits");
  }

  /** With the default bounds. */
  public PipelineSettings(String gatewayControllerName) {
    this(gatewayControllerName, InputLimits.DEFAULTS);
  }
}
