package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy's counters report what it delivered, over real loopback sockets. */
class FaultProxyCountersTest {

  private static final byte[] REPLY = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private ServerSocket target;
  private final AtomicLong received = new AtomicLong();
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    target = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::serveOne, "counter-test-target");
    t.setDaemon(true);
    t.start();
    proxy = FaultProxy.start("counters", target.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    target.close();
  }

  /** Reads everything, answering each complete request head (blank line) with a fixed reply. */
  private void serveOne() {
    try (Socket s = target.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
      int b;
      int tail = 0;
      while ((b = in.read()) >= 0) {
        received.incrementAndGet();
        tail = (tail << 8 | b) & 0xFFFFFFFF;
        if (tail == 0x0D0A0D0A) {
          out.write(REPLY);
          out.flush();
        }
      }
    } catch (IOException ignored) {
      // the test closed it
    }
  }

  @Test
  void countsRequestsAndBytesEachWay() throws IOException {
    byte[] request = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      OutputStream out = client.getOutputStream();
      out.write(request);
      out.flush();
      // The second request trickles in byte by byte, so its request line arrives in several reads.
      for (byte b : request) {
        out.write(b);
        out.flush();
      }
      await().atMost(Duration.ofSeconds(5)).until(() -> received.get() == 2L * request.length
          && proxy.bytesToClient() == 2L * REPLY.length);
      assertThat(proxy.requestsForwarded()).isEqualTo(2);
      assertThat(proxy.bytesToServer()).isEqualTo(2L * request.length);
    }
  }

  @Test
  void doesNotCountWhatItDrops() throws IOException {
    byte[] request = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      OutputStream out = client.getOutputStream();
      out.write(request);
      out.flush();
      await().atMost(Duration.ofSeconds(5)).until(() -> proxy.requestsForwarded() == 1);
      proxy.blackhole();
      out.write(request);
      out.flush();
      // The proxy reads and drops the second request at once; the counters must not move meanwhile.
      await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
          .until(() -> proxy.requestsForwarded() == 1 && proxy.bytesToServer() == request.length);
      assertThat(received.get()).isEqualTo(request.length);
    }
  }
}
