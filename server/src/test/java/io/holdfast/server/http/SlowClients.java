package io.holdfast.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Slow-loris clients of a test's own on loopback: each opens a connection and sends only the start of a request,
 * then nothing. Closes every socket it opened.
 */
public final class SlowClients implements AutoCloseable {
  private final List<Socket> sockets = new ArrayList<>();

  /** Opens {@code count} connections to {@code port}, each sending {@code partial} and then stalling. */
  public static SlowClients open(int port, int count, byte[] partial) throws IOException {
    SlowClients clients = new SlowClients();
    try {
      for (int i = 0; i < count; i++) {
        Socket socket = new Socket();
        clients.sockets.add(socket);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
        socket.getOutputStream().write(partial);
        socket.getOutputStream().flush();
      }
    } catch (IOException | RuntimeException e) {
      clients.close();
      throw e;
    }
    return clients;
  }

  /** A partial plain-HTTP request: request line and one header, no blank line. */
  public static byte[] partialRequest(String path) {
    return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n").getBytes(StandardCharsets.US_ASCII);
  }

  /** How many of the connections the server has closed (reads end of stream or a reset within 50 ms). */
  public int closedByServer() {
    int closed = 0;
    for (Socket socket : sockets) {
      try {
        socket.setSoTimeout(50);
        if (socket.getInputStream().read() == -1) {
          closed++;
        }
      } catch (SocketTimeoutException e) {
        // still open
      } catch (IOException e) {
        closed++;
      }
    }
    return closed;
  }

  @Override
  public void close() {
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (IOException e) {
        // closing a test's own socket: nothing to do
      }
    }
  }

  /**
   * One plain-HTTP GET on its own connection with {@code Connection: close}; the whole answer as text, or an
   * {@link IOException} (e.g. a timeout) when not answered within {@code bound}.
   */
  public static String get(int port, String path, Duration bound) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), (int) bound.toMillis());
      socket.setSoTimeout((int) bound.toMillis());
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      byte[] buffer = new byte[4096];
      // bounded: the server closes (Connection: close) or the read times out
      for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
        answer.write(buffer, 0, n);
        if (answer.size() > 1 << 20) {
          throw new IOException("answer over 1 MiB");
        }
      }
      return answer.toString(StandardCharsets.UTF_8);
    }
  }
}
