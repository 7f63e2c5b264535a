package io.holdfast.server;

import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Stops what was started, in reverse order of start. */
public final class Closeables {
  private static final Logger log = LoggerFactory.getLogger(Closeables.class);

  private Closeables() {}

  /** Pops and closes every item of {@code started} (a stack), logging and going on past any failure. */
  public static void closeAll(Deque<AutoCloseable> started) {
    while (!started.isEmpty()) {
      AutoCloseable c = started.pop();
      try {
        c.close();
      } catch (Exception e) {
        log.warn("stopping {} failed: {}", c.getClass().getSimpleName(), e.toString());
      }
    }
  }
}
