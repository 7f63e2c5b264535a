package io.holdfast.xds.server;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.holdfast.ir.NackEvent;
import io.holdfast.ir.NackListener;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves an {@link XdsCache} over gRPC: ADS and the per-type LDS/RDS/CDS/EDS/SDS services, state-of-the-world
 * and delta, Envoy v3 API. Started by {@link Builder#start()}; {@link #close()} stops accepting streams, lets
 * open ones finish for the drain timeout, then cuts the rest (proxies reconnect to another replica).
 *
 * <pre>{@code
 * try (XdsServer server = XdsServer.builder(cache, XdsServerSettings.on("127.0.0.1", 0), registry).start()) {
 *   int port = server.port();
 * }
 * }</pre>
 */
public final class XdsServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(XdsServer.class);

  private final Server server;
  private final StreamTracker tracker;
  private final XdsMetrics metrics;
  private final XdsServerSettings settings;
  private final int port;

  private XdsServer(Server server, StreamTracker tracker, XdsMetrics metrics, XdsServerSettings settings) {
    this.server = server;
    this.port = server.getPort();
    this.tracker = tracker;
    this.metrics = metrics;
    this.settings = settings;
  }

  /** A builder; {@code cache}, {@code settings} and {@code meterRegistry} are required. */
  public static Builder builder(XdsCache cache, XdsServerSettings settings, MeterRegistry meterRegistry) {
    return new Builder(cache, settings, meterRegistry);
  }

  /** The bound port (the chosen one when the settings asked for port 0). */
  public int port() {
    return port;
  }

  /** Open streams per node id, a copy; streams that have not identified their node yet are not listed. */
  public Map<String, Integer> connectedStreams() {
    return tracker.connectedStreams();
  }

  /** Each connected proxy (by node id): its streams, what it ACKed per type and its last NACK. A copy. */
  public List<ProxyStatus> proxies() {
    return tracker.proxies();
  }

  /** Stops the server: no new streams, open ones get the drain timeout, then are cancelled. Idempotent. */
  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(settings.drainTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        log.info("xDS server drain timed out, cancelling streams: port={} openStreams={} drain={}",
            port, tracker.openStreams(), settings.drainTimeout());
        server.shutdownNow();
        server.awaitTermination(settings.drainTimeout().toMillis(), TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    } finally {
      metrics.close();
    }
    log.info("xDS server stopped: port={}", port);
  }

  /** Settings and collaborators of an {@link XdsServer}; optional ones have stated defaults. */
  public static final class Builder {

    private final XdsCache cache;
    private final XdsServerSettings settings;
    private final MeterRegistry meterRegistry;
    private ServerCredentials credentials = InsecureServerCredentials.create();
    private NackListener nackListener = NackListener.NONE;
    private Clock clock = Clock.systemUTC();

    private Builder(XdsCache cache, XdsServerSettings settings, MeterRegistry meterRegistry) {
      this.cache = Objects.requireNonNull(cache, "cache");
      this.settings = Objects.requireNonNull(settings, "settings");
      this.meterRegistry = Objects.requireNonNull(meterRegistry, "meterRegistry");
    }

    /** Transport credentials, e.g. {@link ReloadingTls#credentials()} for TLS/mTLS; default insecure (plaintext). */
    public Builder credentials(ServerCredentials credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
      return this;
    }

    /** Told about each NACK; default none. */
    public Builder nackListener(NackListener nackListener) {
      this.nackListener = Objects.requireNonNull(nackListener, "nackListener");
      return this;
    }

    /** Time source for {@link NackEvent#at()}; default the UTC system clock. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Binds and starts the server.
     *
     * @throws UncheckedIOException if the address cannot be bound
     */
    public XdsServer start() {
      var metrics = new XdsMetrics(meterRegistry);
      XdsLimits limits = settings.limits();
      var tracker = new StreamTracker(metrics, nackListener, clock, limits);
      var discovery = new DiscoveryService(cache.registry(), tracker);
      SocketAddress address = settings.bindHost().isEmpty()
          ? new InetSocketAddress(settings.port())
          : new InetSocketAddress(settings.bindHost(), settings.port());
      // Requests are handled on the Netty event loop: a request is parsed, booked and at most answered from
      // memoised bytes, so hopping each one to a thread pool cost more than it saved (measured with
      // it/bench.sh xds: server CPU per change -45% for delta, -8% for SotW at 2,000 streams). A request may
      // wait for the registry's lock while a snapshot is being pushed; the push never waits for an event loop.
      var builder = NettyServerBuilder.forAddress(address, credentials).directExecutor()
          .maxConcurrentCallsPerConnection(StreamsPerConnection.announcedLimit(limits.maxStreamsPerConnection()))
          .maxInboundMessageSize(limits.maxInboundMessageBytes())
          .maxRstFramesPerWindow(limits.maxResetsPerWindow(), (int) limits.resetWindow().getSeconds());
      if (!limits.maxConnectionAge().isZero()) {
        builder.maxConnectionAge(limits.maxConnectionAge().toNanos(), TimeUnit.NANOSECONDS)
            .maxConnectionAgeGrace(limits.maxConnectionAgeGrace().toNanos(), TimeUnit.NANOSECONDS);
      }
      var authorisation = new ProxyAuthorisation(settings.authorisation(), metrics);
      var streamLimit = new StreamsPerConnection(limits.maxStreamsPerConnection(), metrics);
      // intercept() runs the last interceptor first: the stream count is checked before authorisation.
      discovery.services().forEach(service -> builder.addService(
          ServerInterceptors.intercept(service, authorisation, streamLimit)));
      Server server = builder.build();
      try {
        server.start();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot bind xDS server to " + address, e);
      }
      metrics.bindStreams(tracker::openStreams);
      log.info("xDS server listening: address={} port={} authorisation={} limits={}", address, server.getPort(),
          settings.authorisation().flagValue(), limits);
      return new XdsServer(server, tracker, metrics, settings);
    }
  }
}
