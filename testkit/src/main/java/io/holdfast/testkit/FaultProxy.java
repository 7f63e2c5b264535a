package io.holdfast.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
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
 *   <li>{@link Mode#LATENCY}: every chunk is delayed by {@link #latency()} from the moment it was read, in
 *       order; delays do not add up across chunks (a constant one-way delay, not a bandwidth limit).
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
  private volatile int targetPort;
  private final ServerSocket server;
  private final Set<Link> links = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytesToServer = new AtomicLong();
  private final AtomicLong bytesToClient = new AtomicLong();
  private final AtomicLong heldToServer = new AtomicLong();
  private final AtomicLong heldToClient = new AtomicLong();
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

  /**
   * Bytes read from clients and not yet delivered to the server: requests in flight inside the proxy, e.g. held
   * by {@link Mode#LATENCY}. Lets a test act while a request is known to be on its way.
   */
  public long bytesInFlightToServer() {
    return heldToServer.get();
  }

  /**
   * Whether bytes containing {@code text} (US-ASCII, within one chunk) are in flight inside the proxy: read from a
   * client, not yet delivered to the server. Lets a test act while a particular request is on its way, e.g. a
   * write whose body names a field, whether the connection speaks HTTP/1.1 or HTTP/2 (bodies are not compressed).
   */
  public boolean holdsToServer(String text) {
    byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    return links.stream().anyMatch(l -> l.toServer != null && l.toServer.holds(needle));
  }

  /** Bytes read from the server and not yet delivered to clients. */
  public long bytesInFlightToClient() {
    return heldToClient.get();
  }

  /**
   * Sends new connections to {@code 127.0.0.1:port} from now on (open ones stay where they are): a stable address
   * in front of a server that binds port 0 each time it is restarted.
   */
  public void retarget(int port) {
    if (port <= 0 || port > 65_535) {
      throw new IllegalArgumentException("target port must be in 1..65535, got " + port);
    }
    targetPort = port;
    log.info("fault proxy {}: target -> 127.0.0.1:{}", name, port);
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

  /**
   * One proxied connection. Per direction, a reader thread takes chunks off one socket and a {@link DelayLine}
   * thread writes them to the other once they are due, so a {@link Mode#LATENCY} delay applies to each chunk
   * from the moment it was read: a chunk does not also wait out the delays of the chunks before it, as it would
   * if the reader slept (that would be a bandwidth limit, and the delay would grow with the traffic). When a side
   * closes, the chunks already read are still delivered, in order, before the other side sees the end: bytes
   * on the wire arrive even if their sender has gone.
   */
  private final class Link {
    private final Socket client;
    private volatile Socket upstream;
    private volatile DelayLine toServer;
    private volatile boolean tainted;
    private volatile boolean done;
    private int directionsEnded; // guarded by this

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
        DelayLine toClient = new DelayLine(this, client, bytesToClient, null, heldToClient, "down");
        DelayLine serverLine = new DelayLine(this, up, bytesToServer, new RequestCounter(), heldToServer, "up");
        toServer = serverLine;
        Thread back = new Thread(() -> pump(up, toClient), "fault-proxy-" + name + "-down");
        back.setDaemon(true);
        back.start();
        pump(client, serverLine);
      } catch (IOException e) {
        reset();
      }
    }

    /** Reads {@code from} until it ends, handing each chunk to {@code line} with its due time. */
    private void pump(Socket from, DelayLine line) {
      byte[] buf = new byte[16 * 1024];
      try {
        InputStream in = from.getInputStream();
        int n;
        while ((n = in.read(buf)) >= 0) {
          Mode m = mode;
          if (m == Mode.BLACKHOLE) {
            tainted = true;
            continue; // dropped on the floor
          }
          if (m == Mode.RESET || tainted) {
            reset(); // a stream that lost bytes while blackholed cannot carry on
            return;
          }
          long delay = m == Mode.LATENCY ? latency.toNanos() : 0;
          line.add(Arrays.copyOf(buf, n), System.nanoTime() + delay);
        }
      } catch (IOException e) {
        // reset by us or the peer: the end of this direction, as a close is
      }
      line.end();
    }

    /** One direction has delivered everything and passed the end on; the link goes when both have. */
    synchronized void directionEnded() {
      directionsEnded++;
      if (directionsEnded == 2) {
        reset();
      }
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

  /** The chunks of one direction in flight, written to {@code to} in order, each once its due time has come. */
  private final class DelayLine {
    private record Chunk(byte[] data, long dueNanos) {
    }

    private final Link link;
    private final Socket to;
    private final AtomicLong delivered;
    private final RequestCounter requestCounter;
    private final AtomicLong held;
    private final ArrayDeque<Chunk> queue = new ArrayDeque<>(); // guarded by this
    private boolean ended; // guarded by this

    DelayLine(Link link, Socket to, AtomicLong delivered, RequestCounter requestCounter, AtomicLong held,
        String direction) {
      this.link = link;
      this.to = to;
      this.delivered = delivered;
      this.requestCounter = requestCounter;
      this.held = held;
      Thread t = new Thread(this::deliverLoop, "fault-proxy-" + name + "-" + direction + "-delivery");
      t.setDaemon(true);
      t.start();
    }

    synchronized void add(byte[] data, long dueNanos) {
      held.addAndGet(data.length);
      queue.add(new Chunk(data, dueNanos));
      notifyAll();
    }

    synchronized boolean holds(byte[] needle) {
      return queue.stream().anyMatch(c -> indexOf(c.data(), needle) >= 0);
    }

    private static int indexOf(byte[] data, byte[] needle) {
      for (int i = 0; i + needle.length <= data.length; i++) {
        if (Arrays.equals(data, i, i + needle.length, needle, 0, needle.length)) {
          return i;
        }
      }
      return -1;
    }

    /** No more chunks: deliver those in flight, then half-close {@code to}. */
    synchronized void end() {
      ended = true;
      notifyAll();
    }

    /** The next chunk once it is due, or null when the direction has ended and everything is delivered. */
    private synchronized Chunk next() throws InterruptedException {
      while (true) {
        Chunk head = queue.peek();
        if (head == null) {
          if (ended || link.done) {
            return null;
          }
          wait();
          continue;
        }
        long waitNanos = head.dueNanos() - System.nanoTime();
        if (waitNanos <= 0) {
          return queue.poll();
        }
        // The fault being simulated (the chunk is on the wire), not synchronisation.
        TimeUnit.NANOSECONDS.timedWait(this, waitNanos);
      }
    }

    private void deliverLoop() {
      try {
        OutputStream out = to.getOutputStream();
        for (Chunk c = next(); c != null; c = next()) {
          held.addAndGet(-c.data().length);
          Mode m = mode;
          if (m == Mode.BLACKHOLE) {
            link.tainted = true;
            continue; // lost in flight, as in a partition
          }
          if (m == Mode.RESET || link.tainted) {
            break;
          }
          out.write(c.data());
          out.flush();
          delivered.addAndGet(c.data().length);
          if (requestCounter != null) {
            requests.addAndGet(requestCounter.feed(c.data(), c.data().length));
          }
        }
        if (!link.done && !link.tainted && mode != Mode.RESET) {
          to.shutdownOutput(); // the sender closed: pass the end on after its last bytes
          link.directionEnded();
          return;
        }
      } catch (IOException e) {
        log.debug("fault proxy {}: link failed: {}", name, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      dropRemaining();
      link.reset();
    }

    private synchronized void dropRemaining() {
      for (Chunk c : queue) {
        held.addAndGet(-c.data().length);
      }
      queue.clear();
    }
  }
}
