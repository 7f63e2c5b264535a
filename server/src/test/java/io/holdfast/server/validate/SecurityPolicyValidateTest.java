package io.holdfast.server.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.pipeline.ReportedProblem;
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
 * {@code holdfast validate} reads the SecurityPolicy kind: each policy is reported with its verdict and named
 * reasons (invalid spec, conflicted or missing targets), and an inline key set never appears in the report.
 */
class SecurityPolicyValidateTest {

  private static final Path GOLDEN = Path.of("..", "xds", "src", "test", "resources", "golden",
      "gateway-api-security-policy", "input.yaml");
  private static final String SECRET = "c2VjcmV0LXNpZ25pbmcta2V5LW5vdC1zaG93bg";

  @TempDir
  Path dir;

  private static ResourceKey policy(String name) {
    return new ResourceKey("gateway.holdfast.io", "SecurityPolicy", "web", name);
  }

  @Test
  void policiesAreReportedWithTheirReasonsAndNoKeyMaterial() throws IOException {
    Files.copy(GOLDEN, dir.resolve("input.yaml"));
    Files.writeString(dir.resolve("symmetric.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: symmetric, namespace: web}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: store}]
          jwtProviders:
            - {name: local, issuer: https://local.test,
               localJwks: {inline: '{"keys":[{"kty":"oct","k":"%s"}]}'}}
          jwt: {providers: [local]}
        """.formatted(SECRET));

    ValidationReport report = new ConfigValidation().validate(List.of(ConfigPaths.readDirectory(dir,
        Clock.systemUTC())));

    assertThat(state(report, "broken")).isEqualTo(ResourceStatus.State.REJECTED);
    assertThat(reasons(report, "broken")).contains("InvalidCidr");
    assertThat(state(report, "younger")).isEqualTo(ResourceStatus.State.WARNING);
    assertThat(reasons(report, "younger")).containsExactlyInAnyOrder("Conflicted", "TargetNotFound");
    assertThat(state(report, "gateway-jwt")).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(reasons(report, "symmetric")).containsExactly("SymmetricKeyInJwks");
    assertThat(report.text()).doesNotContain(SECRET);
    assertThat(report.json().toString()).doesNotContain(SECRET);
  }

  private static ResourceStatus.State state(ValidationReport report, String name) {
    return report.resources().stream().filter(r -> r.key().equals(policy(name))).findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not reported: " + report.text())).state();
  }

  private static List<String> reasons(ValidationReport report, String name) {
    return report.resources().stream().filter(r -> r.key().equals(policy(name))).findFirst().orElseThrow()
        .problems().stream().map(ReportedProblem::reason).toList();
  }
}
