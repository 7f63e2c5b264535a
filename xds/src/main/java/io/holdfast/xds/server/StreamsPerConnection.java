package io.holdfast.xds.server;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a call beyond {@link XdsLimits#maxStreamsPerConnection()} on one connection with RESOURCE_EXHAUSTED and
 * counts it as {@link Refusal#TOO_MANY_STREAMS}.
 *
 * <p>Why not HTTP/2's SETTINGS_MAX_CONCURRENT_STREAMS alone: a client that honours it (grpc-java, Envoy) queues the
 * extra streams without ever being told, so a misconfigured client hangs instead of failing. The server therefore
 * announces a higher ceiling ({@link #announcedLimit}) that only a client ignoring the protocol reaches, and refuses
 * at the limit here, with a status the client sees. A connection is its remote address: unique among the open
 * connections; an entry lives while the connection has calls, so the map is bounded by the open calls.
 */
final class StreamsPerConnection implements ServerInterceptor {

  private static final Logger log = LoggerFactory.getLogger(StreamsPerConnection.class);

  private final int limit;
  private final XdsMetrics metrics;
  private final ConcurrentHashMap<SocketAddress, Integer> open = new ConcurrentHashMap<>();

  StreamsPerConnection(int limit, XdsMetrics metrics) {
    this.limit = limit;
    this.metrics = metrics;
  }

  /** What the server announces as SETTINGS_MAX_CONCURRENT_STREAMS: twice the limit, the protocol's backstop. */
  static int announcedLimit(int limit) {
    return (int) Math.min(Integer.MAX_VALUE, 2L * limit);
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
      ServerCallHandler<Q, R> next) {
    SocketAddress connection = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    if (connection == null) {
      return next.startCall(call, headers); // in-process transports have no connection to bound
    }
    boolean[] admitted = new boolean[1];
    open.compute(connection, (key, count) -> {
      int now = count == null ? 0 : count;
      admitted[0] = now < limit;
      return admitted[0] ? now + 1 : count;
    });
    if (!admitted[0]) {
      metrics.refused(Refusal.TOO_MANY_STREAMS);
      log.warn("xDS stream refused: too many streams on one connection: remote={} limit={}", connection, limit);
      call.close(Status.RESOURCE_EXHAUSTED.withDescription(Refusal.TOO_MANY_STREAMS.label() + ": more than " + limit
          + " concurrent streams on one connection (--xds-max-streams-per-connection)"), new Metadata());
      return new ServerCall.Listener<>() {
      };
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release = () -> {
      if (released.compareAndSet(false, true)) {
        open.computeIfPresent(connection, (key, count) -> count <= 1 ? null : count - 1);
      }
    };
    ServerCall.Listener<Q> listener;
    try {
      listener = next.startCall(call, headers);
    } catch (RuntimeException | Error e) {
      release.run();
      throw e;
    }
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
      @Override
      public void onComplete() {
        release.run();
        super.onComplete();
      }

      @Override
      public void onCancel() {
        release.run();
        super.onCancel();
      }
    };
  }
}
