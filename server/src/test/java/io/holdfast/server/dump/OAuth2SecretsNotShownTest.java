package io.holdfast.server.dump;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.pipeline.ReportedProblem;
import io.holdfast.server.source.ConfigPaths;
import io.holdfast.server.validate.ConfigValidation;
import io.holdfast.server.validate.ValidationReport;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.holdfast.xds.translate.Translator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OAuth2 credentials through the whole pipeline: a SecurityPolicy's client secret and HMAC key reach the snapshot as
 * SDS generic secrets, and are never in a status, the validate report, or the xds-dump/translate document (redacted
 * there as Envoy's own config dump does); {@code holdfast validate} names each problem of a login by its reason.
 */
class OAuth2SecretsNotShownTest {

  private static final Path GOLDEN = Path.of("..", "xds", "src", "test", "resources", "golden", "gateway-api-oauth2",
      "input.yaml");
  private static final String CLIENT_SECRET = "pipeline-client-secret-value";
  private static final String HMAC = "pipeline-hmac-key-value";

  @TempDir
  Path dir;

  @Test
  void theCredentialsAreServedButNeverShown() throws Exception {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("input.yaml",
        Files.readString(GOLDEN)), new ConfigLoader.Source("grpc.yaml", """
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: grpc-login, namespace: web}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: GRPCRoute, name: calls}]
          oauth2:
            tokenEndpoint: {uri: "https://idp.shop.test/token", upstream: idp}
            authorizationEndpoint: https://idp.shop.test/authorize
            clientId: shop
            clientSecret: {name: sso}
            hmacSecret: {name: sso, key: hmac}
        """)), Map.of());
    GatewayConfig config = loaded.config().toBuilder().secret(TlsSecretData.secretKey("web", "sso"),
        new TlsSecretData(new TreeMap<>(Map.of("client-secret", CLIENT_SECRET, "hmac", HMAC)))).build();

    ConfigCheck.Result checked = new ConfigCheck().run(config);
    XdsSnapshot snapshot = new Translator().translate(checked.built().ir()).snapshot();

    assertThat(snapshot.resources().toString()).contains(CLIENT_SECRET).contains(HMAC);
    String document = ConfigDump.render(ConfigDump.document(Map.of("version", snapshot.version()),
        snapshot.resources()), ConfigDump.Format.JSON);
    assertThat(document).contains("oauth2/SecurityPolicy/web/sso/client-secret").contains(Redaction.REDACTED)
        .doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
    assertThat(checked.statuses().toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
    assertThat(checked.gatewayApiStatuses().toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
    assertThat(checked.built().ir().toString()).doesNotContain(CLIENT_SECRET).doesNotContain(HMAC);
    assertThat(checked.problems()).isEmpty();
    // A login on a GRPCRoute is warned about: gRPC clients cannot follow its redirect.
    assertThat(checked.statuses().get(new ResourceKey("gateway.holdfast.io", "SecurityPolicy", "web", "grpc-login"))
        .problems()).extracting(io.holdfast.api.Problem::reason).contains("GrpcIncompatible");
  }

  @Test
  void validateNamesEachProblemOfALogin() throws Exception {
    Files.copy(GOLDEN, dir.resolve("input.yaml"));
    Files.writeString(dir.resolve("insecure.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: insecure, namespace: web}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: store}]
          oauth2:
            tokenEndpoint: {uri: "http://idp.shop.test/token", upstream: nowhere}
            authorizationEndpoint: http://idp.shop.test/authorize
            clientId: shop
            clientSecret: {name: sso}
            hmacSecret: {name: sso}
            redirectPath: callback
        """);
    Files.writeString(dir.resolve("elsewhere.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: elsewhere, namespace: web}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: hooks}]
          oauth2:
            tokenEndpoint: {uri: "https://idp.shop.test/token", upstream: nowhere}
            authorizationEndpoint: https://idp.shop.test/authorize
            clientId: shop
            clientSecret: {name: sso, namespace: other}
            hmacSecret: {name: sso}
        """);

    ValidationReport report = new ConfigValidation().validate(List.of(ConfigPaths.readDirectory(dir,
        Clock.systemUTC())));

    assertThat(reasons(report, "insecure")).contains("OAuth2EndpointNotHttps", "InvalidOAuth2Redirect");
    // File mode delivers no Secret of this kind on this branch: the policies name it missing, fail closed.
    assertThat(reasons(report, "broken")).contains("SecretNotFound");
    assertThat(reasons(report, "sso")).contains("SecretNotFound");
    assertThat(reasons(report, "elsewhere")).contains("OAuth2UpstreamNotFound", "RefNotPermitted");
  }

  private static List<String> reasons(ValidationReport report, String name) {
    ResourceKey key = new ResourceKey("gateway.holdfast.io", "SecurityPolicy", "web", name);
    return report.resources().stream().filter(r -> r.key().equals(key)).findFirst()
        .orElseThrow(() -> new AssertionError(name + " is not reported: " + report.text()))
        .problems().stream().map(ReportedProblem::reason).toList();
  }
}
