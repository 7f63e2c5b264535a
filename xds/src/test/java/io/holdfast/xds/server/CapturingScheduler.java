package io.holdfast.xds.server;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose fixed-delay tasks never run by themselves: the test runs the captured task when it wants,
 * so "the next periodic check" is a method call, not a wait.
 */
final class CapturingScheduler extends ScheduledThreadPoolExecutor {

  private volatile Runnable task;
  private volatile long delayMillis;
  private volatile ScheduledFuture<?> future;

  CapturingScheduler() {
    super(1);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay,
      TimeUnit unit) {
    task = command;
    delayMillis = unit.toMillis(delay);
    // A real, cancellable future that stays pending for the test's lifetime.
    future = schedule(() -> { }, 1, TimeUnit.DAYS);
    return future;
  }

  /** Runs the periodic task once, as if its delay had passed. */
  void tick() {
    task.run();
  }

  long delayMillis() {
    return delayMillis;
  }

  ScheduledFuture<?> future() {
    return future;
  }
}
