package io.holdfast.it.demo;

import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A "gateway pod": grpc-java's xDS client ({@code xds:///TARGET}, needs {@code io.grpc:grpc-xds} on the class
 * path) bootstrapped at one control plane, calling {@link EchoBackend#METHOD} in a bounded loop and printing one
 * JSON line per call: {@code {"t":epochMillis,"seq":n,"ok":true,"backend":"a","latencyMs":2}} or
 * {@code {"t":..,"seq":n,"ok":false,"error":"UNAVAILABLE: ..."}}. One process per client because grpc-java reads
 * its bootstrap once per JVM.
 *
 * <p>Until the first success each call waits for the channel to be ready (bounded by {@code --first-call-ms}),
 * so the first line's time tells how long a new client took to get config; after it, calls fail fast.
 *
 * <pre>
 * --xds-server 127.0.0.1:P --target NAME [--node ID] [--interval-ms 50] [--call-timeout-ms 1000]
 * [--first-call-ms 30000] [--duration-s 300] [--out FILE]
 * </pre>
 */
public final class XdsCallLoop {
  private XdsCallLoop() {
  }

  public static void main(String[] args) throws IOException {
    String server = null;
    String target = null;
    String node = "holdfast-call-loop";
    long intervalMs = 50;
    long callTimeoutMs = 1000;
    long firstCallMs = 30_000;
    long durationS = 300;
    Path outFile = null;
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--xds-server" -> server = v;
        case "--target" -> target = v;
        case "--node" -> node = v;
        case "--interval-ms" -> intervalMs = Long.parseLong(v);
        case "--call-timeout-ms" -> callTimeoutMs = Long.parseLong(v);
        case "--first-call-ms" -> firstCallMs = Long.parseLong(v);
        case "--duration-s" -> durationS = Long.parseLong(v);
        case "--out" -> outFile = Path.of(v);
        default -> usage("unknown argument " + args[i]);
      }
      i++;
    }
    if (server == null || target == null) {
      usage("--xds-server and --target are required");
    }
    System.setProperty("io.grpc.xds.bootstrapConfig", """
        {"xds_servers": [{"server_uri": "%s", "channel_creds": [{"type": "insecure"}],
                          "server_features": ["xds_v3"]}],
         "node": {"id": "%s", "cluster": "holdfast-demo"}}
        """.formatted(server, node));
    exitWhenParentGoes();
    PrintStream out = outFile == null ? System.out
        : new PrintStream(Files.newOutputStream(outFile), true, StandardCharsets.UTF_8);
    ManagedChannel channel = Grpc.newChannelBuilder("xds:///" + target, InsecureChannelCredentials.create()).build();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(durationS);
    boolean served = false;
    for (long seq = 0; System.nanoTime() < end; seq++) {
      long started = System.nanoTime();
      CallOptions options = served
          ? CallOptions.DEFAULT.withDeadlineAfter(callTimeoutMs, TimeUnit.MILLISECONDS)
          : CallOptions.DEFAULT.withWaitForReady().withDeadlineAfter(firstCallMs, TimeUnit.MILLISECONDS);
      String line;
      try {
        byte[] answer = ClientCalls.blockingUnaryCall(channel, EchoBackend.METHOD, options, new byte[0]);
        served = true;
        line = "\"ok\":true,\"backend\":\"" + new String(answer, StandardCharsets.UTF_8) + "\"";
      } catch (StatusRuntimeException e) {
        line = "\"ok\":false,\"error\":\"" + e.getStatus().getCode() + ": "
            + String.valueOf(e.getStatus().getDescription()).replace('"', '\'').replace('\\', '/') + "\"";
      }
      long latencyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      out.println("{\"t\":" + System.currentTimeMillis() + ",\"seq\":" + seq + "," + line + ",\"latencyMs\":"
          + latencyMs + "}");
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(intervalMs)); // the call rate, not synchronisation
    }
    channel.shutdownNow();
    out.flush();
    System.exit(0);
  }

  /** The harness holds our standard input open; when it goes away (even killed), so do we. */
  private static void exitWhenParentGoes() {
    Thread t = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // nothing is sent; end of input is the signal
        }
      } catch (IOException ignored) {
        // same as end of input
      }
      Runtime.getRuntime().halt(0);
    }, "call-loop-parent-watch");
    t.setDaemon(true);
    t.start();
  }

  private static void usage(String problem) {
    System.err.println("XdsCallLoop: " + problem);
    System.err.println("usage: --xds-server HOST:PORT --target NAME [--node ID] [--interval-ms N]"
        + " [--call-timeout-ms N] [--first-call-ms N] [--duration-s N] [--out FILE]");
    System.exit(2);
  }
}
