package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A socket served to proxyless gRPC servers holds only what they accept: plain HTTP chains, no socket options. */
class GrpcServerSocketTest {

  private static final Origin GATEWAY = Origin.of(ResourceKey.gateway("demo", "grpc"));
  private static final Listener.FilterChain PLAIN = new Listener.FilterChain.Http(GATEWAY, "http",
      Listener.ChainMatch.ANY, Optional.empty(), List.of());

  private static Listener.Socket socket(List<Listener.FilterChain> chains, SocketOptions options) {
    return new Listener.Socket(GATEWAY, "0.0.0.0", 50051, chains, new TreeSet<>(List.of("gateway-proxy")), options,
        Listener.DataPlane.GRPC_SERVER);
  }

  @Test
  void aPlainHttpChainIsAccepted() {
    assertThat(socket(List.of(PLAIN), SocketOptions.NONE).dataPlane()).isEqualTo(Listener.DataPlane.GRPC_SERVER);
  }

  @Test
  void socketOptionsAreRefused() {
    assertThatThrownBy(() -> socket(List.of(PLAIN), new SocketOptions(true, Optional.empty())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gRPC server");
  }

  @Test
  void tlsAndTcpChainsAreRefused() {
    Listener.FilterChain tls = new Listener.FilterChain.Http(GATEWAY, "https", Listener.ChainMatch.ANY,
        Optional.of(new Listener.DownstreamTls("secret/demo/cert", Listener.TlsVersion.TLS_1_2, Optional.empty(),
            List.of("h2"))), List.of());
    Listener.FilterChain tcp = new Listener.FilterChain.Tcp(GATEWAY, "tcp", Listener.ChainMatch.ANY,
        Optional.empty(), List.of(new RouteAction.WeightedCluster(ResourceKey.upstream("demo", "db"), 1)));
    assertThatThrownBy(() -> socket(List.of(tls), SocketOptions.NONE)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> socket(List.of(tcp), SocketOptions.NONE)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void withFilterChainsKeepsTheDataPlane() {
    assertThat(socket(List.of(PLAIN), SocketOptions.NONE).withFilterChains(List.of(PLAIN)).dataPlane())
        .isEqualTo(Listener.DataPlane.GRPC_SERVER);
  }

  @Test
  void envoyIsTheDefault() {
    assertThat(new Listener.Socket(GATEWAY, "0.0.0.0", 8080, List.of(PLAIN)).dataPlane())
        .isEqualTo(Listener.DataPlane.ENVOY);
  }
}
