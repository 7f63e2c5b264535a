package io.holdfast.server;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import io.holdfast.server.cli.LogFormat;
import java.net.URL;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Switches the log format once the flags are known (logging itself starts before they are parsed), and routes
 * java.util.logging, which gRPC uses, into Logback.
 */
final class Logging {
  private Logging() {}

  /**
   * Sends java.util.logging records (gRPC's own logging) to Logback, so they have its format, levels and
   * destination instead of the JDK console handler's two-line stderr format. Idempotent. The root JUL handlers
   * are removed first, or each record would be written twice. The logback configurations reset JUL levels from
   * Logback's (LevelChangePropagator), so a disabled JUL level costs no record.
   */
  static void routeJavaUtilLogging() {
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
  }

  static void use(LogFormat format) {
    if (format != LogFormat.JSON || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    URL config = Logging.class.getResource("/logback-json.xml");
    if (config == null) {
      return;
    }
    context.reset();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(config);
    } catch (JoranException e) {
      System.err.println("holdfast: could not switch to JSON logs, keeping text logs: " + e.getMessage());
      restoreDefault(context);
    }
  }

  /** Never leave the process without logs because the JSON configuration failed. */
  private static void restoreDefault(LoggerContext context) {
    context.reset();
    JoranConfigurator configurator = new JoranConfigurator();
    configurator.setContext(context);
    try {
      configurator.doConfigure(Logging.class.getResource("/logback.xml"));
    } catch (JoranException e) {
      System.err.println("holdfast: could not restore text logs: " + e.getMessage());
    }
  }
}
