package io.holdfast.xds.translate;

import com.google.protobuf.UInt32Value;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.FilterChainMatch;
import io.envoyproxy.envoy.config.listener.v3.ListenerFilter;
import io.envoyproxy.envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector;
import io.envoyproxy.envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy;
import io.holdfast.ir.Listener;
import io.holdfast.ir.RouteAction.WeightedCluster;

/**
 * TCP filter chains: a {@code tcp_proxy} to one cluster, or to several by weight, selected by TLS server name
 * when the chain has server names. Without TLS settings such a chain passes TLS through: Envoy reads the SNI from
 * the ClientHello ({@link #tlsInspector()}) and forwards the connection's bytes unchanged; with them it terminates
 * TLS and forwards plain TCP. Pure.
 */
final class TcpChains {

  static final String TCP_PROXY_FILTER = "envoy.filters.network.tcp_proxy";
  static final String TLS_INSPECTOR_FILTER = "envoy.filters.listener.tls_inspector";

  private TcpChains() {
  }

  /**
   * The Envoy chain for {@code tcp} on the listener named {@code listenerName}; named after the IR chain, with
   * stats under {@code <listener>_<chain>}.
   *
   * A chain with TLS settings terminates TLS with its SDS certificate ({@link TlsTranslator}) and proxies the
   * decrypted bytes.
   */
  static FilterChain filterChain(String listenerName, Listener.FilterChain.Tcp tcp) {
    FilterChain.Builder chain = FilterChain.newBuilder().setName(tcp.name());
    chainMatch(tcp.match()).ifPresent(chain::setFilterChainMatch);
    tcp.tls().ifPresent(tls -> chain.setTransportSocket(TlsTranslator.transportSocket(tls)));
    return chain.addFilters(Filter.newBuilder()
            .setName(TCP_PROXY_FILTER)
            .setTypedConfig(Protos.pack(tcpProxy(listenerName + "_" + tcp.name(), tcp))))
        .build();
  }

  /** Reads the ClientHello's SNI for {@code filter_chain_match.server_names}; needed whenever a chain uses them. */
  static ListenerFilter tlsInspector() {
    return ListenerFilter.newBuilder()
        .setName(TLS_INSPECTOR_FILTER)
        .setTypedConfig(Protos.pack(TlsInspector.getDefaultInstance()))
        .build();
  }

  /**
   * One cluster is sent as {@code cluster}; several as {@code weighted_clusters}, leaving out weight 0 (Envoy
   * requires every weight to be at least 1; validation makes sure some weight is positive).
   */
  private static TcpProxy tcpProxy(String statPrefix, Listener.FilterChain.Tcp tcp) {
    TcpProxy.Builder proxy = TcpProxy.newBuilder().setStatPrefix(statPrefix.replaceAll("[^A-Za-z0-9-]", "_"));
    if (tcp.clusters().size() == 1) {
      return proxy.setCluster(EnvoyNames.cluster(tcp.clusters().get(0).cluster())).build();
    }
    TcpProxy.WeightedCluster.Builder weighted = TcpProxy.WeightedCluster.newBuilder();
    for (WeightedCluster target : tcp.clusters()) {
      if (target.weight() > 0) {
        weighted.addClusters(TcpProxy.WeightedCluster.ClusterWeight.newBuilder()
            .setName(EnvoyNames.cluster(target.cluster()))
            .setWeight(target.weight()));
      }
    }
    if (weighted.getClustersCount() == 0) {
      throw new IllegalArgumentException(tcp.origin() + ": every cluster has weight 0");
    }
    return proxy.setWeightedClusters(weighted).build();
  }

  /**
   * Envoy's match for {@code match}: its server names and client networks; empty for {@link Listener.ChainMatch#ANY}
   * (Envoy's default match takes every connection).
   */
  static java.util.Optional<FilterChainMatch> chainMatch(Listener.ChainMatch match) {
    if (match.equals(Listener.ChainMatch.ANY)) {
      return java.util.Optional.empty();
    }
    FilterChainMatch.Builder out = FilterChainMatch.newBuilder().addAllServerNames(match.serverNames());
    for (Listener.SourceRange range : match.sourcePrefixRanges()) {
      out.addSourcePrefixRanges(io.envoyproxy.envoy.config.core.v3.CidrRange.newBuilder()
          .setAddressPrefix(range.addressPrefix())
          .setPrefixLen(UInt32Value.of(range.prefixLength())));
    }
    return java.util.Optional.of(out.build());
  }
}
