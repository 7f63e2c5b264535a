package io.holdfast.election;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Captures what one class logs, for assertions on level and content; close() detaches it. */
final class LogCapture implements AutoCloseable {
  private final Logger logger;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture(Class<?> source) {
    logger = (Logger) LoggerFactory.getLogger(source);
    appender.start();
    logger.addAppender(appender);
  }

  static LogCapture of(Class<?> source) {
    return new LogCapture(source);
  }

  /** Formatted messages at {@code level} or above, in order. */
  List<String> atLeast(Level level) {
    return List.copyOf(appender.list).stream().filter(e -> e.getLevel().isGreaterOrEqual(level))
        .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
  }

  /** Every formatted message, in order. */
  List<String> messages() {
    return atLeast(Level.TRACE);
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
  }
}
