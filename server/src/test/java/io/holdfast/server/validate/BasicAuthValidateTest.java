package io.holdfast.server.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.ReportedProblem;
import io.holdfast.server.source.ConfigPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code holdfast validate} on basic authentication and key sets read from Opaque
 * Secrets in the config directory: each refusal named on its object (SecretNotFound, RefNotPermitted,
 * UnsupportedHashFormat), a SecurityPolicy's cross-namespace Secret allowed only by a ReferenceGrant, and the
 * htpasswd content never in the report.
 */
class BasicAuthValidateTest {

  private static final Path GOLDEN = Path.of("..", "xds", "src", "test", "resources", "golden",
      "security-basic-auth", "input.yaml");
  /** The hashes of the golden case's users: never to appear in a report or a dump. */
  static final List<String> HASHES = List.of("g2YDYHBhl9R/ddqtGep+ipAO4aU=",
      "bOWgjgJew8XNjPXTyFghAc+ha1M=", "hsAaMBat8aKiQgxhKhAqvbXOPbw=", "$2y$05$abcdefgh");

  @TempDir
  Path dir;

  @Test
  void refusalsAreNamedOnTheirObjectsAndNoHtpasswdContentIsReported() throws IOException {
    Files.copy(GOLDEN, dir.resolve("input.yaml"));
    Files.writeString(dir.resolve("team.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: granted, namespace: team}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: absent}]
          basicAuth: {users: {name: store-users, namespace: web}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: ungranted, namespace: other}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: absent}]
          basicAuth: {users: {name: store-users, namespace: web}}
        ---
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: users-to-team, namespace: web}
        spec:
          from: [{group: gateway.holdfast.io, kind: SecurityPolicy, namespace: team}]
          to: [{group: "", kind: Secret, name: store-users}]
        """);

    ValidationReport report = new ConfigValidation().validate(List.of(ConfigPaths.readDirectory(dir,
        Clock.systemUTC())));

    assertThat(state(report, vs("admin"))).isNotEqualTo(ResourceStatus.State.REJECTED);
    assertThat(reasons(report, vs("legacy"))).contains("UnsupportedHashFormat");
    assertThat(reasons(report, vs("nosecret"))).contains("SecretNotFound");
    assertThat(reasons(report, vs("foreign"))).contains("RefNotPermitted");
    assertThat(state(report, policy("web", "store-basic"))).isEqualTo(ResourceStatus.State.ACCEPTED);
    assertThat(reasons(report, policy("team", "granted"))).doesNotContain("RefNotPermitted");
    assertThat(reasons(report, policy("other", "ungranted"))).contains("RefNotPermitted");
    for (String hash : HASHES) {
      assertThat(report.text()).doesNotContain(hash);
      assertThat(report.json().toString()).doesNotContain(hash);
    }
  }

  private static ResourceKey vs(String name) {
    return new ResourceKey("gateway.holdfast.io", "VirtualService", "default", name);
  }

  private static ResourceKey policy(String namespace, String name) {
    return new ResourceKey("gateway.holdfast.io", "SecurityPolicy", namespace, name);
  }

  private static ResourceStatus.State state(ValidationReport report, ResourceKey key) {
    return report.resources().stream().filter(r -> r.key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError(key + " is not reported: " + report.text())).state();
  }

  private static List<String> reasons(ValidationReport report, ResourceKey key) {
    return report.resources().stream().filter(r -> r.key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError(key + " is not reported: " + report.text()))
        .problems().stream().map(ReportedProblem::reason).toList();
  }
}
