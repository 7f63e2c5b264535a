package io.holdfast.testkit;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/**
 * A watch answer's listener that hands its delegate a socket whose every send passes {@link #send} first, which
 * sends it, holds it or drops it ({@link FieldSelectors} drops events of objects a selector excludes,
 * {@link WatchHold} holds events back); every callback is forwarded with that socket.
 */
abstract class SendGate extends WebSocketListener {
  private final WebSocketListener delegate;

  SendGate(WebSocketListener delegate) {
    this.delegate = delegate;
  }

  /**
   * What becomes of one outgoing frame, {@code text} (a binary frame as UTF-8); {@code sender} sends it now.
   * Answers as {@link WebSocket#send(String)} does.
   */
  abstract boolean send(String text, BooleanSupplier sender);

  private WebSocket gated(WebSocket socket) {
    return new WebSocket() {
      @Override
      public RecordedRequest request() {
        return socket.request();
      }

      @Override
      public boolean send(String text) {
        return SendGate.this.send(text, () -> socket.send(text));
      }

      @Override
      public boolean send(byte[] bytes) {
        return SendGate.this.send(new String(bytes, StandardCharsets.UTF_8), () -> socket.send(bytes));
      }

      @Override
      public boolean close(int code, String reason) {
        return socket.close(code, reason);
      }
    };
  }

  @Override
  public void onBeforeAccept(WebSocket webSocket, Response response) {
    delegate.onBeforeAccept(gated(webSocket), response);
  }

  @Override
  public void onOpen(WebSocket webSocket, Response response) {
    delegate.onOpen(gated(webSocket), response);
  }

  @Override
  public void onMessage(WebSocket webSocket, String text) {
    delegate.onMessage(gated(webSocket), text);
  }

  @Override
  public void onMessage(WebSocket webSocket, ByteString bytes) {
    delegate.onMessage(gated(webSocket), bytes);
  }

  @Override
  public void onMessage(WebSocket webSocket, byte[] bytes) {
    delegate.onMessage(gated(webSocket), bytes);
  }

  @Override
  public void onPing(WebSocket webSocket, byte[] bytes) {
    delegate.onPing(gated(webSocket), bytes);
  }

  @Override
  public void onClosing(WebSocket webSocket, int code, String reason) {
    delegate.onClosing(gated(webSocket), code, reason);
  }

  @Override
  public void onClosed(WebSocket webSocket, int code, String reason) {
    delegate.onClosed(gated(webSocket), code, reason);
  }

  @Override
  public void onFailure(WebSocket webSocket, Throwable cause, Response response) {
    delegate.onFailure(gated(webSocket), cause, response);
  }
}
