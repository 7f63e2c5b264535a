package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.RouteAction;
import io.holdfast.api.TcpGateway;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gloo's {@code forwardSniClusterName}, read as one TcpGateway host per reachable Upstream ({@link SniClusters}). */
class GlooSniClusterTest {

  private static final String UPSTREAM = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: %s, namespace: %s}
      spec:
        static: {hosts: [{addr: 192.0.2.50, port: 9000}]}
      ---
      """;

  private static final String GATEWAY = """
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: failover-gateway, namespace: gloo-system}
      spec:
        bindAddress: '::'
        bindPort: 15443
        tcpGateway:
          tcpHosts:
          - name: failover
            destination:
              forwardSniClusterName: {}
      ---
      """;

  /** Lets TcpGateways of gloo-system name team-a's Upstreams. */
  private static final String GRANT = """
      apiVersion: gateway.networking.k8s.io/v1beta1
      kind: ReferenceGrant
      metadata: {name: failover, namespace: team-a}
      spec:
        from: [{group: gateway.holdfast.io, kind: TcpGateway, namespace: gloo-system}]
        to: [{group: gateway.holdfast.io, kind: Upstream}]
      ---
      """;

  private static final String UPSTREAMS = UPSTREAM.formatted("db", "gloo-system")
      + UPSTREAM.formatted("api", "team-a") + UPSTREAM.formatted("echo", "gloo-system");

  private static List<TcpGateway.Host> hosts(String yaml, AccessPolicy.CrossNamespaceRefs mode) {
    GlooReading reading = GlooReading.of(GlooFixtures.load(yaml), mode);
    assertThat(reading.rejected()).isEmpty();
    List<TcpGateway> gateways = reading.holdfastConfig().tcpGateways();
    assertThat(gateways).hasSize(1);
    return gateways.get(0).hosts();
  }

  @Test
  void oneHostPerUpstreamSelectedByGloosClusterName() {
    List<TcpGateway.Host> hosts = hosts(UPSTREAMS + GATEWAY, AccessPolicy.CrossNamespaceRefs.ALLOW);
    assertThat(hosts).extracting(TcpGateway.Host::name).containsExactly("failover-0", "failover-1", "failover-2");
    assertThat(hosts).extracting(h -> h.sniDomains()).containsExactly(List.of("db_gloo-system"),
        List.of("echo_gloo-system"), List.of("api_team-a"));
    assertThat(hosts).extracting(TcpGateway.Host::destination).containsExactly(
        new RouteAction.Forward(ObjectRef.of("gloo-system", "db")),
        new RouteAction.Forward(ObjectRef.of("gloo-system", "echo")),
        new RouteAction.Forward(ObjectRef.of("team-a", "api")));
    assertThat(hosts).allSatisfy(h -> assertThat(h.sslConfig()).isEmpty());
  }

  @Test
  void underGrantAnotherNamespacesUpstreamNeedsAReferenceGrant() {
    assertThat(hosts(UPSTREAMS + GATEWAY, AccessPolicy.CrossNamespaceRefs.GRANT))
        .extracting(h -> h.sniDomains().get(0)).containsExactly("db_gloo-system", "echo_gloo-system");
    assertThat(hosts(UPSTREAMS + GATEWAY + GRANT, AccessPolicy.CrossNamespaceRefs.GRANT))
        .extracting(h -> h.sniDomains().get(0)).containsExactly("db_gloo-system", "echo_gloo-system", "api_team-a");
  }

  @Test
  void aRejectedUpstreamIsNotReachable() {
    String broken = """
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: broken, namespace: gloo-system}
        spec:
          static: {hosts: [{addr: 192.0.2.51, port: 9000}]}
          noSuchField: true
        ---
        """;
    GlooReading reading = GlooReading.of(GlooFixtures.load(UPSTREAMS + broken + GATEWAY));
    assertThat(reading.holdfastConfig().tcpGateways().get(0).hosts()).extracting(h -> h.sniDomains().get(0))
        .containsExactly("db_gloo-system", "echo_gloo-system", "api_team-a");
  }

  @Test
  void servedWithUnderscoreServerNames() {
    ObjectStatus status = GlooFixtures.gateway(GlooFixtures.build(GlooFixtures.load(UPSTREAMS + GATEWAY)),
        "gloo-system", "failover-gateway");
    assertThat(status.isAccepted()).as("%s", status.findings()).isTrue();
  }

  @Test
  void sniDomainsBesideForwardSniClusterNameAreRefused() {
    String gateway = GATEWAY.replace("      destination:",
        "      sslConfig: {sniDomains: [db_gloo-system]}\n      destination:");
    GlooReading reading = GlooReading.of(GlooFixtures.load(UPSTREAMS + gateway));
    assertThat(reading.rejected().values()).singleElement().satisfies(findings -> assertThat(findings)
        .extracting(Finding::reason).contains("ConflictingFields"));
  }

  @Test
  void beyondTheBoundTheGatewayIsRejectedNamingIt() {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i <= SniClusters.MAX_HOSTS; i++) {
      yaml.append(UPSTREAM.formatted("u" + i, "gloo-system"));
    }
    GlooReading atBound = GlooReading.of(GlooFixtures.load(yaml.substring(yaml.indexOf("---") + 4) + GATEWAY));
    assertThat(atBound.holdfastConfig().tcpGateways().get(0).hosts()).hasSize(SniClusters.MAX_HOSTS);
    GlooReading over = GlooReading.of(GlooFixtures.load(yaml + GATEWAY));
    assertThat(over.holdfastConfig().tcpGateways()).isEmpty();
    assertThat(over.rejected().values()).singleElement().satisfies(findings -> assertThat(findings)
        .filteredOn(f -> f.severity() == Finding.Severity.ERROR).singleElement().satisfies(f -> {
          assertThat(f.reason()).isEqualTo(SniClusters.TOO_MANY);
          assertThat(f.message()).contains("1024");
        }));
  }
}
