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
 */
public record Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection,
    boolean ssl, List<String> proxyNames, TrafficOptions.Listener options, boolean grpcServer)
    implements GatewayResource {

  public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";

  public Gateway {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(selection, "selection");
    proxyNames = List.copyOf(proxyNames);
    Objects.requireNonNull(options, "options");
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
    return new Gateway(metadata, bindAddress, port, newSelection, ssl, proxyNames, options, grpcServer);
  }

  @Override
  public String kind() {
    return ResourceKey.GATEWAY;
  }

  public Gateway withOptions(TrafficOptions.Listener value) {
    return new Gateway(metadata, bindAddress, port, selection, ssl, proxyNames, value, grpcServer);
  }

  @Override
  public Gateway withMetadata(Metadata value) {
    return new Gateway(value, bindAddress, port, selection, ssl, proxyNames, options, grpcServer);
  }
}
