package io.holdfast.server;

import io.holdfast.api.GatewayConfig;
import io.holdfast.ir.FrontEnd;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.server.cli.ServeSettings;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Servers with a fault injected, for tests outside this package (the fault-injection entry point is not public). */
public final class TestServers {
  private TestServers() {}

  /**
   * A server whose Holdfast front end throws (a bug of Holdfast's own, contained: the build is degraded) whenever
   * the config given matches {@code explodes}.
   */
  public static HoldfastServer startWithFrontEndFault(ServeSettings settings, Clock clock,
      Predicate<GatewayConfig> explodes) throws IOException {
    return HoldfastServer.start(settings, clock, pipeline -> {
      List<FrontEnd<GatewayConfig>> frontEnds = new ArrayList<>(ConfigCheck.frontEnds(pipeline));
      FrontEnd<GatewayConfig> first = frontEnds.remove(0);
      frontEnds.add(0, (config, builder) -> {
        if (explodes.test(config)) {
          throw new IllegalStateException("injected front-end fault");
        }
        first.lower(config, builder);
      });
      return ConfigCheck.of(frontEnds);
    });
  }
}
