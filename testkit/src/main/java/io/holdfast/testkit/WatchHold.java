package io.holdfast.testkit;

import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;

/**
 * Holds back the events of watches whose path contains a fragment, until released: the watch delay of a real API
 * made deterministic (an object is in the API, lists return it, and a watching informer has not seen it yet). Events
 * go out in order on release; while held, the API answers everything else as usual. One fragment at a time.
 */
final class WatchHold {
  private final Object lock = new Object();
  private final Deque<Runnable> held = new ArrayDeque<>();
  private String fragment; // under lock; null: nothing held
  private boolean draining; // under lock

  void hold(String pathFragment) {
    synchronized (lock) {
      fragment = pathFragment;
    }
  }

  /** Sends every held event, in order, then lets events flow again. */
  void release() {
    synchronized (lock) {
      fragment = null;
      draining = true;
    }
    while (true) {
      Runnable next;
      synchronized (lock) {
        next = held.poll();
        if (next == null) {
          draining = false;
          return;
        }
      }
      next.run();
    }
  }

  /** {@code listener} of the watch on {@code path}, its events subject to this hold. */
  WebSocketListener wrap(String path, WebSocketListener listener) {
    return new Listener(path, listener);
  }

  /** Whether an event on {@code path} waits; if so {@code send} is queued. */
  private boolean queued(String path, Runnable send) {
    synchronized (lock) {
      if ((fragment != null && path.contains(fragment)) || (draining && !held.isEmpty())) {
        held.add(send);
        return true;
      }
      return false;
    }
  }

  private final class Listener extends SendGate {
    private final String path;

    Listener(String path, WebSocketListener delegate) {
      super(delegate);
      this.path = path;
    }

    @Override
    boolean send(String text, BooleanSupplier sender) {
      return queued(path, sender::getAsBoolean) || sender.getAsBoolean();
    }
  }
}
