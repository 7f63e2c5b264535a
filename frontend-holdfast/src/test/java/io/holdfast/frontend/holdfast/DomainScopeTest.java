package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Gateway;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.VirtualServiceSelection;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Ir;
import io.holdfast.ir.Listener;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Two VirtualServices conflict on a domain only on a Gateway whose one route configuration would hold both. */
class DomainScopeTest {

  private static final ResourceKey OLD = ResourceKey.virtualService("default", "old");
  private static final ResourceKey NEW = ResourceKey.virtualService("default", "new");

  private final Validator validator = new Validator();

  private static String vs(String name, String day, String domains) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, creationTimestamp: "2026-01-%sT00:00:00Z"}
        spec:
          domains: [%s]
          routes: [{match: {prefix: /}, route: {upstream: u}}]
        """.formatted(name, day, domains);
  }

  private static String gateway(String name, int port, String selection) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: %s}
        spec: {port: %d%s}
        """.formatted(name, port, selection);
  }

  /** Each socket listener's domains, by its Gateway's name. */
  private static Map<String, List<List<String>>> domainsByGateway(Ir ir) {
    Map<String, List<List<String>>> out = new TreeMap<>();
    ir.listeners().stream().filter(l -> l instanceof Listener.Socket).forEach(l -> out.put(l.origin().object().name(),
        l.virtualHosts().stream().map(h -> h.domains()).toList()));
    return out;
  }

  private static List<String> clientTargets(Ir ir) {
    return ir.listeners().stream().filter(l -> l instanceof Listener.ClientApi)
        .map(l -> ((Listener.ClientApi) l).target() + " " + l.origin().object().name()).toList();
  }

  @Test
  void gatewaysSelectingDisjointVirtualServicesServeTheSameDomainOnEach() {
    ValidationResult result = validator.validate(config(upstream("u", 9101),
        vs("old", "01", "shared.test"), vs("new", "02", "shared.test, new.test"),
        gateway("a", 8080, ", virtualServices: [{name: old}]"), gateway("b", 8081, ", virtualServices: [{name: new}]")));
    assertThat(result.status(OLD).state()).isEqualTo(State.ACCEPTED);
    // Served to Envoy on b; only gRPC clients of shared.test get the older one.
    assertThat(result.status(NEW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(NEW).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.DUPLICATE_DOMAIN);
      assertThat(p.field()).isEqualTo("spec.domains[0]");
      assertThat(p.message()).contains("gRPC clients asking for xds:///shared.test get VirtualService/default/old");
    });
    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    assertThat(domainsByGateway(ir)).isEqualTo(Map.of("a", List.of(List.of("shared.test")),
        "b", List.of(List.of("shared.test", "new.test"))));
    assertThat(clientTargets(ir)).containsExactly("new.test new", "shared.test old");
  }

  @Test
  void theSamePairOnOneGatewayIsStillADuplicateDomain() {
    ValidationResult result = validator.validate(config(upstream("u", 9101),
        vs("new", "02", "shared.test"), vs("old", "01", "shared.test"), gateway("a", 8080, "")));
    assertThat(result.status(OLD).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(NEW).state()).isEqualTo(State.REJECTED);
    assertThat(result.status(NEW).problems()).singleElement().satisfies(p -> {
      assertThat(p.reason()).isEqualTo(Reasons.DUPLICATE_DOMAIN);
      assertThat(p.message()).isEqualTo("domain \"shared.test\" is already served by VirtualService/default/old,"
          + " which is older, on Gateway/default/a (one route configuration holds a domain once)");
    });
    assertThat(domainsByGateway(HoldfastFrontEnd.lowerAccepted(result.accepted())))
        .isEqualTo(Map.of("a", List.of(List.of("shared.test"))));
  }

  @Test
  void aLoserServedCleanlyElsewhereIsOnlyLeftOutOfTheGatewayItLostOn() {
    ValidationResult result = validator.validate(config(upstream("u", 9101),
        vs("old", "01", "shared.test"), vs("new", "02", "shared.test"),
        gateway("all", 8080, ""), gateway("b", 8081, ", virtualServices: [{name: new}]")));
    assertThat(result.status(OLD).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(NEW).state()).isEqualTo(State.WARNING);
    assertThat(result.status(NEW).problems()).extracting(p -> p.reason())
        .containsExactly(Reasons.DUPLICATE_DOMAIN, Reasons.DUPLICATE_DOMAIN); // the Gateway, and gRPC clients
    assertThat(result.status(NEW).problems()).anySatisfy(p ->
        assertThat(p.message()).contains("on Gateway/default/all").contains("still served by its other Gateways"));
    assertThat(result.accepted().gateways()).extracting(Gateway::selection).containsExactly(
        new VirtualServiceSelection.Named(List.of(ObjectRef.of("default", "old"))),
        new VirtualServiceSelection.Named(List.of(ObjectRef.of("default", "new"))));
    assertThat(domainsByGateway(HoldfastFrontEnd.lowerAccepted(result.accepted()))).isEqualTo(Map.of(
        "all", List.of(List.of("shared.test")), "b", List.of(List.of("shared.test"))));
  }

  @Test
  void aLoserOnManyGatewaysGetsBoundedFindings() {
    List<String> yamls = new ArrayList<>(List.of(upstream("u", 9101), vs("old", "01", "shared.test"),
        vs("new", "02", "shared.test")));
    for (int i = 0; i < 12; i++) {
      yamls.add(gateway("all" + i, 8080 + i, ""));
    }
    ValidationResult rejected = validator.validate(config(yamls.toArray(String[]::new)));
    assertThat(rejected.status(NEW).state()).isEqualTo(State.REJECTED);
    assertThat(rejected.status(NEW).problems()).filteredOn(p -> p.reason().equals(Reasons.DUPLICATE_DOMAIN))
        .singleElement().satisfies(p -> assertThat(p.message()).endsWith("; so on 11 more Gateway(s) serving it"));
    yamls.add(gateway("own", 9090, ", virtualServices: [{name: new}]"));
    ValidationResult pruned = validator.validate(config(yamls.toArray(String[]::new)));
    assertThat(pruned.status(NEW).state()).isEqualTo(State.WARNING);
    // Eight Gateways named, the other four counted, and the gRPC clients' warning.
    assertThat(pruned.status(NEW).problems()).hasSize(DomainConflicts.MAX_REPORTED_LOSSES + 2)
        .anySatisfy(p -> assertThat(p.message()).isEqualTo("not served on 4 more Gateway(s) for the same reason"));
    assertThat(pruned.accepted().gateways()).filteredOn(g -> g.selection().equals(
        new VirtualServiceSelection.Named(List.of(ObjectRef.of("default", "old"))))).hasSize(12);
  }

  @Test
  void withoutAnyGatewayOnlyGrpcClientsAreSettled() {
    ValidationResult result = validator.validate(config(upstream("u", 9101),
        vs("old", "01", "shared.test, '*.wild.test'"), vs("new", "02", "'*.wild.test', shared.test, own.test")));
    assertThat(result.status(OLD).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(NEW).problems()).extracting(p -> p.field() + " " + p.reason())
        .containsExactly("spec.domains[1] " + Reasons.DUPLICATE_DOMAIN);
    assertThat(clientTargets(HoldfastFrontEnd.lowerAccepted(result.accepted())))
        .containsExactly("own.test new", "shared.test old");
  }

  @Test
  void aDomainLeftToAnOlderVirtualServiceGetsNoGrpcWarningsThroughTheYoungerOne() {
    String redirecting = vs("new", "02", "shared.test").replace("route: {upstream: u}", "redirect: {path: /x}");
    ValidationResult result = validator.validate(config(upstream("u", 9101), vs("old", "01", "shared.test"),
        redirecting, gateway("a", 8080, ", virtualServices: [{name: old}]"),
        gateway("b", 8081, ", virtualServices: [{name: new}]")));
    // Only the gRPC clients' verdict: the redirect never reaches them (without "old" it would warn).
    assertThat(result.status(NEW).problems()).extracting(p -> p.reason()).containsExactly(Reasons.DUPLICATE_DOMAIN);
    ValidationResult alone = validator.validate(config(upstream("u", 9101), redirecting,
        gateway("b", 8081, ", virtualServices: [{name: new}]")));
    assertThat(alone.status(NEW).problems()).extracting(p -> p.reason())
        .containsExactly(Reasons.GRPC_NON_FORWARDING_ROUTE);
  }

  @Test
  void thousandsOfVirtualServicesOnThousandsOfGatewaysAreGroupedByDomainFirst() {
    // Every VirtualService shares "*" with all others, each on its own Gateway: no two meet in a route config.
    int count = 3000;
    List<String> yamls = new ArrayList<>(List.of(upstream("u", 9101)));
    for (int i = 0; i < count; i++) {
      yamls.add(vs("v" + i, "01", "'*'"));
      yamls.add(gateway("g" + i, 10000 + i, ", virtualServices: [{name: v" + i + "}]"));
    }
    long start = System.nanoTime();
    ValidationResult result = validator.validate(config(yamls.toArray(String[]::new)));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(result.statuses().values()).extracting(ResourceStatus::state).containsOnly(State.ACCEPTED);
    System.out.println("validated " + count + " VirtualServices sharing a domain on their own Gateways in " + millis
        + " ms");
    assertThat(millis).as("validation of %d pairs took %d ms", count, millis).isLessThan(30_000);
  }

  @Test
  void thousandsOfGatewaysSelectingThousandsOfVirtualServicesOfOneDomainStayBounded() {
    // The worst case: every Gateway serves every VirtualService, all of one domain; the oldest keeps it everywhere.
    int count = 1000;
    List<String> yamls = new ArrayList<>(List.of(upstream("u", 9101)));
    for (int i = 0; i < count; i++) {
      yamls.add(vs("v" + i, "01", "'*'"));
      yamls.add(gateway("g" + i, 10000 + i, ""));
    }
    long start = System.nanoTime();
    ValidationResult result = validator.validate(config(yamls.toArray(String[]::new)));
    long millis = (System.nanoTime() - start) / 1_000_000;
    System.out.println("validated " + count + " Gateways each serving " + count + " VirtualServices of one domain in "
        + millis + " ms");
    assertThat(result.accepted().virtualServices()).hasSize(1);
    assertThat(result.status(ResourceKey.virtualService("default", "v999")).problems()).hasSize(1);
    assertThat(millis).as("took %d ms", millis).isLessThan(60_000);
  }
}
