package io.holdfast.xds.translate;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static io.holdfast.api.TestManifests.virtualService;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.Listener.ChainMatch;
import io.holdfast.ir.Listener.DownstreamTls;
import io.holdfast.ir.Listener.FilterChain;
import io.holdfast.ir.Listener.TlsVersion;
import io.holdfast.ir.Origin;
import io.holdfast.ir.RouteAction.WeightedCluster;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** TCP chains in translation; the exact resources are pinned by the tcp-* and tls-passthrough golden files. */
class TcpChainsTest {

  private static final ResourceKey TCP = ResourceKey.tcpGateway("default", "edge");
  private static final String TCP_GATEWAY = """
      apiVersion: gateway.holdfast.io/v1
      kind: TcpGateway
      metadata: {name: edge}
      spec:
        port: 10443
        hosts:
          - {name: api, sniDomains: [api.test], upstream: {name: a}}
      """;

  @Test
  void aTcpGatewayIsOneListenerBesideAnHttpGatewayWithNoRoutesOrApiListenersOfItsOwn() throws Exception {
    ValidationResult result = new Validator().validate(config(upstream("a", 9101),
        virtualService("web", "web.test", "a"), gateway("gw", 10080), TCP_GATEWAY));
    Translation translation = EnvoyConstraints.checked(
        new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted())));

    var listeners = translation.snapshot().resources().get(Resources.V3.LISTENER_TYPE_URL);
    assertThat(listeners).containsOnlyKeys("gateway/default/gw", "TcpGateway/default/edge", "web.test");
    assertThat(translation.snapshot().resources().get(Resources.V3.ROUTE_TYPE_URL))
        .containsOnlyKeys("gateway/default/gw", "web.test");
    assertThat(translation.originOf("TcpGateway/default/edge")).contains(TCP);
    Listener tcp = (Listener) listeners.get("TcpGateway/default/edge");
    assertThat(tcp.getListenerFiltersList()).extracting(f -> f.getName())
        .containsExactly(TcpChains.TLS_INSPECTOR_FILTER);
    assertThat(tcp.getFilterChains(0).getFilters(0).getTypedConfig().unpack(TcpProxy.class).getCluster())
        .isEqualTo("default/a");
    Listener http = (Listener) listeners.get("gateway/default/gw");
    assertThat(http.getListenerFiltersList()).as("plain HTTP needs no inspector").isEmpty();
  }

  @Test
  void theCheckerOpensThePackedTcpProxy() {
    FilterChain.Tcp chain = new FilterChain.Tcp(Origin.of(TCP), "x", ChainMatch.ANY, Optional.empty(),
        List.of(new WeightedCluster(ResourceKey.upstream("default", "a"), 2),
            new WeightedCluster(ResourceKey.upstream("default", "b"), 1)));
    var good = TcpChains.filterChain("l", chain);
    assertThat(EnvoyConstraints.check(good)).isEmpty();

    TcpProxy proxy = TcpProxy.newBuilder().setStatPrefix("")
        .setWeightedClusters(TcpProxy.WeightedCluster.newBuilder()
            .addClusters(TcpProxy.WeightedCluster.ClusterWeight.newBuilder().setName("default/a").setWeight(0)))
        .build();
    var broken = good.toBuilder().setFilters(0, good.getFilters(0).toBuilder().setTypedConfig(Any.pack(proxy))).build();
    assertThat(EnvoyConstraints.check(broken)).extracting(v -> v.toString())
        .anySatisfy(v -> assertThat(v).contains("stat_prefix"))
        .anySatisfy(v -> assertThat(v).contains("weight"));
  }

  @Test
  void zeroWeightsAreLeftOutAndTlsTerminationCarriesTheSdsCertificate() throws Exception {
    FilterChain.Tcp split = new FilterChain.Tcp(Origin.of(TCP), "x", ChainMatch.ANY, Optional.empty(),
        List.of(new WeightedCluster(ResourceKey.upstream("default", "a"), 0),
            new WeightedCluster(ResourceKey.upstream("default", "b"), 5)));
    TcpProxy proxy = TcpChains.filterChain("l", split).getFilters(0).getTypedConfig().unpack(TcpProxy.class);
    assertThat(proxy.getWeightedClusters().getClustersList()).extracting(c -> c.getName() + "=" + c.getWeight())
        .containsExactly("default/b=5");

    FilterChain.Tcp terminating = new FilterChain.Tcp(Origin.of(TCP), "x", ChainMatch.ANY,
        Optional.of(new DownstreamTls("cert", TlsVersion.TLS_1_2, Optional.empty(), List.of())),
        List.of(new WeightedCluster(ResourceKey.upstream("default", "a"), 1)));
    var chain = TcpChains.filterChain("l", terminating);
    assertThat(EnvoyConstraints.check(chain)).isEmpty();
    var context = chain.getTransportSocket().getTypedConfig().unpack(
        io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext.class);
    assertThat(context.getCommonTlsContext().getTlsCertificateSdsSecretConfigsList())
        .extracting(c -> c.getName()).containsExactly("cert");
    assertThat(context.getCommonTlsContext().getAlpnProtocolsList()).isEmpty();
    assertThat(context.hasRequireClientCertificate()).isFalse();
  }
}
