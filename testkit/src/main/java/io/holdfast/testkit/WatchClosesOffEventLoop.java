package io.holdfast.testkit;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Runs a watch's close on a thread of its own. fabric8's watch listener closes by waiting for its sender
 * thread, on the server's only event loop; a send in progress waits for that same event loop to complete its
 * write, so a watch cut mid-stream (a client killed or partitioned while events flow) stalled every request
 * for up to 30 s, the send's own timeout. Off the event loop, the write completes and the close is prompt.
 */
final class WatchClosesOffEventLoop extends WebSocketListener {
  private static final ExecutorService CLOSER = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "mock-api-watch-close");
    t.setDaemon(true);
    return t;
  });
  private final WebSocketListener delegate;

  WatchClosesOffEventLoop(WebSocketListener delegate) {
    this.delegate = delegate;
  }

  @Override
  public void onBeforeAccept(WebSocket webSocket, Response response) {
    delegate.onBeforeAccept(webSocket, response);
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    delegate.onOpen(webSocket, response);
  }

  @Override
  public void onMessage(WebSocket webSocket, String text) {
    delegate.onMessage(webSocket, text);
  }

  @Override
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    delegate.onMessage(webSocket, bytes);
  }

  @Override
  public void onMessage(WebSocket webSocket, byte[] bytes) {
    delegate.onMessage(webSocket, bytes);
  }

  @Override
  public void onPing(WebSocket webSocket, byte[] bytes) {
    delegate.onPing(webSocket, bytes);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    delegate.onClosing(webSocket, code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    CLOSER.execute(() -> delegate.onClosed(webSocket, code, reason));
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable cause, Response response) {
    CLOSER.execute(() -> delegate.onFailure(webSocket, cause, response));
  }
}
