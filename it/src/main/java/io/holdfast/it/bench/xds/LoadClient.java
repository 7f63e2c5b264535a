package io.holdfast.it.bench.xds;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.holdfast.it.bench.Machine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The load generator, run in its own JVM so the server's CPU and heap are measured alone:
 * {@code LoadClient PORT STREAMS CHANNELS ack|nack sotw|delta EVENT_LOOP_THREADS}. It opens STREAMS ADS streams
 * (state of the world or delta) over CHANNELS connections to 127.0.0.1:PORT, all on one event loop group of
 * EVENT_LOOP_THREADS threads with responses handled on them (direct executor), so its thread budget is fixed.
 * It answers commands on stdin, one line each, with one line on stdout:
 * <ul>
 *   <li>(unprompted) {@code READY} once every stream has had a response of each of the four types;
 *   <li>{@code PING} -> {@code PONG <nanoTime>} (the parent checks both JVMs share the monotonic clock);
 *   <li>{@code EXPECT <timeoutMs> <type>=<version>...} -> {@code ARMED}, then {@code DONE <last> <median>} (arrival
 *       nanoTimes: the last stream's and the median stream's last awaited response) or {@code TIMEOUT <complete>};
 *   <li>{@code COUNT} -> {@code COUNT <responses> <cpuNanos> <errors> <bytes>} (bytes: serialized responses plus
 *       the 5-byte gRPC message header each);
 *   <li>{@code VERIFY} -> {@code VERIFIED <streams>} if every stream holds the same state of each type (version,
 *       resource count and, for delta, every resource name and version), else {@code MISMATCH <details>};
 *   <li>{@code QUIT} closes the streams and exits.
 * </ul>
 */
public final class LoadClient implements LoadStreams.Sink {

  /** gRPC's length-prefixed message header, per message on the wire besides the serialized message. */
  private static final int GRPC_MESSAGE_HEADER = 5;

  private final List<LoadStreams.Stream> streams = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final AtomicLong responses = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final int[] initialMask;
  private final AtomicInteger notReady;
  private final CountDownLatch ready = new CountDownLatch(1);
  private final AtomicReference<Expectation> expectation = new AtomicReference<>();

  /** Streams still owing a response to the current change, and when each finished. */
  private static final class Expectation {
    final Map<String, String> versions;
    final int[] mask;
    final long[] doneAt;
    final AtomicInteger remaining;
    final CountDownLatch done = new CountDownLatch(1);
    final int full;

    Expectation(Map<String, String> versions, int streams) {
      this.versions = versions;
      this.mask = new int[streams];
      this.doneAt = new long[streams];
      this.remaining = new AtomicInteger(streams);
      this.full = (1 << LoadStream.TYPES.size()) - 1;
      // Types not awaited count as received already.
      int preset = 0;
      for (int i = 0; i < LoadStream.TYPES.size(); i++) {
        if (!versions.containsKey(LoadStream.TYPES.get(i))) {
          preset |= 1 << i;
        }
      }
      Arrays.fill(mask, preset);
    }
  }

