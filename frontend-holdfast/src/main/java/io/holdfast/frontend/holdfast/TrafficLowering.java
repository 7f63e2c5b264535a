package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficOptions;
import io.holdfast.frontend.options.TrafficOptionsLowering;
import io.holdfast.ir.ExtProc;
import io.holdfast.ir.HttpListenerOptions;
import io.holdfast.ir.Listener;
import io.holdfast.ir.RouteTraffic;
import io.holdfast.ir.SocketOptions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Traffic options of validated Holdfast kinds to the IR: a Gateway's options on its socket and every HTTP chain,
 * a route's effective traffic options (its own over its VirtualService's) on the route.
 */
final class TrafficLowering {

  private TrafficLowering() {
  }

  /**
   * The socket with the gateway's options. An access log, rate-limit service or tracing collector whose Upstream is not among
   * {@code clusters} (a last accepted Gateway naming an Upstream since deleted) is left out rather than naming a
   * cluster the proxy does not have. A gRPC server's socket gets none: gRPC servers apply none of them (the
   * Gateway is warned, see {@code GrpcServerRules}).
   */
  static Listener.Socket socket(Gateway gateway, Listener.Socket socket, Set<ResourceKey> clusters) {
    TrafficOptions.Listener options = gateway.options();
    if (options.equals(TrafficOptions.Listener.NONE) || gateway.grpcServer()) {
      return socket;
    }
    HttpListenerOptions http = http(options, gateway.metadata().namespace(), clusters);
    List<Listener.FilterChain> chains = new ArrayList<>();
    for (Listener.FilterChain chain : socket.filterChains()) {
      // withOptions keeps the chain's security (JWT providers, authorisation services its routes name).
      chains.add(chain instanceof Listener.FilterChain.Http h ? h.withOptions(http) : chain);
    }
    return new Listener.Socket(socket.origin(), socket.address(), socket.port(), chains, socket.proxyNames(),
        new SocketOptions(options.proxyProtocol(), options.perConnectionBufferLimitBytes().map(Long::intValue)));
  }

  static HttpListenerOptions http(TrafficOptions.Listener options, String namespace, Set<ResourceKey> clusters) {
    List<HttpListenerOptions.AccessLog> logs = new ArrayList<>();
    for (TrafficOptions.AccessLog log : options.accessLogs()) {
      sink(log.sink(), namespace, clusters).ifPresent(sink -> logs.add(new HttpListenerOptions.AccessLog(sink,
          format(log), new HttpListenerOptions.LogFilter(log.filter().minStatus().map(Long::intValue),
              log.filter().maxStatus().map(Long::intValue), log.filter().minDuration()))));
    }
    Optional<HttpListenerOptions.RateLimitService> service = options.rateLimitService().flatMap(s -> {
      ResourceKey cluster = s.upstream().resolve(ResourceKey.UPSTREAM, namespace);
      return clusters.contains(cluster) ? Optional.of(new HttpListenerOptions.RateLimitService(cluster, s.domain(),
          s.timeout().orElse(TrafficOptions.RateLimitService.DEFAULT_TIMEOUT), s.failOpen())) : Optional.empty();
    });
    Optional<HttpListenerOptions.Tracing> tracing = options.tracing().flatMap(t -> {
      ResourceKey cluster = t.upstream().resolve(ResourceKey.UPSTREAM, namespace);
      return clusters.contains(cluster) ? Optional.of(TrafficOptionsLowering.tracing(t, cluster)) : Optional.empty();
    });
    return new HttpListenerOptions(options.xffNumTrustedHops().map(Long::intValue), options.idleTimeout(),
        options.requestHeadersTimeout(), options.maxRequestHeadersKb().map(Long::intValue),
        options.http2().map(h -> new HttpListenerOptions.Http2(h.maxConcurrentStreams().map(Long::intValue),
            h.initialStreamWindowSize().map(Long::intValue), h.initialConnectionWindowSize().map(Long::intValue))),
        options.serverHeader().map(TrafficLowering::serverHeader), logs, service,
        options.healthCheck().map(TrafficOptions.HealthCheck::path)).withTracing(tracing)
        .withExtProc(options.extProc().flatMap(e -> {
          ResourceKey cluster = e.upstream().resolve(ResourceKey.UPSTREAM, namespace);
          return clusters.contains(cluster) ? Optional.of(new ExtProc.Service(cluster, mode(e.processingMode()),
              e.failOpen(), e.messageTimeout().orElse(TrafficOptions.ExtProc.DEFAULT_MESSAGE_TIMEOUT),
              position(e.position()))) : Optional.empty();
        })).withNormalizePath(options.normalizePath())
        .withWebSockets(options.webSockets()).withGrpcWeb(options.grpcWeb());
  }

  /** A checked position (one of {@link TrafficOptions.ExtProc#POSITIONS}, in the same order as the IR's). */
  static ExtProc.Position position(Optional<String> position) {
    int index = TrafficOptions.ExtProc.POSITIONS.indexOf(position.orElse(TrafficOptions.ExtProc.DEFAULT_POSITION));
    // Validation rejected any other value before lowering; the guard only keeps an unchecked one from throwing.
    return index < 0 ? ExtProc.Position.AFTER_AUTHORIZATION : ExtProc.Position.values()[index];
  }

