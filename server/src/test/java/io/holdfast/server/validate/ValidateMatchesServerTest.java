package io.holdfast.server.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.server.source.ConfigPaths;
import io.holdfast.pipeline.StatusBoard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code holdfast validate} and a file-mode server fed the same directory reach the same verdicts, with the same
 * reasons and messages, for a config that exercises every level: parse errors, reference rules, warnings, and
 * the claims only the IR builder settles (a TcpGateway and a Gateway on one socket).
 */
class ValidateMatchesServerTest {
  @TempDir
  Path dir;

  @Test
  void verdictsEqualTheServersStatuses() throws IOException {
    Files.writeString(dir.resolve("upstreams.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: echo, namespace: demo}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: typo, namespace: demo}
        spec: {static: {hosts: [{address: 127.0.0.1, prot: 9102}]}}
        """);
    Files.writeString(dir.resolve("services.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: demo, labels: {expose: public}, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec:
          domains: [web.test]
          routes: [{match: {prefix: /}, route: {upstream: echo}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web-again, namespace: demo, labels: {expose: public}, creationTimestamp: "2026-02-01T00:00:00Z"}
        spec:
          domains: [web.test]
          routes: [{match: {prefix: /}, route: {upstream: echo}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: lost, namespace: demo, labels: {expose: public}}
        spec:
          domains: [lost.test]
          routes: [{match: {prefix: /}, route: {upstream: typo}}, {match: {regex: "(["}, route: {upstream: echo}}]
        """);
    Files.writeString(dir.resolve("gateways.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public, namespace: demo, creationTimestamp: "2026-01-01T00:00:00Z"}
        spec: {port: 10080, selector: {matchLabels: {expose: public}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: same-port, namespace: demo, creationTimestamp: "2026-03-01T00:00:00Z"}
        spec:
          port: 10080
          hosts: [{name: all, upstream: {name: echo}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: empty, namespace: demo}
        spec: {port: 10090, selector: {matchLabels: {expose: nobody}}}
        """);
    // Delegation with one route leaving the prefix: pruned with a warning, the table's other route served.
    Files.writeString(dir.resolve("delegation.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: demo, labels: {expose: public}}
        spec:
          domains: [shop.test]
          routes: [{match: {prefix: /shop/}, delegate: {ref: {name: shop-routes}}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: shop-routes, namespace: demo}
        spec:
          routes: [{match: {prefix: /shop/cart}, route: {upstream: echo}}, {match: {prefix: /admin}, route: {upstream: echo}}]
        """);
    Files.writeString(dir.resolve("malformed.yaml"), "kind: Upstream\nmetadata: {name: [\n");
    // TLS from PEM files relative to the directory: one good pair, one mismatched, one missing file.
    Files.createDirectories(dir.resolve("tls"));
    for (String pem : List.of("a.crt", "a.key", "b.key")) {
      Files.copy(Path.of("..", "examples", "config", "tls", pem), dir.resolve("tls").resolve(pem));
    }
    Files.writeString(dir.resolve("https.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: secure, namespace: demo}
        spec: {port: 10443, ssl: true, virtualServices: [{name: tls-good}, {name: tls-mismatch}, {name: tls-missing}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: tls-good, namespace: demo}
        spec:
          domains: [a.test]
          sslConfig: {files: {certChain: tls/a.crt, privateKey: tls/a.key}}
          routes: [{match: {prefix: /}, route: {upstream: echo}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: tls-mismatch, namespace: demo}
        spec:
          domains: [b.test]
          sslConfig: {files: {certChain: tls/a.crt, privateKey: tls/b.key}}
          routes: [{match: {prefix: /}, route: {upstream: echo}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: tls-missing, namespace: demo}
        spec:
          domains: [c.test]
          sslConfig: {files: {certChain: tls/c.crt, privateKey: tls/c.key}}
          routes: [{match: {prefix: /}, route: {upstream: echo}}]
        """);

    ValidationReport report = new ConfigValidation().validate(List.of(ConfigPaths.readDirectory(dir, Clock.systemUTC())));
    Map<ResourceKey, ResourceStatus> served = servedStatuses();

    Map<ResourceKey, String> validated = new TreeMap<>();
    report.resources().forEach(r -> validated.put(r.key(), r.state() + " " + r.problems().stream()
        .map(p -> p.field() + ": " + p.message() + " (" + p.reason() + ")").collect(Collectors.joining("; "))));
    Map<ResourceKey, String> server = new TreeMap<>();
    served.forEach((key, status) -> server.put(key, status.state() + " " + status.problems().stream()
        .map(p -> p.field() + ": " + p.message() + " (" + p.reason() + ")").collect(Collectors.joining("; "))));
    assertThat(validated).isEqualTo(server);
    // The set above is not trivially all-accepted: every level of rejection is in it.
    assertThat(String.join("\n", validated.values())).contains("(UnknownField)", "(UpstreamRejected)",
        "(DuplicateDomain)", "(DuplicateListener)", "(NoVirtualServices)", "(KeyMismatch)", "(SecretNotFound)");
    assertThat(validated.get(io.holdfast.api.ResourceKey.virtualService("demo", "tls-good"))).startsWith("ACCEPTED");
    assertThat(validated.get(io.holdfast.api.ResourceKey.routeTable("demo", "shop-routes")))
        .startsWith("WARNING spec.routes[1].match.prefix: prefix /admin is not under").endsWith("(PrefixViolation)");
    assertThat(report.fileErrors()).singleElement().satisfies(e -> {
      assertThat(e.at().orElseThrow().file()).endsWith("malformed.yaml");
      assertThat(e.message()).startsWith("invalid YAML: ");
    });
    assertThat(report.passed()).isFalse();
  }

  private Map<ResourceKey, ResourceStatus> servedStatuses() throws IOException {
    try (HoldfastServer server = HoldfastServer.start(new ServeSettings(dir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      StatusBoard board = server.statusBoard();
      await().atMost(Duration.ofSeconds(15)).until(() -> board.current().isPresent());
      return board.current().orElseThrow().statuses();
    }
  }
}
