package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Ir;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Origin;
import io.holdfast.ir.RouteAction.WeightedCluster;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TcpGatewayValidationTest {

  private static final ResourceKey TCP = ResourceKey.tcpGateway("default", "edge");
  private static final String PASSTHROUGH = """
      apiVersion: gateway.holdfast.io/v1
      kind: TcpGateway
      metadata: {name: edge}
      spec:
        bindAddress: 127.0.0.1
        port: 10443
        hosts:
          - name: api
            sniDomains: [api.test, "*.api.test"]
            upstream: {name: a}
          - name: web
            sniDomains: [web.test]
            split: [{upstream: {name: a}, weight: 3}, {upstream: {name: b}, weight: 1}]
          - name: rest
            upstream: {name: b}
      """;

  private final Validator validator = new Validator();

  /** A TcpGateway named edge on {@code port} whose spec.hosts is {@code hosts} (YAML flow list). */
  private static String tcp(String hosts) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge}
        spec: {port: 9000, hosts: %s}
        """.formatted(hosts);
  }

  private List<String> problems(String tcpGateway, String... others) {
    String[] yamls = new String[others.length + 1];
    yamls[0] = tcpGateway;
    System.arraycopy(others, 0, yamls, 1, others.length);
    ResourceStatus status = validator.validate(config(yamls)).status(TCP);
    assertThat(status.state()).isEqualTo(State.REJECTED);
    return status.problems().stream().map(p -> p.field() + " " + p.reason()).toList();
  }

  @Test
  void passthroughHostsAndDefaultAreLoweredToOneTcpChainEach() {
    ValidationResult result = validator.validate(config(upstream("a", 9101), upstream("b", 9102), PASSTHROUGH));
    assertThat(result.status(TCP).state()).isEqualTo(State.ACCEPTED);

    Ir ir = HoldfastFrontEnd.lowerAccepted(result.accepted());
    assertThat(ir.listeners()).as("a TcpGateway makes no proxyless-gRPC listener").singleElement()
        .isInstanceOf(Listener.Socket.class);
    Listener.Socket socket = (Listener.Socket) ir.listeners().get(0);
    assertThat(socket.origin()).isEqualTo(Origin.of(TCP));
    assertThat(socket.address()).isEqualTo("127.0.0.1");
    assertThat(socket.port()).isEqualTo(10443);
    assertThat(socket.inspectsTls()).isTrue();
    ResourceKey a = ResourceKey.upstream("default", "a");
    ResourceKey b = ResourceKey.upstream("default", "b");
    assertThat(socket.filterChains()).containsExactly(
        new Listener.FilterChain.Tcp(Origin.of(TCP).at("spec.hosts[0]"), "api",
            new Listener.ChainMatch(List.of("api.test", "*.api.test")), Optional.empty(),
            List.of(new WeightedCluster(a, 1))),
        new Listener.FilterChain.Tcp(Origin.of(TCP).at("spec.hosts[1]"), "web",
            new Listener.ChainMatch(List.of("web.test")), Optional.empty(),
            List.of(new WeightedCluster(a, 3), new WeightedCluster(b, 1))),
        new Listener.FilterChain.Tcp(Origin.of(TCP).at("spec.hosts[2]"), "rest", Listener.ChainMatch.ANY,
            Optional.empty(), List.of(new WeightedCluster(b, 1))));
  }

  @Test
  void aPlainTcpProxyDoesNotInspectTls() {
    ValidationResult result =
        validator.validate(config(upstream("a", 9101), tcp("[{name: all, upstream: {name: a}}]")));
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().get(0);
    assertThat(socket.inspectsTls()).isFalse();
  }

  @Test
  void missingAndRejectedUpstreamsRejectTheGatewayNamingTheField() {
    ValidationResult result = validator.validate(config(upstream("a", 0),
        tcp("[{name: x, sniDomains: [x.test], split: [{upstream: {name: a}, weight: 1}]},"
            + " {name: y, upstream: {name: gone, namespace: other}}]")));
    assertThat(result.status(TCP).problems()).containsExactly(
        new Problem("spec.hosts[0].split[0].upstream", Reasons.UPSTREAM_REJECTED,
            "Upstream/default/a is rejected; see its status"),
        new Problem("spec.hosts[1].upstream", Reasons.UPSTREAM_NOT_FOUND, "Upstream/other/gone does not exist"));
    assertThat(result.accepted().tcpGateways()).isEmpty();
  }

  @Test
  void hostsSplitBySourceRangeShareServerNamesAndLowerToOneChainEach() {
    ValidationResult result = validator.validate(config(upstream("a", 9101),
        tcp("[{name: near, sniDomains: [a.test], sourcePrefixRanges: [192.0.2.9/24], upstream: {name: a}},"
            + " {name: far, sniDomains: [a.test], upstream: {name: a}},"
            + " {name: rest, sourcePrefixRanges: ['2001:db8::/32'], upstream: {name: a}},"
            + " {name: all, upstream: {name: a}}]")));
    assertThat(result.status(TCP).state()).isEqualTo(State.ACCEPTED);
    Listener.Socket socket = (Listener.Socket) HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().get(0);
    assertThat(socket.filterChains()).extracting(c -> c.match().sourcePrefixRanges()).containsExactly(
        List.of(new Listener.SourceRange("192.0.2.0", 24)), List.of(),
        List.of(new Listener.SourceRange("2001:db8::", 32)), List.of());
  }

  @Test
  void sourceRangesThatAreMalformedRepeatedOrShadowTheSameHostAreRefused() {
    String u = upstream("a", 9101);
    assertThat(problems(tcp("[{name: x, sourcePrefixRanges: [192.0.2.0/33, 198.51.100.0/24, 198.51.100.1/24],"
        + " upstream: {name: a}}]"), u))
        .containsExactly("spec.hosts[0].sourcePrefixRanges[0] InvalidCidr",
            "spec.hosts[0].sourcePrefixRanges[2] InvalidCidr");
    // The same networks written differently still select the same connections.
    assertThat(problems(tcp("[{name: x, sourcePrefixRanges: [198.51.100.0/24], upstream: {name: a}},"
        + " {name: y, sourcePrefixRanges: [198.51.100.7/24], upstream: {name: a}}]"), u))
        .containsExactly("spec.hosts[1].sniDomains DuplicateHost");
    // More ranges than the bound: one problem for the list, none per entry.
    StringBuilder many = new StringBuilder();
    for (int i = 0; i <= TcpGatewayRules.MAX_SOURCE_RANGES; i++) {
      many.append(i == 0 ? "" : ", ").append("'2001:db8:").append(Integer.toHexString(i)).append("::/48'");
    }
    assertThat(problems(tcp("[{name: x, sourcePrefixRanges: [" + many + "], upstream: {name: a}}]"), u))
        .containsExactly("spec.hosts[0].sourcePrefixRanges InvalidCidr");
  }

  @Test
  void hostsThatWouldTakeTheSameConnectionsRejectTheGatewayNamingTheEarlierHost() {
    String u = upstream("a", 9101);
    assertThat(problems(tcp("[{name: x, sniDomains: [a.test], upstream: {name: a}},"
        + " {name: y, sniDomains: [b.test, a.test], upstream: {name: a}}]"), u))
        .containsExactly("spec.hosts[1].sniDomains[1] DuplicateDomain");
    ResourceStatus twoDefaults = validator.validate(config(u, tcp("[{name: x, upstream: {name: a}},"
        + " {name: y, upstream: {name: a}}]"))).status(TCP);
    assertThat(twoDefaults.problems()).containsExactly(new Problem("spec.hosts[1].sniDomains", Reasons.DUPLICATE_HOST,
        "spec.hosts[0] already takes every connection without a matching SNI name; give this host sniDomains"));
    assertThat(problems(tcp("[{name: x, sniDomains: [a.test], upstream: {name: a}},"
        + " {name: x, sniDomains: [b.test], upstream: {name: a}}]"), u))
        .containsExactly("spec.hosts[1].name DuplicateHost");
    assertThat(problems(tcp("[{name: x, sniDomains: [a.test, a.test], upstream: {name: a}}]"), u))
        .containsExactly("spec.hosts[0].sniDomains[1] DuplicateDomain");
  }

  @Test
  void ownRulesCoverNamesSniSyntaxAddressPortAndWeights() {
    String u = upstream("a", 9101);
    assertThat(problems(tcp("[]"), u)).containsExactly("spec.hosts MissingField");
    assertThat(problems(tcp("[{name: X_1, sniDomains: [\"*\", \"a.*.test\", API.test, \"a.test:443\", \"*.ok.test\"],"
        + " upstream: {name: a}}]"), u)).containsExactly(
        "spec.hosts[0].name InvalidName",
        "spec.hosts[0].sniDomains[0] InvalidDomain",
        "spec.hosts[0].sniDomains[1] InvalidDomain",
        "spec.hosts[0].sniDomains[2] InvalidDomain",
        "spec.hosts[0].sniDomains[3] InvalidDomain");
    // '_' is a server-name character (Gloo's SNI cluster names are <upstream>_<namespace>); '-' still only inside.
    assertThat(problems(tcp("[{name: x, sniDomains: [db_gloo-system, \"*.a_b.test\", \"-a.test\"],"
        + " upstream: {name: a}}]"), u)).containsExactly("spec.hosts[0].sniDomains[2] InvalidDomain");
    assertThat(problems(tcp("[{name: x, split: [{upstream: {name: a}, weight: 0},"
        + " {upstream: {name: A}, weight: -1}]}]"), u)).containsExactly(
        "spec.hosts[0].split[1].upstream.name InvalidName", "spec.hosts[0].split[1].weight InvalidWeight",
        "spec.hosts[0].split ZeroTotalWeight");
    assertThat(problems("""
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge}
        spec: {bindAddress: localhost, port: 70000, hosts: [{name: x, upstream: {name: a}}]}
        """, u)).containsExactly("spec.port PortOutOfRange", "spec.bindAddress InvalidAddress");
  }

  @Test
  void aTcpGatewayAndAGatewayOnOneSocketLeaveItToTheOlder() {
    String older = """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: web, creationTimestamp: "2025-01-01T00:00:00Z"}
        spec: {port: 9000}
        """;
    String younger = """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge, creationTimestamp: "2025-02-01T00:00:00Z"}
        spec: {bindAddress: 127.0.0.1, port: 9000, hosts: [{name: all, upstream: {name: a}}]}
        """;
    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd().lower(config(upstream("a", 9101), older, younger), builder);
    IrBuilder.Result built = builder.build();

    ObjectStatus loser = built.statuses().get(TCP);
    assertThat(loser.isAccepted()).isFalse();
    assertThat(loser.findings()).singleElement().satisfies(f -> {
      assertThat(f.field()).isEqualTo("spec.port");
      assertThat(f.reason()).isEqualTo(Reasons.DUPLICATE_LISTENER);
      assertThat(f.message()).startsWith("address 127.0.0.1 port 9000 is already used by Gateway/default/web"
          + " (0.0.0.0), which is older (");
    });
    assertThat(built.statuses().get(ResourceKey.gateway("default", "web")).isAccepted()).isTrue();
    assertThat(built.ir().listeners()).extracting(Listener::origin)
        .containsExactly(Origin.of(ResourceKey.gateway("default", "web")));
  }

  @Test
  void aBrokenEditKeepsServingTheLastAcceptedHosts() {
    LastGoodValidator lastGood = new LastGoodValidator();
    String u = upstream("a", 9101);
    lastGood.validate(config(u, tcp("[{name: x, sniDomains: [a.test], upstream: {name: a}}]")));
    ValidationResult broken = lastGood.validate(config(u, tcp("[{name: x, sniDomains: [a.test], upstream: {name: a}},"
        + " {name: y, sniDomains: [a.test], upstream: {name: a}}]")));

    ResourceStatus status = broken.status(TCP);
    assertThat(status.state()).isEqualTo(State.REJECTED);
    assertThat(status.problems()).extracting(Problem::reason)
        .containsExactly(Reasons.DUPLICATE_DOMAIN, Reasons.SERVING_LAST_ACCEPTED);
    assertThat(broken.accepted().tcpGateways()).singleElement()
        .satisfies(g -> assertThat(g.hosts()).extracting(h -> h.name()).containsExactly("x"));
  }
}
