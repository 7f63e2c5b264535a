package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ServiceRef;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link HoldfastFrontEnd#lowerIncrementally}: an edit lowers only the objects it changed, the others are the
 * previous revision's very instances, and the IR always equals a fresh lowering.
 */
class IncrementalLoweringTest {

  private final Validator validator = new Validator();
  private final HoldfastFrontEnd frontEnd = new HoldfastFrontEnd();

  private static String vs(String name, String domain, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s}
        spec:
          domains: [%s]
          routes:
        %s""".formatted(name, domain, routes.indent(4));
  }

  private static String route(String prefix, String upstream) {
    return "- match: {prefix: " + prefix + "}\n  route: {upstream: " + upstream + "}\n";
  }

  private static String table(String name, String routes) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: %s, labels: {team: a}}
        spec:
          routes:
        %s""".formatted(name, routes.indent(4));
  }

  private static String kubeUpstream(String name) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: %s}
        spec:
          kube: {name: %s, port: 8080}
        """.formatted(name, name);
  }

  private GatewayConfig accepted(GatewayConfig config) {
    ValidationResult result = validator.validate(config);
    assertThat(result.statuses().values()).allSatisfy(s -> assertThat(s.isServed()).as(s.toString()).isTrue());
    return result.accepted();
  }

  private List<String> base(String webRoute) {
    List<String> yamls = new ArrayList<>(List.of(upstream("a", 9101), upstream("b", 9102), kubeUpstream("k"),
        gateway("gw", 10080)));
    yamls.add(vs("web", "web.test", webRoute + route("/k", "k")));
    yamls.add(vs("api", "api.test", route("/", "b") + "- match: {prefix: /team}\n  delegate: {selector: {matchLabels: {team: a}}}\n"));
    yamls.add(table("team-a", route("/team/a", "a")));
    return yamls;
  }

  private Ir lower(GatewayConfig config) {
    Ir incremental = frontEnd.lowerIncrementally(accepted(config));
    assertThat(incremental).isEqualTo(HoldfastFrontEnd.lowerAccepted(accepted(config)));
    return incremental;
  }

  @Test
  void anEditLowersOnlyTheEditedObjectAndReusesTheOthersInstances() {
    Ir first = lower(config(base(route("/", "a")).toArray(String[]::new)));
    assertThat(frontEnd.loweredInLatestRevision()).isEqualTo(5); // three clusters, two virtual hosts

    Ir second = lower(config(base(route("/v2", "a")).toArray(String[]::new)));

    assertThat(frontEnd.loweredInLatestRevision()).isEqualTo(1);
    assertThat(host(second, "api")).isSameAs(host(first, "api")).isNotSameAs(host(second, "web"));
    assertThat(host(second, "web")).isNotEqualTo(host(first, "web"));
    for (int i = 0; i < first.clusters().size(); i++) {
      assertThat(second.clusters().get(i)).isSameAs(first.clusters().get(i));
    }
    assertThat(clientHost(second, "api.test")).isSameAs(clientHost(first, "api.test"));
    // A route names its cluster by the cluster's own key instance, which the IR's check finds without comparing.
    assertThat(((RouteAction.Forward) host(second, "web").routes().get(0).action()).cluster())
        .isSameAs(cluster(second, "a").origin().object());
  }

  @Test
  void anUnchangedConfigParsedAgainIsAllReused() {
    Ir first = lower(config(base(route("/", "a")).toArray(String[]::new)));
    Ir again = lower(config(base(route("/", "a")).toArray(String[]::new)));

    assertThat(frontEnd.loweredInLatestRevision()).isZero();
    assertThat(host(again, "web")).isSameAs(host(first, "web"));
  }

  @Test
  void aRouteTableChangeRelowersTheVirtualHostsThatMayReachIt() {
    lower(config(base(route("/", "a")).toArray(String[]::new)));
    List<String> edited = base(route("/", "a"));
    edited.set(edited.size() - 1, table("team-a", route("/team/b", "b")));

    Ir second = lower(config(edited.toArray(String[]::new)));

    assertThat(frontEnd.loweredInLatestRevision()).isEqualTo(2); // both hosts; no cluster
    assertThat(host(second, "api").routes()).extracting(r -> r.match().path().value()).contains("/team/b");
  }

  @Test
  void endpointsOfAKubeUpstreamAreInItsKey() {
    ServiceRef service = new ServiceRef("default", "k", 8080);
    String[] yamls = base(route("/", "a")).toArray(String[]::new);
    Ir first = lower(config(Map.of(service, List.of(new Endpoint("127.0.0.5", 8080))), yamls));
    Ir second = lower(config(Map.of(service, List.of(new Endpoint("127.0.0.6", 8080))), yamls));

    assertThat(frontEnd.loweredInLatestRevision()).isEqualTo(1);
    assertThat(cluster(second, "k")).isNotEqualTo(cluster(first, "k"));
    assertThat(cluster(second, "a")).isSameAs(cluster(first, "a"));
  }

  @Test
  void aDeletedObjectIsForgotten() {
    Ir first = lower(config(base(route("/", "a")).toArray(String[]::new)));
    List<String> without = base(route("/", "a"));
    without.removeIf(yaml -> yaml.contains("name: api"));
    lower(config(without.toArray(String[]::new)));
    Ir back = lower(config(base(route("/", "a")).toArray(String[]::new)));

    assertThat(frontEnd.loweredInLatestRevision()).isEqualTo(1); // api lowered again: the memo kept one revision
    assertThat(host(back, "api")).isEqualTo(host(first, "api")).isNotSameAs(host(first, "api"));
  }

  private static VirtualHost host(Ir ir, String vs) {
    return ir.listeners().stream().filter(Listener.Socket.class::isInstance)
        .flatMap(l -> l.virtualHosts().stream()).filter(h -> h.origin().object().name().equals(vs))
        .findFirst().orElseThrow();
  }

  private static VirtualHost clientHost(Ir ir, String target) {
    return ir.listeners().stream().filter(l -> l instanceof Listener.ClientApi c && c.target().equals(target))
        .map(l -> ((Listener.ClientApi) l).virtualHost()).findFirst().orElseThrow();
  }

  private static Cluster cluster(Ir ir, String upstream) {
    return ir.clusters().stream().filter(c -> c.origin().object().name().equals(upstream)).findFirst().orElseThrow();
  }
}
