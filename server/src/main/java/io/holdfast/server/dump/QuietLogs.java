package io.holdfast.server.dump;

import org.slf4j.LoggerFactory;

/**
 * Holdfast's own log lines switched off while a command whose standard output is a document runs the server's
 * code (the pipeline logs every build on standard output, which would corrupt the YAML or JSON); the command
 * reports what matters on standard error itself. Restores the previous level on close.
 */
final class QuietLogs implements AutoCloseable {
  private final ch.qos.logback.classic.Logger logger;
  private final ch.qos.logback.classic.Level previous;

  private QuietLogs(ch.qos.logback.classic.Logger logger) {
    this.logger = logger;
    this.previous = logger == null ? null : logger.getLevel();
    if (logger != null) {
      logger.setLevel(ch.qos.logback.classic.Level.OFF);
    }
  }

  /** Quiets {@code io.holdfast} until closed. */
  static QuietLogs quiet() {
    return new QuietLogs(LoggerFactory.getLogger("io.holdfast") instanceof ch.qos.logback.classic.Logger l ? l
        : null);
  }

  @Override
  public void close() {
    if (logger != null) {
      logger.setLevel(previous);
    }
  }
}
