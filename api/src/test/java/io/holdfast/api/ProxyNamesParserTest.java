package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code spec.proxyNames} of Gateways and TcpGateways: default, validation and its bound. */
class ProxyNamesParserTest {

  private final ModelParser parser = new ModelParser();

  private ParseResult gateway(String extra) {
    return parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: demo}
        spec:
          port: 8080
        """ + extra.indent(2)));
  }

  private ParseResult tcpGateway(String extra) {
    return parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: db, namespace: demo}
        spec:
          port: 5432
          hosts: [{name: db, upstream: {name: db}}]
        """ + extra.indent(2)));
  }

  private static List<String> problems(ParseResult result) {
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    return ((ParseResult.Invalid) result).problems().stream().map(p -> p.field() + " " + p.reason()).toList();
  }

  @Test
  void defaultIsGatewayProxy() {
    Gateway gateway = (Gateway) ((ParseResult.Parsed) gateway("")).resource();
    assertThat(gateway.proxyNames()).containsExactly("gateway-proxy");
    TcpGateway tcp = (TcpGateway) ((ParseResult.Parsed) tcpGateway("")).resource();
    assertThat(tcp.proxyNames()).containsExactly("gateway-proxy");
  }

  @Test
  void namesAreKeptInOrderWithoutRepeats() {
    Gateway gateway = (Gateway) ((ParseResult.Parsed) gateway("proxyNames: [edge-b, shop/web, edge-b]")).resource();
    assertThat(gateway.proxyNames()).containsExactly("edge-b", "shop/web");
    TcpGateway tcp = (TcpGateway) ((ParseResult.Parsed) tcpGateway("proxyNames: [db-proxy]")).resource();
    assertThat(tcp.proxyNames()).containsExactly("db-proxy");
  }

  @Test
  void invalidNamesAreNamedProblems() {
    assertThat(problems(gateway("proxyNames: []"))).containsExactly("spec.proxyNames InvalidValue");
    assertThat(problems(gateway("proxyNames: [ok, \"\"]"))).containsExactly("spec.proxyNames[1] InvalidValue");
    assertThat(problems(gateway("proxyNames: [\"a\\nb\"]"))).containsExactly("spec.proxyNames[0] InvalidValue");
    assertThat(problems(gateway("proxyNames: [" + "x".repeat(ProxyNames.MAX_LENGTH + 1) + "]")))
        .containsExactly("spec.proxyNames[0] InvalidValue");
    assertThat(problems(tcpGateway("proxyNames: [\"\\u0007\"]"))).containsExactly("spec.proxyNames[0] InvalidValue");
    assertThat(problems(gateway("proxyNames: edge"))).containsExactly("spec.proxyNames WrongType");
  }

  @Test
  void atMostSixteenNames() {
    String sixteen = String.join(", ", java.util.stream.IntStream.range(0, ProxyNames.MAX_NAMES)
        .mapToObj(i -> "p" + i).toList());
    assertThat(gateway("proxyNames: [" + sixteen + "]")).isInstanceOf(ParseResult.Parsed.class);
    assertThat(problems(gateway("proxyNames: [" + sixteen + ", one-more]")))
        .containsExactly("spec.proxyNames InvalidValue");
  }
}
