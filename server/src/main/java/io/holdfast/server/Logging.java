package io.holdfast.server;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.joran.spi.JoranException;
import io.holdfast.server.cli.LogFormat;
import java.net.URL;
import org.slf4j.LoggerFactory;

/** Switches the log format once the flags are known (logging itself starts before they are parsed). */
final class Logging {
  private Logging() {}

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
