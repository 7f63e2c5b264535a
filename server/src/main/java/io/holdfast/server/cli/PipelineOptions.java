package io.holdfast.server.cli;

import io.holdfast.pipeline.PipelineSettings;
import picocli.CommandLine.Option;

/**
 * The options every verdict depends on ({@link PipelineSettings}), mixed into both {@code serve} and
 * {@code validate}: one declaration, read from the same flags, environment variables and {@code --config-file}
 * entries, so {@code holdfast validate} judges a config exactly as the server it is meant for (whose webhook takes
 * the same value from {@link ServeSettings#pipeline()}). A verdict-changing option belongs here, never in one
 * command alone.
 */
final class PipelineOptions {

  @Option(names = "--gateway-controller-name", paramLabel = "NAME",
      defaultValue = ServeSettings.DEFAULT_GATEWAY_CONTROLLER_NAME,
      description = "Kubernetes Gateway API: the controllerName of the GatewayClasses Holdfast programs, under which"
          + " it writes route statuses (default: ${DEFAULT-VALUE}).")
  String gatewayControllerName;

  /**
   * The settings these options give.
   *
   * @throws IllegalArgumentException naming the option and what it allows
   */
  PipelineSettings settings() {
    return new PipelineSettings(ServeSettings.requireControllerName(gatewayControllerName));
  }
}
