package io.holdfast.server.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ApiObject;
import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.ResourceKey;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FirstServedOrderTest {

  /** A clock that stands still: ages must still order builds. */
  private final Clock still = Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC);

  private static GatewayConfig config(String... names) {
    StringBuilder yaml = new StringBuilder();
    for (String name : names) {
      yaml.append("""
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: %s}
          spec: {domains: [%s.test], routes: [{match: {prefix: /}, route: {upstream: up}}]}
          ---
          """.formatted(name, name));
    }
    yaml.append("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: route, namespace: default}
        spec: {hostnames: [r.test]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up, creationTimestamp: "2020-01-01T00:00:00Z"}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        """);
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("c.yaml",
        yaml.toString())), Map.of());
    assertThat(loaded.errors()).isEmpty();
    return loaded.config();
  }

  private static Instant created(GatewayConfig config, String name) {
    return config.virtualServices().stream().filter(vs -> vs.metadata().name().equals(name)).findFirst()
        .orElseThrow().metadata().creationTimestamp().orElseThrow();
  }

  @Test
  void laterBuildsNewcomersAreYoungerEvenOnAStandingClock() {
    FirstServedOrder ages = new FirstServedOrder(still);
    GatewayConfig first = ages.stamp(config("web", "zeta"));
    assertThat(created(first, "web")).isEqualTo(created(first, "zeta")).isEqualTo(still.instant());
    GatewayConfig second = ages.stamp(config("web", "zeta", "aaa"));
    assertThat(created(second, "web")).isEqualTo(created(first, "web"));
    assertThat(created(second, "aaa")).isAfter(created(second, "web"));
    GatewayConfig third = ages.stamp(config("web", "zeta", "aaa", "aa"));
    assertThat(created(third, "aa")).isAfter(created(third, "aaa"));
  }

  @Test
  void ownCreationTimestampsAreKeptAndGatewayApiObjectsAreStampedToo() {
    FirstServedOrder ages = new FirstServedOrder(still);
    GatewayConfig stamped = ages.stamp(config("web"));
    assertThat(stamped.upstreams().get(0).metadata().creationTimestamp())
        .contains(Instant.parse("2020-01-01T00:00:00Z"));
    ApiObject route = stamped.apiObjects().get(0);
    assertThat(route.at("/metadata/creationTimestamp").asString()).isEqualTo(still.instant().toString());
    assertThat(ages.current()).containsOnlyKeys(ResourceKey.virtualService("default", "web"), route.key());
    // Stable: an unchanged config stays equal build after build (the incremental front end relies on it).
    assertThat(ages.stamp(config("web"))).isEqualTo(stamped);
  }

  @Test
  void aRemovedObjectIsForgottenAndComesBackAsTheNewest() {
    FirstServedOrder ages = new FirstServedOrder(still);
    ages.stamp(config("web", "aaa"));
    ages.stamp(config("aaa"));
    assertThat(ages.current()).doesNotContainKey(ResourceKey.virtualService("default", "web"));
    GatewayConfig back = ages.stamp(config("aaa", "web"));
    assertThat(created(back, "web")).isAfter(created(back, "aaa"));
  }

  @Test
  void restoredTimesAreKeptAndNewcomersAreYoungerThanAllOfThem() {
    FirstServedOrder before = new FirstServedOrder(Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"),
        ZoneOffset.UTC));
    before.stamp(config("web"));
    // After a restart the clock is behind (stepped back): ages still order as first served.
    FirstServedOrder after = new FirstServedOrder(still);
    after.restore(before.current());
    GatewayConfig stamped = after.stamp(config("web", "aaa"));
    assertThat(created(stamped, "web")).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    assertThat(created(stamped, "aaa")).isAfter(created(stamped, "web"));
  }

  @Test
  void resourcesKeepEverythingButTheirCreationTime() {
    GatewayConfig plain = config("web");
    GatewayConfig stamped = new FirstServedOrder(still).stamp(plain);
    for (int i = 0; i < plain.resources().size(); i++) {
      GatewayResource before = plain.resources().get(i);
      GatewayResource after = stamped.resources().get(i);
      if (before.metadata().creationTimestamp().isPresent()) {
        assertThat(after).isEqualTo(before);
      } else {
        assertThat(after.metadata().withCreationTimestamp(Instant.EPOCH))
            .isEqualTo(before.metadata().withCreationTimestamp(Instant.EPOCH));
        assertThat(after.metadata().creationTimestamp()).isEqualTo(Optional.of(still.instant()));
      }
    }
    assertThat(stamped.unparsed()).isEqualTo(plain.unparsed());
    assertThat(stamped.secrets()).isEqualTo(plain.secrets());
    assertThat(stamped.serviceEndpoints()).isEqualTo(plain.serviceEndpoints());
  }

  /**
   * Stamping changes the creationTimestamp and nothing else: it once rebuilt Gateways and TcpGateways through
   * shorter constructors, so in file mode every Gateway lost its proxyNames (served by the default proxy instead
   * of its own) and its options (access logs, timeouts, PROXY protocol), while `validate` judged them as written.
   * Every record component but metadata is compared, so a field added later is covered too.
   */
  @Test
  void stampingKeepsEveryFieldOfEveryKind() throws Exception {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("all.yaml", """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up, namespace: default}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}, http2: true, connectTimeout: 2s}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: default}
        spec:
          port: 10080
          proxyNames: [tenant-a]
          options: {xffNumTrustedHops: 2, accessLogs: [{stdout: {}}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: tcp, namespace: default}
        spec: {port: 10090, proxyNames: [tenant-a], hosts: [{name: all, upstream: {name: up}}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: vs, namespace: default}
        spec:
          domains: [vs.test]
          options: {security: {rbac: {rules: [{clientIp: [192.0.2.0/24]}]}}}
          routes: [{match: {prefix: /}, delegate: {ref: {name: rt}}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: rt, namespace: default}
        spec: {weight: 3, routes: [{match: {prefix: /a}, route: {upstream: up}}]}
        """)), Map.of());
    assertThat(loaded.errors()).isEmpty();
    assertThat(loaded.config().resources()).hasSize(5);
    GatewayConfig stamped = new FirstServedOrder(still).stamp(loaded.config());
    for (GatewayResource before : loaded.config().resources()) {
      GatewayResource after = stamped.resources().stream().filter(r -> r.key().equals(before.key())).findFirst()
          .orElseThrow();
      assertThat(after.metadata().creationTimestamp()).contains(still.instant());
      for (java.lang.reflect.RecordComponent component : before.getClass().getRecordComponents()) {
        if (!component.getName().equals("metadata")) {
          assertThat(component.getAccessor().invoke(after)).as(before.key() + " " + component.getName())
              .isEqualTo(component.getAccessor().invoke(before));
        }
      }
    }
    io.holdfast.api.Gateway gateway = stamped.gateways().get(0);
    assertThat(gateway.proxyNames()).containsExactly("tenant-a");
    assertThat(gateway.options()).isNotEqualTo(io.holdfast.api.TrafficOptions.Listener.NONE);
  }
}
