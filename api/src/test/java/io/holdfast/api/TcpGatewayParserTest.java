package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TcpGatewayParserTest {

  private final ModelParser parser = new ModelParser();

  private ParseResult parse(String spec) {
    return parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge, namespace: demo}
        spec:
        """ + spec.indent(2)));
  }

  private List<String> problems(String spec) {
    ParseResult result = parse(spec);
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    ParseResult.Invalid invalid = (ParseResult.Invalid) result;
    assertThat(invalid.key()).contains(ResourceKey.tcpGateway("demo", "edge"));
    return invalid.problems().stream().map(p -> p.field() + " " + p.reason()).toList();
  }

  @Test
  void passthroughHostsDefaultHostAndSplit() {
    ParseResult result = parse("""
        port: 10443
        hosts:
          - name: api
            sniDomains: [api.test, "*.api.test"]
            upstream: {name: api-tls}
          - name: web
            sniDomains: [web.test]
            split:
              - {upstream: {name: web-a}, weight: 3}
              - {upstream: {name: web-b, namespace: other}, weight: 1}
          - name: rest
            upstream: {name: fallback, namespace: other}
        """);
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    TcpGateway gateway = (TcpGateway) ((ParseResult.Parsed) result).resource();
    assertThat(gateway.key()).isEqualTo(ResourceKey.tcpGateway("demo", "edge"));
    assertThat(gateway.bindAddress()).isEqualTo("0.0.0.0");
    assertThat(gateway.port()).isEqualTo(10443);
    assertThat(gateway.hosts()).containsExactly(
        new TcpGateway.Host("api", List.of("api.test", "*.api.test"),
            new RouteAction.Forward(ObjectRef.of("api-tls"))),
        new TcpGateway.Host("web", List.of("web.test"), new RouteAction.Split(List.of(
            new RouteAction.WeightedTarget(ObjectRef.of("web-a"), 3),
            new RouteAction.WeightedTarget(ObjectRef.of("other", "web-b"), 1)))),
        new TcpGateway.Host("rest", List.of(), new RouteAction.Forward(ObjectRef.of("other", "fallback"))));
    assertThat(gateway.hosts().get(2).isDefault()).isTrue();
  }

  @Test
  void shapeErrorsNameTheirField() {
    assertThat(problems("{bindAddress: 127.0.0.1}"))
        .containsExactly("spec.port MissingField", "spec.hosts MissingField");
    assertThat(problems("{port: 1, hosts: [{name: a, upstream: {name: u}, split: []}]}"))
        .containsExactly("spec.hosts[0] ConflictingFields");
    assertThat(problems("{port: 1, hosts: [{name: a}]}")).containsExactly("spec.hosts[0] MissingField");
    assertThat(problems("{port: 1, hosts: [{upstream: u}]}"))
        .containsExactly("spec.hosts[0].name MissingField", "spec.hosts[0].upstream WrongType");
    assertThat(problems("{port: 1, hosts: [{name: a, sniDomains: a.test, upstream: {name: u}}]}"))
        .containsExactly("spec.hosts[0].sniDomains WrongType");
    assertThat(problems("{port: 1, hosts: [{name: a, split: [{upstream: {name: u}}, {upstream: u, weight: 1}]}]}"))
        .containsExactly("spec.hosts[0].split[0].weight MissingField", "spec.hosts[0].split[1].upstream WrongType");
    assertThat(problems("{port: 1, hosts: [{name: a, upstream: {name: u, port: 80}}], virtualServices: []}"))
        .containsExactly("spec.virtualServices UnknownField", "spec.hosts[0].upstream.port UnknownField");
  }

  @Test
  void configKeepsTcpGatewaysSortedAndListsThemAmongResources() {
    TcpGateway b = tcp("b");
    TcpGateway a = tcp("a");
    GatewayConfig config = GatewayConfig.builder().add(b).add(a).build();
    assertThat(config.tcpGateways()).containsExactly(a, b);
    assertThat(config.resources()).containsExactly(a, b);
    assertThat(config.toBuilder().build()).isEqualTo(config);
  }

  private static TcpGateway tcp(String name) {
    return new TcpGateway(new Metadata(name, "demo", java.util.Map.of(), 0, "", java.util.Optional.empty()),
        "0.0.0.0", 9000, List.of(new TcpGateway.Host("all", List.of(), new RouteAction.Forward(ObjectRef.of("u")))));
  }
}
