package io.holdfast.server.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.source.ConfigPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code holdfast validate} reads the traffic policy kinds (ClientTrafficPolicy, TrafficPolicy) and the Holdfast
 * kinds' traffic options from a config directory, and reports each with its verdict and named reason.
 */
class TrafficPoliciesValidateTest {

  @TempDir
  Path dir;

  @Test
  void policiesAndOptionsGetTheirVerdicts() throws IOException {
    Files.writeString(dir.resolve("gateway-api.yaml"), Files.readString(
        Path.of("../xds/src/test/resources/golden/gateway-api-traffic-policies/input.yaml")));
    // The Services the golden's ClientTrafficPolicy names by backendRef (its endpoints.yaml is the golden's own).
    Files.writeString(dir.resolve("services.yaml"), """
        apiVersion: v1
        kind: Service
        metadata: {name: als, namespace: web}
        spec: {ports: [{port: 9000}]}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: rls, namespace: web}
        spec: {ports: [{port: 8081}]}
        """);
    Files.writeString(dir.resolve("holdfast.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: app}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9301}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop}
        spec:
          domains: ['*.shop.test']
          routes: [{match: {prefix: /}, route: {upstream: app}, options: {compression: [deflate]}}]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec:
          port: 8081
          options: {accessLogs: [{stdout: {}, format: {text: '%RESPONSE_COD%'}}]}
        """);

    ValidationReport report = new ConfigValidation().validate(List.of(ConfigPaths.readDirectory(dir,
        Clock.systemUTC())));

    assertThat(state(report, policy(PolicyKinds.TRAFFIC_POLICY, "site"))).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(state(report, policy(PolicyKinds.CLIENT_TRAFFIC_POLICY, "edge"))).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(state(report, policy(PolicyKinds.CLIENT_TRAFFIC_POLICY, "edge-late")))
        .isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(state(report, policy(PolicyKinds.TRAFFIC_POLICY, "zero"))).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(report.text()).contains("Conflicted", "TargetNotFound", "ZeroRate", "UnsupportedCompression",
        "UnknownCommandOperator: spec.options.accessLogs[0].format.text");
    assertThat(report.passed()).isFalse();
  }

  private static ResourceKey policy(String kind, String name) {
    return new ResourceKey(PolicyKinds.GROUP, kind, "web", name);
  }

  private static ResourceStatus.State state(ValidationReport report, ResourceKey key) {
    return report.resources().stream().filter(r -> r.key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError(key + " is not reported: " + report.text())).state();
  }
}
