package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the builder settles between front ends: two APIs lowering onto the same ports, domains and targets. */
class IrBuilderTest {

  private static final Instant EARLY = Instant.parse("2025-01-01T00:00:00Z");
  private static final Instant LATE = Instant.parse("2025-06-01T00:00:00Z");
  private static final ResourceKey OLD_GATEWAY = new ResourceKey("Gateway", "demo", "old");
  private static final ResourceKey NEW_GATEWAY = new ResourceKey("OtherGateway", "demo", "new");
  private static final ResourceKey OLD_ROUTES = new ResourceKey("VirtualService", "demo", "old");
  private static final ResourceKey NEW_ROUTES = new ResourceKey("OtherRoute", "demo", "new");

  @Test
  void theOlderListenerKeepsAnOverlappingAddressAndPort() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, NEW_GATEWAY, EARLY.plusSeconds(1));
    accepted(builder, OLD_GATEWAY, EARLY);
    builder.add(socket(NEW_GATEWAY, "127.0.0.1", 8080)).add(socket(OLD_GATEWAY, "0.0.0.0", 8080));

    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners()).extracting(Listener::origin).containsExactly(Origin.of(OLD_GATEWAY));
    ObjectStatus loser = result.statuses().get(NEW_GATEWAY);
    assertThat(loser.isAccepted()).isFalse();
    assertThat(loser.condition(Condition.ACCEPTED).reason()).isEqualTo(IrBuilder.DUPLICATE_LISTENER);
    assertThat(loser.findings().get(0).message()).contains(OLD_GATEWAY.toString());
    assertThat(result.statuses().get(OLD_GATEWAY).isAccepted()).isTrue();
  }

  @Test
  void aTcpSocketAndAnHttpSocketOnOnePortLeaveItToTheOlder() {
    ResourceKey tcpGateway = new ResourceKey("TcpGateway", "demo", "tcp");
    ResourceKey upstream = new ResourceKey("Upstream", "demo", "u");
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_GATEWAY, LATE);
    accepted(builder, tcpGateway, EARLY);
    builder.add(new Cluster(Origin.of(upstream), java.time.Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of()));
    builder.add(socket(OLD_GATEWAY, "0.0.0.0", 9443)).add(new Listener.Socket(Origin.of(tcpGateway), "127.0.0.1", 9443,
        List.of(new Listener.FilterChain.Tcp(Origin.of(tcpGateway).at("spec.hosts[0]"), "all", Listener.ChainMatch.ANY,
            Optional.empty(), List.of(new RouteAction.WeightedCluster(upstream, 1))))));

    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners()).extracting(Listener::origin).containsExactly(Origin.of(tcpGateway));
    assertThat(result.statuses().get(OLD_GATEWAY).condition(Condition.ACCEPTED).reason())
        .isEqualTo(IrBuilder.DUPLICATE_LISTENER);
    assertThat(result.statuses().get(OLD_GATEWAY).findings().get(0).message()).contains(tcpGateway.toString());
  }

  @Test
  void aDomainOnOneListenerGoesToTheOlderVirtualHostAndTheLoserGetsAParentCondition() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_GATEWAY, EARLY);
    accepted(builder, OLD_ROUTES, EARLY);
    accepted(builder, NEW_ROUTES, LATE);
    builder.add(new Listener.Socket(Origin.of(OLD_GATEWAY), "0.0.0.0", 8080, List.of(new Listener.FilterChain.Http(
        Origin.of(OLD_GATEWAY), "http", Listener.ChainMatch.ANY, Optional.empty(),
        List.of(host(NEW_ROUTES, "a.test"), host(OLD_ROUTES, "a.test"))))));

    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners().get(0).virtualHosts()).extracting(VirtualHost::origin)
        .containsExactly(Origin.of(OLD_ROUTES));
    ObjectStatus loser = result.statuses().get(NEW_ROUTES);
    assertThat(loser.isAccepted()).as("served elsewhere; refused on this listener only").isTrue();
    assertThat(loser.parents()).singleElement().satisfies(parent -> {
      assertThat(parent.parent()).isEqualTo(OLD_GATEWAY);
      assertThat(parent.conditions()).extracting(Condition::reason).containsExactly(IrBuilder.DUPLICATE_DOMAIN);
    });
  }

  @Test
  void aClientTargetGoesToTheOlderObject() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_ROUTES, EARLY);
    accepted(builder, NEW_ROUTES, LATE);
    builder.add(client(NEW_ROUTES, "a.test")).add(client(OLD_ROUTES, "a.test")).add(client(NEW_ROUTES, "b.test"));

    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners()).extracting(Listener::origin)
        .containsExactly(Origin.of(OLD_ROUTES), Origin.of(NEW_ROUTES));
    // Only its client listener for a.test is left out: its other listeners are served, so it stays accepted.
    assertThat(result.statuses().get(NEW_ROUTES).isAccepted()).isTrue();
    assertThat(result.statuses().get(NEW_ROUTES).findings()).singleElement().satisfies(f -> {
      assertThat(f.severity()).isEqualTo(Finding.Severity.WARNING);
      assertThat(f.reason()).isEqualTo(IrBuilder.DUPLICATE_DOMAIN);
      assertThat(f.message()).contains("xds:///a.test").contains(OLD_ROUTES.toString());
    });
  }

  @Test
  void aFrontEndLoweredLaterLearnsWhichOlderSocketHoldsItsPort() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_GATEWAY, EARLY);
    builder.add(socket(OLD_GATEWAY, "0.0.0.0", 8080));
    assertThat(builder.olderSocketHolder("127.0.0.1", 8080, NEW_GATEWAY, Optional.of(LATE))).contains(OLD_GATEWAY);
    assertThat(builder.olderSocketHolder("127.0.0.1", 8081, NEW_GATEWAY, Optional.of(LATE))).isEmpty();
    assertThat(builder.olderSocketHolder("0.0.0.0", 8080, NEW_GATEWAY, Optional.of(EARLY.minusSeconds(1))))
        .as("a younger holder loses in build instead").isEmpty();
    assertThat(builder.olderSocketHolder("0.0.0.0", 8080, OLD_GATEWAY, Optional.of(EARLY))).isEmpty();
  }

  @Test
  void aFrontEndLoweredLaterLearnsWhichOlderObjectHoldsAClientTarget() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_ROUTES, EARLY);
    builder.add(client(OLD_ROUTES, "a.test"));
    assertThat(builder.olderTargetHolder("a.test", NEW_ROUTES, Optional.of(LATE))).contains(OLD_ROUTES);
    assertThat(builder.olderTargetHolder("b.test", NEW_ROUTES, Optional.of(LATE))).isEmpty();
    assertThat(builder.olderTargetHolder("a.test", NEW_ROUTES, Optional.of(EARLY.minusSeconds(1)))).isEmpty();
  }

  @Test
  void oneObjectMayHoldSocketsOnSeveralPorts() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, NEW_GATEWAY, EARLY);
    builder.add(socket(NEW_GATEWAY, "0.0.0.0", 8080)).add(socket(NEW_GATEWAY, "0.0.0.0", 8443));
    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners()).hasSize(2);
    assertThat(result.statuses().get(NEW_GATEWAY).isAccepted()).isTrue();
  }

  /** A front end's bug (a route to a cluster it never added) costs only the object whose route it is. */
  @Test
  void anInvariantBreachLeavesOutOnlyTheObjectsItNames() {
    ResourceKey upstream = new ResourceKey("Upstream", "demo", "u");
    ResourceKey broken = new ResourceKey("RouteTable", "demo", "broken");
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_GATEWAY, EARLY);
    accepted(builder, OLD_ROUTES, EARLY);
    accepted(builder, NEW_ROUTES, LATE);
    accepted(builder, broken, LATE);
    builder.add(new Cluster(Origin.of(upstream), java.time.Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false,
        List.of()));
    Route good = route(OLD_ROUTES, upstream);
    Route dangling = route(broken, new ResourceKey("Upstream", "demo", "never-added"));
    builder.add(new Listener.Socket(Origin.of(OLD_GATEWAY), "0.0.0.0", 8080, List.of(new Listener.FilterChain.Http(
        Origin.of(OLD_GATEWAY), "http", Listener.ChainMatch.ANY, Optional.empty(), List.of(
            new VirtualHost(Origin.of(OLD_ROUTES), List.of("a.test"), List.of(good, dangling)),
            new VirtualHost(Origin.of(NEW_ROUTES), List.of("b.test"), List.of(route(NEW_ROUTES, upstream))))))));

    IrBuilder.Result result = builder.build();

    assertThat(result.breaches()).singleElement().satisfies(breach -> {
      assertThat(breach.objects()).containsExactly(broken);
      assertThat(breach.message()).contains("never-added");
    });
    assertThat(result.ir().listeners().get(0).virtualHosts()).extracting(VirtualHost::origin)
        .containsExactly(Origin.of(OLD_ROUTES), Origin.of(NEW_ROUTES));
    assertThat(result.ir().listeners().get(0).virtualHosts().get(0).routes()).containsExactly(good);
    ObjectStatus left = result.statuses().get(broken);
    assertThat(left.isAccepted()).isFalse();
    assertThat(left.condition(Condition.ACCEPTED).reason()).isEqualTo(IrBuilder.INTERNAL_ERROR);
    assertThat(left.findings()).singleElement().satisfies(f -> assertThat(f.message()).contains("never-added"));
    assertThat(result.statuses().get(OLD_ROUTES).isAccepted()).isTrue();
    assertThat(result.statuses().get(NEW_ROUTES).findings()).isEmpty();
  }

  @Test
  void aStatusRecordedTwiceIsContainedOnItsObject() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_GATEWAY, EARLY);
    accepted(builder, OLD_GATEWAY, EARLY);
    accepted(builder, NEW_GATEWAY, LATE);
    builder.add(socket(OLD_GATEWAY, "0.0.0.0", 8080)).add(socket(NEW_GATEWAY, "0.0.0.0", 8081));

    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners()).extracting(Listener::origin).containsExactly(Origin.of(NEW_GATEWAY));
    assertThat(result.statuses().get(OLD_GATEWAY).condition(Condition.ACCEPTED).reason())
        .isEqualTo(IrBuilder.INTERNAL_ERROR);
    assertThat(result.breaches()).extracting(IrBuilder.Breach::objects).containsExactly(List.of(OLD_GATEWAY));
  }

  @Test
  void aRollBackForgetsWhatWasAddedSinceTheMark() {
    IrBuilder builder = new IrBuilder();
    accepted(builder, OLD_GATEWAY, EARLY);
    builder.add(socket(OLD_GATEWAY, "0.0.0.0", 8080));
    IrBuilder.Mark mark = builder.mark();
    accepted(builder, NEW_GATEWAY, LATE);
    builder.add(socket(NEW_GATEWAY, "0.0.0.0", 8081));
    assertThat(builder.since(mark).statuses()).extracting(ObjectStatus::key).containsExactly(NEW_GATEWAY);
    assertThat(builder.since(mark).listeners()).extracting(Listener::origin).containsExactly(Origin.of(NEW_GATEWAY));

    builder.rollBack(mark);
    IrBuilder.Result result = builder.build();
    assertThat(result.ir().listeners()).extracting(Listener::origin).containsExactly(Origin.of(OLD_GATEWAY));
    assertThat(result.statuses()).containsOnlyKeys(OLD_GATEWAY);
  }

  private static Route route(ResourceKey owner, ResourceKey cluster) {
    return new Route(Origin.of(owner).at("spec.routes[0]"), owner.name(), new RouteMatch(
        new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()), new RouteAction.Forward(cluster,
        RouteAction.ForwardPolicy.NONE));
  }

  private static void accepted(IrBuilder builder, ResourceKey key, Instant created) {
    builder.status(ObjectStatus.of(key, 1, List.of()), Optional.of(created));
  }

  private static Listener socket(ResourceKey key, String address, int port) {
    return new Listener.Socket(Origin.of(key), address, port, List.of(new Listener.FilterChain.Http(
        Origin.of(key), "http", Listener.ChainMatch.ANY, Optional.empty(), List.of())));
  }

  private static Listener client(ResourceKey key, String target) {
    return new Listener.ClientApi(Origin.of(key), target, host(key, target));
  }

  private static VirtualHost host(ResourceKey key, String domain) {
    return new VirtualHost(Origin.of(key), List.of(domain), List.of());
  }
}
