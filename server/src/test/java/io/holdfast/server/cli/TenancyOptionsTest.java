package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Cidr;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tenancy options ({@code --cross-namespace-refs}, {@code --upstream-deny-cidr},
 * {@code --upstream-allow-loopback}, {@code --listener-port-range}, {@code --listener-reserved-ports}) through the
 * real command line: {@code holdfast validate} shows RefNotPermitted, AddressNotPermitted and PortNotPermitted, and
 * {@code serve} hands the same policy to its pipeline (hence to the webhook), with loopback refused by default in
 * Kubernetes mode only.
 */
class TenancyOptionsTest {

  private static final String TENANTS = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: ledger, namespace: bank}
      spec: {static: {hosts: [{address: 203.0.113.5, port: 8080}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: metadata, namespace: shop}
      spec: {static: {hosts: [{address: 169.254.169.254, port: 80}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: admin, namespace: shop}
      spec: {static: {hosts: [{address: 127.0.0.1, port: 19000}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web, namespace: shop}
      spec:
        domains: [shop.test]
        routes: [{match: {prefix: /}, route: {upstream: ledger, namespace: bank}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: tls, namespace: shop}
      spec:
        domains: [tls.shop.test]
        sslConfig: {secretRef: {name: bank-tls, namespace: bank}}
        routes: [{match: {prefix: /}, route: {upstream: ledger, namespace: bank}}]
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: TcpGateway
      metadata: {name: takeover, namespace: shop}
      spec:
        port: 19000
        hosts: [{name: all, upstream: {name: ledger, namespace: bank}}]
      """;

  @TempDir
  Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final List<ServeSettings> served = new ArrayList<>();

  private int run(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return new HoldfastCli(settings -> {
      served.add(settings);
      return 0;
    }).execute(() -> new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err), args);
  }

  private String tenants() throws IOException {
    Path file = tmp.resolve("tenants.yaml");
    Files.writeString(file, TENANTS);
    return file.toString();
  }

  @Test
  void validateShowsEachRefusalByItsReason() throws IOException {
    assertThat(run("validate", tenants())).isEqualTo(1);
    assertThat(out.toString())
        .contains("Upstream/shop/metadata: AddressNotPermitted: spec.static.hosts[0].address")
        .contains("169.254.0.0/16")
        .contains("TcpGateway/shop/takeover: PortNotPermitted: spec.port")
        .contains("VirtualService/shop/tls: RefNotPermitted: spec.sslConfig.secretRef")
        .doesNotContain("VirtualService/shop/web:")
        .doesNotContain("Upstream/shop/admin:");
  }

  @Test
  void validateTakesTheSettingsOfTheServerItIsFor() throws IOException {
    assertThat(run("validate", "--cross-namespace-refs=grant", "--upstream-allow-loopback=false",
        "--listener-reserved-ports=", tenants())).isEqualTo(1);
    assertThat(out.toString())
        .contains("VirtualService/shop/web: RefNotPermitted: spec.routes[0].route.upstream")
        .contains("Upstream/shop/admin: AddressNotPermitted: spec.static.hosts[0].address")
        .doesNotContain("PortNotPermitted");

    assertThat(run("validate", "--upstream-deny-cidr", "203.0.113.0/24", tenants())).isEqualTo(1);
    assertThat(out.toString()).contains("Upstream/bank/ledger: AddressNotPermitted");
  }

  @Test
  void badValuesAreUsageErrorsNamingTheOption() throws IOException {
    String file = tenants();
    assertThat(run("validate", "--cross-namespace-refs=maybe", file)).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--cross-namespace-refs must be allow or grant, got 'maybe'");
    assertThat(run("validate", "--upstream-deny-cidr=192.0.2.0/33", file)).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--upstream-deny-cidr").contains("prefix length must be 0-32");
    assertThat(run("validate", "--listener-port-range=2000-1000", file)).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--listener-port-range");
  }

  @Test
  void serveGivesItsPipelineTheModesDefaultsAndTheFlags() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("config"));
    assertThat(run("serve", "--config-dir", dir.toString())).isEqualTo(0);
    assertThat(served.get(0).pipeline().access()).isEqualTo(AccessPolicy.FILE_DEFAULTS);

    assertThat(run("serve", "--kubernetes", "--disable-leader-election")).as(err.toString()).isEqualTo(0);
    assertThat(served.get(1).pipeline().access()).isEqualTo(AccessPolicy.KUBERNETES_DEFAULTS);

    assertThat(run("serve", "--kubernetes", "--disable-leader-election", "--cross-namespace-refs", "grant",
        "--upstream-allow-loopback", "--upstream-deny-cidr", "198.51.100.0/24,192.0.2.0/24",
        "--listener-port-range", "8000-9000", "--listener-reserved-ports", "8081,8082")).isEqualTo(0);
    AccessPolicy access = served.get(2).pipeline().access();
    assertThat(access.crossNamespaceRefs()).isEqualTo(AccessPolicy.CrossNamespaceRefs.GRANT);
    assertThat(access.deniedUpstreamNetworks()).doesNotContainAnyElementsOf(AccessPolicy.LOOPBACK)
        .contains(Cidr.parse("198.51.100.0/24"), Cidr.parse("192.0.2.0/24"), Cidr.parse("169.254.0.0/16"));
    assertThat(List.of(access.minListenerPort(), access.maxListenerPort())).containsExactly(8000, 9000);
    assertThat(access.reservedListenerPorts()).isEqualTo(Set.of(8081, 8082));
  }
}
