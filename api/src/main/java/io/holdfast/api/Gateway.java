package io.holdfast.api;

import java.util.List;
import java.util.Objects;

/**
 * A listening socket ({@code kind: Gateway}) and the VirtualServices it serves; becomes one Envoy listener and
 * its route configuration.
 *
 * @param bindAddress IP literal, default {@code 0.0.0.0}
 * @param ssl         an HTTPS gateway: it terminates TLS, and serves each selected VirtualService with the
 *                    certificate of its {@code sslConfig}
 * @param proxyNames  the proxies that serve this gateway ({@link ProxyNames}); default {@code [gateway-proxy]}
 * @param options     connection settings and access logs ({@code spec.options}; {@link TrafficOptions.Listener#NONE})
 * @param grpcServer  {@code spec.grpcServer}: the listener is served to proxyless gRPC servers (grpc-java's
 *                    {@code XdsServerBuilder} and its peers) listening on {@code bindAddress:port}, not to Envoy;
 *                    its routes select calls and their authorisation rules, and the server handles every call itself
 * @param sourcePrefixRanges {@code spec.sourcePrefixRanges}: the client networks (CIDR text, checked by the rules)
 *                    whose connections this gateway takes; empty: every client. Gateways (and TcpGateways) on one
 *                    address and port share its listener when their source ranges differ (each one's chains match
 *                    its own ranges, and Envoy picks the most specific), as Gloo's hybridGateway splits clients
 */
public record Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection,
    boolean ssl, List<String> proxyNames, TrafficOptions.Listener options, boolean grpcServer,
    List<String> sourcePrefixRanges)
    implements GatewayResource {

  public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";

  public Gateway {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(selection, "selection");
    proxyNames = List.copyOf(proxyNames);
    Objects.requireNonNull(options, "options");
    sourcePrefixRanges = List.copyOf(sourcePrefixRanges);
  }

  /** Taking every client. */
  public Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection,
      boolean ssl, List<String> proxyNames, TrafficOptions.Listener options, boolean grpcServer) {
    this(metadata, bindAddress, port, selection, ssl, proxyNames, options, grpcServer, List.of());
  }

  /** Served to Envoy proxies. */
  public Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection, boolean ssl,
      List<String> proxyNames, TrafficOptions.Listener options) {
    this(metadata, bindAddress, port, selection, ssl, proxyNames, options, false);
  }

  /** Without options. */
  public Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection, boolean ssl,
      List<String> proxyNames) {
    this(metadata, bindAddress, port, selection, ssl, proxyNames, TrafficOptions.Listener.NONE);
  }

  /** Served by the default proxy ({@link ProxyNames#DEFAULT}). */
  public Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection, boolean ssl) {
    this(metadata, bindAddress, port, selection, ssl, ProxyNames.DEFAULT);
  }

  /** A plain-HTTP gateway. */
  public Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection) {
    this(metadata, bindAddress, port, selection, false);
  }

  public Gateway withSelection(VirtualServiceSelection newSelection) {
    return new Gateway(metadata, bindAddress, port, newSelection, ssl, proxyNames, options, grpcServer,
        sourcePrefixRanges);
  }

  @Override
  public String kind() {
    return ResourceKey.GATEWAY;
  }

  public Gateway withOptions(TrafficOptions.Listener value) {
    return new Gateway(metadata, bindAddress, port, selection, ssl, proxyNames, value, grpcServer,
        sourcePrefixRanges);
  }

  /** The same gateway taking only clients in {@code value} (every client when empty). */
  public Gateway withSourcePrefixRanges(List<String> value) {
    return new Gateway(metadata, bindAddress, port, selection, ssl, proxyNames, options, grpcServer, value);
  }

  @Override
  public Gateway withMetadata(Metadata value) {
    return new Gateway(value, bindAddress, port, selection, ssl, proxyNames, options, grpcServer,
        sourcePrefixRanges);
  }
}
