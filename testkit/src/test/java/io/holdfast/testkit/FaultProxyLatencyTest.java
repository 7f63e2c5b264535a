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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** LATENCY is a constant one-way delay per chunk, and bytes in flight still arrive when their sender has gone. */
class FaultProxyLatencyTest {
  private static final Duration LATENCY = Duration.ofMillis(500);

  /** What the target read: each byte with the time it arrived, and whether the stream then ended cleanly. */
  private record Arrival(int value, long nanos) {
  }

  private ServerSocket target;
  private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();
  private volatile boolean endOfStream;
  private FaultProxy proxy;
  private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();

  @BeforeEach
  void start() throws IOException {
    target = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::readAll, "latency-test-target");
    t.setDaemon(true);
    t.start();
    proxy = FaultProxy.start("latency", target.getLocalPort());
  }

  @AfterEach
  void stop() throws IOException {
    sender.shutdownNow();
    proxy.close();
    target.close();
  }

  private void readAll() {
    try (Socket s = target.accept(); InputStream in = s.getInputStream()) {
      int b;
      while ((b = in.read()) >= 0) {
        arrivals.add(new Arrival(b, System.nanoTime()));
      }
      endOfStream = true;
    } catch (IOException ignored) {
      // reset: endOfStream stays false
    }
  }

  @Test
  void eachChunkIsDelayedByTheLatencyAloneNotByTheChunksBeforeIt() throws Exception {
    proxy.latency(LATENCY);
    long[] sentAt = new long[4];
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      OutputStream out = client.getOutputStream();
      // Four one-byte chunks 200 ms apart: the stimulus's pacing. A proxy that slept in its reader delivers the
      // later ones 800 ms or more after they were sent (they wait out the earlier delays); a constant delay
      // delivers each after 500 ms.
      for (int i = 0; i < sentAt.length; i++) {
        int value = i;
        sender.schedule(() -> {
          try {
            sentAt[value] = System.nanoTime();
            out.write(value);
            out.flush();
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        }, 200L * i, TimeUnit.MILLISECONDS).get(5, TimeUnit.SECONDS);
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> arrivals.size() == sentAt.length);
    }
    for (Arrival a : arrivals) {
      long delayMs = TimeUnit.NANOSECONDS.toMillis(a.nanos() - sentAt[a.value()]);
      assertThat(delayMs).as("delay of chunk %d", a.value())
          .isGreaterThanOrEqualTo(LATENCY.toMillis() - 5)
          .isLessThan(LATENCY.toMillis() + 250);
    }
    assertThat(arrivals).extracting(Arrival::value).containsExactly(0, 1, 2, 3);
  }

  @Test
  void bytesInFlightAreDeliveredBeforeTheEndWhenTheSenderHasGone() throws Exception {
    proxy.latency(LATENCY);
    byte[] request = "PUT /status HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
      client.getOutputStream().write(request);
      client.getOutputStream().flush();
      await().atMost(Duration.ofSeconds(5)).until(() -> proxy.bytesInFlightToServer() == request.length);
      assertThat(arrivals).as("nothing arrives before the latency").isEmpty();
      assertThat(proxy.holdsToServer("/status")).isTrue();
      assertThat(proxy.holdsToServer("conditions")).isFalse();
    } // the sender closes with its request still in the proxy, as a process that exits mid-write
    await().atMost(Duration.ofSeconds(5)).until(() -> endOfStream);
    assertThat(arrivals).hasSize(request.length);
    assertThat(proxy.bytesInFlightToServer()).isZero();
    assertThat(proxy.holdsToServer("/status")).isFalse();
    assertThat(proxy.bytesToServer()).isEqualTo(request.length);
    assertThat(proxy.requestsForwarded()).isEqualTo(1);
  }
}
