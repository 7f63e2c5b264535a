package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.RouteAction.Backoff;
import io.holdfast.ir.RouteAction.ForwardPolicy;
import io.holdfast.ir.RoutePolicies.Abort;
import io.holdfast.ir.RoutePolicies.Mirror;
import io.holdfast.ir.RoutePolicies.Percent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The IR refuses route policies Envoy would reject or that contradict themselves. */
class RoutePoliciesTest {

  private static final ResourceKey APP = ResourceKey.upstream("demo", "app");
  private static final ResourceKey SHADOW = ResourceKey.upstream("demo", "shadow");
  private static final ResourceKey WEB = new ResourceKey(ResourceKey.VIRTUAL_SERVICE, "demo", "web");

  @Test
  void percentagesBecomePartsPerMillion() {
    assertThat(Percent.of(100)).isEqualTo(Percent.ALL);
    assertThat(Percent.of(2.5).perMillion()).isEqualTo(25_000);
    assertThat(Percent.of(0.00004).perMillion()).isZero();
    assertThatThrownBy(() -> Percent.of(100.1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void contradictionsAreRefused() {
    assertThatThrownBy(() -> new Abort(Percent.ALL, Optional.of(503), Optional.of(14)))
        .hasMessageContaining("exactly one");
    assertThatThrownBy(() -> new Abort(Percent.ALL, Optional.of(600), Optional.empty()))
        .hasMessageContaining("600");
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(1), Optional.of(Duration.ofMillis(10))))
        .hasMessageContaining("below the base");
    assertThatThrownBy(() -> new RouteMatch.QueryParameterMatch("q", new RouteMatch.Present(false)))
        .hasMessageContaining("absence");
    assertThatThrownBy(() -> new ForwardPolicy(Optional.empty(), Optional.empty(), Optional.of("/"),
        Optional.of(new RoutePolicies.RegexRewrite("a", "b")), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), List.of(), Optional.empty())).hasMessageContaining("not both");
  }

  @Test
  void aMirrorToAClusterOutsideTheIrIsRefused() {
    ForwardPolicy mirrored = new ForwardPolicy(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
        Optional.of(new Mirror(SHADOW, Percent.of(10))));
    Route route = new Route(Origin.of(WEB).at("spec.routes[0]"), "r", new RouteMatch(
        new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()), new RouteAction.Forward(APP, mirrored));
    VirtualHost host = new VirtualHost(Origin.of(WEB), List.of("web.test"), List.of(route));
    List<Listener> listeners = List.of(new Listener.ClientApi(Origin.of(WEB), "web.test", host));
    Cluster app = new Cluster(Origin.of(APP), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false, List.of());
    Cluster shadow = new Cluster(Origin.of(SHADOW), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of());

    assertThatThrownBy(() -> new Ir(listeners, List.of(app), List.of()))
        .hasMessageContaining("mirrors to cluster " + SHADOW);
    assertThat(new Ir(listeners, List.of(app, shadow), List.of()).clusters()).hasSize(2);
  }
}
