package io.holdfast.server.http;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Names a server's threads by its prefix and makes them daemons, so a server left open never holds the JVM up. */
public final class DaemonThreads {

  private DaemonThreads() {
  }

  /** Threads named {@code prefix1}, {@code prefix2}, ... */
  public static ThreadFactory named(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
