package io.holdfast.testkit;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.ArrayDeque;
import java.util.Deque;

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

  private final class Listener extends WebSocketListener {
    private final String path;
    private final WebSocketListener delegate;

    Listener(String path, WebSocketListener delegate) {
      this.path = path;
      this.delegate = delegate;
    }

    private WebSocket holding(WebSocket socket) {
      return new WebSocket() {
        @Override
        public RecordedRequest request() {
          return socket.request();
        }

        @Override
        public boolean send(String text) {
          return queued(path, () -> socket.send(text)) || socket.send(text);
        }

        @Override
        public boolean send(byte[] bytes) {
          return queued(path, () -> socket.send(bytes)) || socket.send(bytes);
        }

        @Override
        public boolean close(int code, String reason) {
          return socket.close(code, reason);
        }
      };
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
      delegate.onBeforeAccept(holding(webSocket), response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
      delegate.onOpen(holding(webSocket), response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      delegate.onMessage(holding(webSocket), text);
    }

    @Override
    public void onMessage(WebSocket webSocket, ByteString bytes) {
      delegate.onMessage(holding(webSocket), bytes);
    }

    @Override
    public void onMessage(WebSocket webSocket, byte[] bytes) {
      delegate.onMessage(holding(webSocket), bytes);
    }

    @Override
    public void onPing(WebSocket webSocket, byte[] bytes) {
      delegate.onPing(holding(webSocket), bytes);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
      delegate.onClosing(holding(webSocket), code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      delegate.onClosed(holding(webSocket), code, reason);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable cause, Response response) {
      delegate.onFailure(holding(webSocket), cause, response);
    }
  }
}