  /** A checked processing mode (its values are among {@link TrafficOptions.ProcessingMode}'s). */
  static ExtProc.Mode mode(TrafficOptions.ProcessingMode mode) {
    return new ExtProc.Mode(mode.requestHeaders().map(TrafficLowering::headerMode),
        mode.responseHeaders().map(TrafficLowering::headerMode), mode.requestBody().map(TrafficLowering::bodyMode),
        mode.responseBody().map(TrafficLowering::bodyMode), mode.requestTrailers().map(TrafficLowering::headerMode),
        mode.responseTrailers().map(TrafficLowering::headerMode));
  }

  private static ExtProc.HeaderMode headerMode(String value) {
    return ExtProc.HeaderMode.values()[TrafficOptions.ProcessingMode.HEADER_MODES.indexOf(value)];
  }

  private static ExtProc.BodyMode bodyMode(String value) {
    return ExtProc.BodyMode.values()[TrafficOptions.ProcessingMode.BODY_MODES.indexOf(value)];
  }

  /** A route's effective traffic options: {@code own} over {@code defaults}, field by field. */
  static RouteTraffic route(TrafficOptions.Route own, TrafficOptions.Route defaults) {
    TrafficOptions.Route effective = own.over(defaults);
    if (effective.equals(TrafficOptions.Route.NONE)) {
      return RouteTraffic.NONE;
    }
    Optional<RouteTraffic.LocalRateLimit> local = effective.localRateLimit().map(l -> new RouteTraffic.LocalRateLimit(
        (int) l.maxTokens(), (int) (long) l.tokensPerFill().orElse(l.maxTokens()), l.fillInterval(),
        l.responseHeaders()));
    List<RouteTraffic.Descriptor> descriptors = TrafficOptionsLowering.descriptors(
        effective.rateLimits().orElse(List.of()));
    Set<RouteTraffic.Compression> compression = EnumSet.noneOf(RouteTraffic.Compression.class);
    effective.compression().orElse(List.of()).forEach(name ->
        compression.add(RouteTraffic.Compression.valueOf(name.toUpperCase(Locale.ROOT))));
    return new RouteTraffic(local, descriptors, compression,
        effective.csrf().map(TrafficOptionsLowering::csrf),
        effective.maxRequestBodyBytes().map(Long::intValue),
        effective.extProc().map(e -> e.disabled() ? new ExtProc.PerRoute.Disabled()
            : new ExtProc.PerRoute.Override(mode(e.processingMode().orElse(TrafficOptions.ProcessingMode.DEFAULT)))));
  }

  private static Optional<HttpListenerOptions.Sink> sink(TrafficOptions.Sink sink, String namespace,
      Set<ResourceKey> clusters) {
    if (sink instanceof TrafficOptions.Sink.Stdout) {
      return Optional.of(new HttpListenerOptions.Sink.Stdout());
    }
    if (sink instanceof TrafficOptions.Sink.Stderr) {
      return Optional.of(new HttpListenerOptions.Sink.Stderr());
    }
    if (sink instanceof TrafficOptions.Sink.File file) {
      return Optional.of(new HttpListenerOptions.Sink.File(file.path()));
    }
    if (sink instanceof TrafficOptions.Sink.Grpc grpc) {
      ResourceKey cluster = grpc.upstream().resolve(ResourceKey.UPSTREAM, namespace);
      return clusters.contains(cluster) ? Optional.of(new HttpListenerOptions.Sink.Grpc(cluster, grpc.logName()))
          : Optional.empty();
    }
    TrafficOptions.Sink.OpenTelemetry otel = (TrafficOptions.Sink.OpenTelemetry) sink;
    ResourceKey cluster = otel.upstream().resolve(ResourceKey.UPSTREAM, namespace);
    return clusters.contains(cluster)
        ? Optional.of(new HttpListenerOptions.Sink.OpenTelemetry(cluster, otel.logName(), otel.authority())
            .withAttributes(TrafficOptionsLowering.otelAttributes(otel.attributes())))
        : Optional.empty();
  }

  private static HttpListenerOptions.Format format(TrafficOptions.AccessLog log) {
    if (log.text().isPresent()) {
      return new HttpListenerOptions.Format.Text(log.text().get());
    }
    if (!log.json().isEmpty()) {
      return new HttpListenerOptions.Format.Json(log.json());
    }
    return new HttpListenerOptions.Format.Default();
  }

  private static HttpListenerOptions.ServerHeader serverHeader(TrafficOptions.ServerHeader server) {
    String mode = server.mode().orElse(TrafficOptions.ServerHeader.OVERWRITE);
    return switch (mode) {
      case TrafficOptions.ServerHeader.PASS_THROUGH -> new HttpListenerOptions.ServerHeader.PassThrough();
      case TrafficOptions.ServerHeader.STRIP -> new HttpListenerOptions.ServerHeader.Strip();
      default -> new HttpListenerOptions.ServerHeader.Name(server.name().orElseThrow(() ->
          new IllegalArgumentException("serverHeader Overwrite without a name; lower only Validator output")));
    };
  }
}
