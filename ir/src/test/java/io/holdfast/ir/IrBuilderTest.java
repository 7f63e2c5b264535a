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
    assertThat(result.statuses().get(NEW_ROUTES).condition(Condition.ACCEPTED).reason())
        .isEqualTo(IrBuilder.DUPLICATE_DOMAIN);
    assertThat(result.statuses().get(NEW_ROUTES).findings().get(0).message()).contains(OLD_ROUTES.toString());
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
