package io.holdfast.it.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP relay in front of the emulated API, one per replica, that can be cut: while cut, connections are
 * accepted but nothing is delivered either way (a partition that drops packets); on restore, the connections
 * that lost bytes are reset so clients reconnect. Only 127.0.0.1 is ever addressed.
 */
final class DemoRelay implements AutoCloseable {
  private final int targetPort;
  private final ServerSocket server;
  private final Set<Socket[]> links = ConcurrentHashMap.newKeySet();
  private final Set<Socket[]> tainted = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;
  private volatile boolean closed;

  DemoRelay(String name, int targetPort) throws IOException {
    this.targetPort = targetPort;
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::accept, "demo-relay-" + name);
    t.setDaemon(true);
    t.start();
  }

  int port() {
    return server.getLocalPort();
  }

  boolean isCut() {
    return cut;
  }

  void cut() {
    cut = true;
  }

  void restore() {
    cut = false;
    for (Socket[] link : tainted) {
      reset(link);
    }
  }

  private void accept() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket up = new Socket();
        up.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2000);
        Socket[] link = {client, up};
        links.add(link);
        if (cut) {
          tainted.add(link);
        }
        pump(link, client, up, "up");
        pump(link, up, client, "down");
      } catch (IOException e) {
        if (closed) {
          return;
        }
      }
    }
  }

  private void pump(Socket[] link, Socket from, Socket to, String direction) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16 * 1024];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
          if (cut) {
            tainted.add(link); // dropped: this stream can never be resumed
            continue;
          }
          if (tainted.contains(link)) {
            break;
          }
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException ignored) {
        // reset by us or by the peer
      }
      reset(link);
    }, "demo-relay-" + direction);
    t.setDaemon(true);
    t.start();
  }

  private void reset(Socket[] link) {
    links.remove(link);
    tainted.remove(link);
    for (Socket s : link) {
      try {
        s.setSoLinger(true, 0);
        s.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    links.forEach(this::reset);
  }
}
