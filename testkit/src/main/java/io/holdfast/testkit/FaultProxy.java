package io.holdfast.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP proxy on loopback that injects network faults between a client and one loopback port.
 *
 * <ul>
 *   <li>{@link Mode#PASS}: bytes flow both ways.
 *   <li>{@link Mode#BLACKHOLE}: connections are accepted but nothing is delivered in either direction, like
 *       a partition that drops packets; when the mode leaves BLACKHOLE, those half-dead connections are reset.
 *   <li>{@link Mode#RESET}: every open connection is reset at once and new ones are reset on accept.
 *   <li>{@link Mode#LATENCY}: every chunk is delayed by {@link #latency()} before it is forwarded.
 * </ul>
 * Only loopback is ever addressed: it listens on 127.0.0.1 and forwards to 127.0.0.1.
 *
 * <p>It also counts what it forwards: bytes each way and HTTP requests client to server (see
 * {@link #requestsForwarded()}), so a benchmark can tell how many API calls one client made.
 */
public final class FaultProxy implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FaultProxy.class);

  public enum Mode { PASS, BLACKHOLE, RESET, LATENCY }

  private final String name;
  private final int targetPort;
  private final ServerSocket server;
  private final Set<Link> links = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytesToServer = new AtomicLong();
  private final AtomicLong bytesToClient = new AtomicLong();
  private volatile Mode mode = Mode.PASS;
  private volatile Duration latency = Duration.ZERO;
  private volatile boolean closed;

  private FaultProxy(String name, int targetPort, int listenPort) throws IOException {
    this.name = Objects.requireNonNull(name, "name");
    this.targetPort = targetPort;
    this.server = new ServerSocket();
    server.setReuseAddress(true);
    server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
    Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-" + name);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** A proxy on an ephemeral loopback port forwarding to {@code 127.0.0.1:targetPort}. */
  public static FaultProxy start(String name, int targetPort) {
    return start(name, targetPort, 0);
  }

  /** A proxy on a chosen loopback port (0 for ephemeral). */
  public static FaultProxy start(String name, int targetPort, int listenPort) {
    try {
      return new FaultProxy(name, targetPort, listenPort);
    } catch (IOException e) {
      throw new IllegalStateException("fault proxy " + name + " could not listen: " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  public String name() {
    return name;
  }

  public Mode mode() {
    return mode;
  }

  public Duration latency() {
    return latency;
  }

  public long connectionsAccepted() {
    return accepted.get();
  }

  /**
   * HTTP requests forwarded to the server so far, read from the bytes delivered client to server: HTTP/1.x
   * request lines, and on HTTP/2 connections (prior knowledge or h2c upgrade) each HEADERS frame opening a new
   * stream. A WebSocket upgrade counts once; frames on it do not.
   */
  public long requestsForwarded() {
    return requests.get();
  }

  /** Bytes delivered client to server so far (dropped ones excluded). */
  public long bytesToServer() {
    return bytesToServer.get();
  }

  /** Bytes delivered server to client so far (dropped ones excluded). */
  public long bytesToClient() {
    return bytesToClient.get();
  }

  public void pass() {
    setMode(Mode.PASS);
  }

  public void blackhole() {
    setMode(Mode.BLACKHOLE);
  }

  public void reset() {
    setMode(Mode.RESET);
  }

  public void latency(Duration delay) {
    latency = Objects.requireNonNull(delay, "delay");
    setMode(Mode.LATENCY);
  }

  private synchronized void setMode(Mode next) {
    Mode previous = mode;
    mode = next;
    log.info("fault proxy {}: {} -> {}{}", name, previous, next, next == Mode.LATENCY ? " " + latency.toMillis() + "ms" : "");
    if (next == Mode.RESET) {
      links.forEach(Link::reset);
    } else if (previous == Mode.BLACKHOLE) {
      // Bytes were dropped on these streams: they cannot be resumed, so end them the way a peer would.
      links.stream().filter(l -> l.tainted).forEach(Link::reset);
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
    links.forEach(Link::reset);
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        if (!closed) {
          log.warn("fault proxy {}: accept failed: {}", name, e.toString());
        }
        return;
      }
      accepted.incrementAndGet();
      if (mode == Mode.RESET) {
        resetQuietly(client);
        continue;
      }
      Link link = new Link(client);
      links.add(link);
      link.start();
    }
  }

  private static void resetQuietly(Socket s) {
    try {
      s.setSoLinger(true, 0); // close with RST, as a refusing or crashing peer does
      s.close();
    } catch (IOException ignored) {
      // already gone
    }
  }

  /** One proxied connection: two pump threads, one per direction. */
  private final class Link {
    private final Socket client;
    private volatile Socket upstream;
    private volatile boolean tainted;
    private volatile boolean done;

    Link(Socket client) {
      this.client = client;
    }

    void start() {
      Thread t = new Thread(this::connectAndPump, "fault-proxy-" + name + "-link");
      t.setDaemon(true);
      t.start();
    }

    private void connectAndPump() {
      try {
        if (mode == Mode.BLACKHOLE) {
          tainted = true;
        }
        Socket up = new Socket();
        up.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
        upstream = up;
        Thread back = new Thread(() -> pump(up, client, bytesToClient, null), "fault-proxy-" + name + "-down");
        back.setDaemon(true);
        back.start();
        pump(client, up, bytesToServer, new RequestCounter());
      } catch (IOException e) {
        reset();
      }
    }

    private void pump(Socket from, Socket to, AtomicLong bytes, RequestCounter requestCounter) {
      byte[] buf = new byte[16 * 1024];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int n;
        while ((n = in.read(buf)) >= 0) {
          Mode m = mode;
          if (m == Mode.BLACKHOLE) {
            tainted = true;
            continue; // dropped on the floor
          }
          if (m == Mode.RESET) {
            break;
          }
          if (tainted) {
            break; // this stream lost bytes while blackholed; it cannot carry on
          }
          if (m == Mode.LATENCY && !latency.isZero()) {
            Thread.sleep(latency.toMillis()); // the fault being simulated, not test synchronisation
          }
          out.write(buf, 0, n);
          out.flush();
          bytes.addAndGet(n);
          if (requestCounter != null) {
            requests.addAndGet(requestCounter.feed(buf, n));
          }
        }
      } catch (SocketException e) {
        // reset by us or the peer
      } catch (IOException e) {
        log.debug("fault proxy {}: link failed: {}", name, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      reset();
    }

    void reset() {
      if (done) {
        return;
      }
      done = true;
      links.remove(this);
      resetQuietly(client);
      Socket up = upstream;
      if (up != null) {
        resetQuietly(up);
      }
    }
  }
}