  private LoadClient(int streamCount) {
    initialMask = new int[streamCount];
    notReady = new AtomicInteger(streamCount);
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    int port = Integer.parseInt(args[0]);
    int streamCount = Integer.parseInt(args[1]);
    int channelCount = Integer.parseInt(args[2]);
    boolean nack = args[3].equals("nack");
    boolean delta = args[4].equals("delta");
    int threads = Integer.parseInt(args[5]);
    if (streamCount < 1 || streamCount > 20_000 || channelCount < 1 || channelCount > streamCount || threads < 1) {
      throw new IllegalArgumentException("need 1 <= channels <= streams <= 20000 and threads >= 1");
    }
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    LoadClient client = new LoadClient(streamCount);
    EventLoopGroup loop = new NioEventLoopGroup(threads);
    for (int c = 0; c < channelCount; c++) {
      client.channels.add(NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().directExecutor()
          .eventLoopGroup(loop).channelType(NioSocketChannel.class)
          .maxInboundMessageSize(64 * 1024 * 1024).build());
    }
    Map<String, String> interned = new HashMap<>();
    for (int i = 0; i < streamCount; i++) {
      LoadStreams.Stream s = delta ? new LoadDeltaStream(i, nack, client, interned) : new LoadStream(i, nack, client);
      client.streams.add(s);
      s.open(client.channels.get(i % channelCount));
    }
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    Thread announcer = new Thread(() -> {
      try {
        client.ready.await();
        out.println("READY");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "load-ready");
    announcer.setDaemon(true);
    announcer.start();
    String line;
    while ((line = in.readLine()) != null) {
      String[] w = line.trim().split(" ");
      switch (w[0]) {
        case "PING" -> out.println("PONG " + System.nanoTime());
        case "COUNT" -> out.println("COUNT " + client.responses.get() + " " + Machine.processCpuNanos() + " "
            + client.errors.get() + " " + client.bytes.get());
        case "EXPECT" -> out.println(client.expect(Long.parseLong(w[1]), Arrays.copyOfRange(w, 2, w.length), out));
        case "VERIFY" -> out.println(client.verify());
        case "QUIT" -> {
          client.close();
          loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
          return;
        }
        default -> out.println("ERROR unknown command " + w[0]);
      }
    }
    // The parent went away without QUIT: stop too, event loop included (its threads would keep this JVM up).
    client.close();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  /** Every stream must hold what stream 0 holds, type by type. */
  private String verify() {
    for (String type : LoadStream.TYPES) {
      String expected = streams.get(0).state(type);
      int differing = 0;
      String example = "";
      for (LoadStreams.Stream s : streams) {
        String state = s.state(type);
        if (!state.equals(expected)) {
          differing++;
          example = "stream " + s.index() + " has [" + state + "]";
        }
      }
      if (expected.isEmpty() || differing > 0) {
        return "MISMATCH " + type + ": stream 0 has [" + expected + "], " + differing + " differ, e.g. " + example;
      }
    }
    return "VERIFIED " + streams.size();
  }

  /** Arms the expectation and answers ARMED; a helper thread prints DONE or TIMEOUT later. */
  private String expect(long timeoutMs, String[] pairs, PrintStream out) {
    Map<String, String> versions = new HashMap<>();
    for (String p : pairs) {
      int eq = p.indexOf('=');
      versions.put(p.substring(0, eq), p.substring(eq + 1));
    }
    Expectation e = new Expectation(versions, streams.size());
    expectation.set(e);
    Thread waiter = new Thread(() -> {
      try {
        if (e.done.await(timeoutMs, TimeUnit.MILLISECONDS)) {
          long[] sorted = e.doneAt.clone();
          Arrays.sort(sorted);
          out.println("DONE " + sorted[sorted.length - 1] + " " + sorted[(sorted.length - 1) / 2]);
        } else {
          out.println("TIMEOUT " + (streams.size() - e.remaining.get()));
        }
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
      }
    }, "load-expect");
    waiter.setDaemon(true);
    waiter.start();
    return "ARMED";
  }

  @Override
  public void onResponse(LoadStreams.Stream stream, String typeUrl, String version, int size, long arrivedNanos) {
    responses.incrementAndGet();
    bytes.addAndGet(size + GRPC_MESSAGE_HEADER);
    int bit = 1 << LoadStream.TYPES.indexOf(typeUrl);
    int i = stream.index();
    // Each stream's responses arrive one at a time, so its slots are only ever touched by one thread at once.
    if (initialMask[i] != 0xF) {
      initialMask[i] |= bit;
      if (initialMask[i] == 0xF && notReady.decrementAndGet() == 0) {
        ready.countDown();
      }
    }
    Expectation e = expectation.get();
    if (e != null && version.equals(e.versions.get(typeUrl)) && e.mask[i] != e.full) {
      e.mask[i] |= bit;
      if (e.mask[i] == e.full) {
        e.doneAt[i] = arrivedNanos;
        if (e.remaining.decrementAndGet() == 0) {
          e.done.countDown();
        }
      }
    }
  }

  @Override
  public void onError(LoadStreams.Stream stream, Throwable t) {
    if (errors.incrementAndGet() <= 3) {
      System.err.println("load stream " + stream.index() + " failed: " + t);
    }
  }

  private void close() {
    streams.forEach(LoadStreams.Stream::close);
    channels.forEach(ManagedChannel::shutdownNow);
  }
}
