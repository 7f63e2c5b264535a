package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.controlplane.cache.Resources;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteMatch;
import io.holdfast.ir.Secret;
import io.holdfast.ir.VirtualHost;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Translation of hand-built IR, as a second front end would produce it. */
class IrTranslationTest {

  private static final ResourceKey UPSTREAM = ResourceKey.upstream("demo", "echo");
  private static final ResourceKey SERVICE = ResourceKey.core("Service", "demo", "echo");
  private static final ResourceKey ROUTES = ResourceKey.virtualService("demo", "web");

  private final Translator translator = new Translator();

  @Test
  void clustersOfTwoKindsWithOneNameAreBothServedAndAttributed() {
    Ir ir = new Ir(List.of(client("web.test", RouteAction.ForwardPolicy.NONE)),
        List.of(cluster(UPSTREAM), cluster(SERVICE)), List.of());
    Translation translation = translator.translate(ir);
    assertThat(translation.snapshot().ofType(Resources.V3.CLUSTER_TYPE_URL))
        .containsOnlyKeys("demo/echo", "Service/demo/echo");
    assertThat(translation.originOf("demo/echo")).contains(UPSTREAM);
    assertThat(translation.originOf("Service/demo/echo")).contains(SERVICE);
  }

  @Test
  void originsCarryTheFieldPath() {
    Ir ir = new Ir(List.of(client("web.test", RouteAction.ForwardPolicy.NONE)), List.of(cluster(UPSTREAM)),
        List.of());
    Translation translation = translator.translate(ir);
    assertThat(translation.fieldOriginOf("web.test")).contains(Origin.of(ROUTES).at("spec.domains[1]"));
    assertThat(translation.originOf("web.test")).contains(ROUTES);
    assertThat(translation.fieldOriginOf("demo/echo")).contains(Origin.of(UPSTREAM));
  }

  @Test
  void refusesInconsistentIr() {
    assertThatThrownBy(() -> new Ir(List.of(client("web.test", RouteAction.ForwardPolicy.NONE)), List.of(),
        List.of())).hasMessageContaining("forwards to cluster Upstream/demo/echo");
    assertThatThrownBy(() -> new Ir(List.of(), List.of(cluster(UPSTREAM), cluster(UPSTREAM)), List.of()))
        .hasMessageContaining("defined twice");
    assertThatThrownBy(() -> new Ir(List.of(client("a.test", RouteAction.ForwardPolicy.NONE),
        client("a.test", RouteAction.ForwardPolicy.NONE)), List.of(cluster(UPSTREAM)), List.of()))
        .hasMessageContaining("listener a.test is defined twice");
    Origin gateway = Origin.of(ResourceKey.gateway("demo", "gw"));
    Listener.Socket twice = new Listener.Socket(gateway, "0.0.0.0", 8080, List.of(new Listener.FilterChain.Http(
        gateway, "http", Listener.ChainMatch.ANY, Optional.empty(), List.of(
            new VirtualHost(Origin.of(ROUTES), List.of("*"), List.of()),
            new VirtualHost(Origin.of(ResourceKey.virtualService("demo", "other")), List.of("*"), List.of())))));
    assertThatThrownBy(() -> new Ir(List.of(twice), List.of(), List.of()))
        .hasMessageContaining("domain * is served twice on listener Gateway/demo/gw");
    Listener.Socket tls = new Listener.Socket(gateway, "0.0.0.0", 8443, List.of(new Listener.FilterChain.Http(
        gateway, "https", Listener.ChainMatch.ANY,
        Optional.of(new Listener.DownstreamTls("demo/cert", Listener.TlsVersion.TLS_1_2, Optional.empty(),
            List.of("h2", "http/1.1"))), List.of())));
    assertThatThrownBy(() -> new Ir(List.of(tls), List.of(), List.of()))
        .hasMessageContaining("refers to secret demo/cert, which is not in the IR");
    Secret ca = new Secret(Origin.of(SERVICE), "demo/cert", new Secret.Content.TrustedCa("pem"));
    assertThatThrownBy(() -> new Ir(List.of(tls), List.of(), List.of(ca)))
        .hasMessageContaining("needs secret demo/cert to hold CertificateAndKey");
    assertThatThrownBy(() -> new Ir(List.of(), List.of(), List.of(ca, ca))).hasMessageContaining("defined twice");
  }

  private static Cluster cluster(ResourceKey key) {
    return new Cluster(Origin.of(key), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of(new Cluster.WeightedEndpoint("127.0.0.1", 8080, 1)));
  }

  private static Listener client(String domain, RouteAction.ForwardPolicy policy) {
    Origin origin = Origin.of(ROUTES);
    Route route = new Route(origin.at("spec.routes[0]"), "routes[0]",
        new RouteMatch(new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()),
        new RouteAction.Forward(UPSTREAM, policy));
    return new Listener.ClientApi(origin.at("spec.domains[1]"), domain,
        new VirtualHost(origin, List.of(domain), List.of(route)));
  }
}
