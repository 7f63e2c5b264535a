package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.xds.server.XdsAuthorisation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HoldfastCliTest {
  @TempDir
  Path tmp;

  private final List<ServeSettings> served = new ArrayList<>();
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(ServeAction action, String... args) {
    return new HoldfastCli(action).execute(new PrintWriter(out), new PrintWriter(err), args);
  }

  private int run(String... args) {
    return run(settings -> {
      served.add(settings);
      return 7; // not 0, to show the action's code becomes the exit code
    }, args);
  }

  @Test
  void defaultsApplyWhenOnlyConfigDirIsGiven() {
    int code = run("serve", "--config-dir", tmp.toString());

    assertThat(code).isEqualTo(7);
    assertThat(served).containsExactly(new ServeSettings(
        tmp, "127.0.0.1", 18000, "127.0.0.1", 9091, Optional.empty(), LogFormat.TEXT));
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void everyOptionIsParsed() throws IOException {
    Path snapshots = Files.createDirectory(tmp.resolve("snapshots"));
    Path config = Files.createDirectory(tmp.resolve("config"));

    int code = run("serve", "--config-dir", config.toString(), "--xds-address", "::1", "--xds-port", "0",
        "--admin-address", "localhost", "--admin-port=65535", "--snapshot-dir", snapshots.toString(),
        "--log-format", "JSON");

    assertThat(code).isEqualTo(7);
    ServeSettings settings = served.get(0);
    assertThat(settings.configDir()).isEqualTo(config.toAbsolutePath());
    assertThat(settings.xdsAddress()).isEqualTo("::1");
    assertThat(settings.xdsPort()).isZero();
    assertThat(settings.adminAddress()).isEqualTo("localhost");
    assertThat(settings.adminPort()).isEqualTo(65535);
    assertThat(settings.snapshotDir()).contains(snapshots.toAbsolutePath());
    assertThat(settings.logFormat()).isEqualTo(LogFormat.JSON);
  }

  @Test
  void relativeConfigDirIsStoredAbsolute() {
    Path relative = Path.of("").toAbsolutePath().relativize(tmp);

    run("serve", "--config-dir", relative.toString());

    assertThat(served.get(0).configDir()).isAbsolute().isEqualTo(tmp.toAbsolutePath().normalize());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "--xds-port|99999|--xds-port must be in 0..65535, got 99999",
    "--xds-port|-1|--xds-port must be in 0..65535, got -1",
    "--admin-port|65536|--admin-port must be in 0..65535, got 65536",
    "--xds-port|abc|--xds-port: 'abc' is not a port number (expected an integer in 0..65535)",
    "--admin-port|9e3|--admin-port: '9e3' is not a port number",
    "--admin-port|18000|--admin-port 18000 is the same as --xds-port",
    "--xds-address|999.1.1.1|--xds-address must be an IP address or host name, got '999.1.1.1'",
    "--xds-address|bad host|--xds-address must be an IP address or host name, got 'bad host'",
    "--admin-address|[127.0.0.1]|--admin-address must be an IP address or host name, got '[127.0.0.1]'",
    "--admin-address|::g|--admin-address must be an IP address or host name, got '::g'",
    "--log-format|xml|--log-format: expected text or json, got 'xml'",
      })
  void invalidValueIsOneLineWithHintAndExitCode2(String flag, String value, String message) {
    int code = run("serve", "--config-dir", tmp.toString(), flag, value);

    assertUsageError(code, message, "holdfast serve");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "--lease-duration|15|--lease-duration: '15' is not a duration",
    "--lease-duration|15500ms|--lease-duration must be a whole number of seconds",
    "--renew-deadline|20s|--lease-duration (15s) must be greater than --renew-deadline (20s)",
    "--on-lease-loss|crash|--on-lease-loss must be recover or exit, got 'crash'",
    "--max-recovery|soon|--max-recovery: 'soon' is not a duration",
    "--disable-leader-election|maybe|--disable-leader-election: 'maybe' is not a boolean",
    "--leader-request-timeout|soon|--leader-request-timeout: 'soon' is not a duration",
    "--fence-slack|0s|--fence-slack must be greater than 0, was 0ms",
    "--leader-request-timeout|4s|--lease-duration (15s) - --renew-deadline (10s) must be greater than"
        + " --leader-request-timeout (4s) + --fence-slack (1s)",
    "--fence-slack|3s|--lease-duration (15s) - --renew-deadline (10s) must be greater than"
        + " --leader-request-timeout (2s) + --fence-slack (3s)",
  })
  void invalidElectionSettingsNameTheFlag(String flag, String value, String message) {
    assertUsageError(run("serve", "--kubernetes", flag, value), message, "holdfast serve");
  }

  @Test
  void precedenceIsFlagThenEnvironmentThenFileThenDefault() throws IOException {
    Path file = Files.writeString(tmp.resolve("holdfast.yaml"), "xds-port: 18001\nadmin-port: 9101\nlease-duration: 30s\n");
    Map<String, String> env = Map.of("HOLDFAST_ADMIN_PORT", "9102", "LEADER_ELECTION_RETRY_PERIOD", "3s",
        "POD_NAME", "pod-7", "POD_NAMESPACE", "gw");
    new HoldfastCli(settings -> { served.add(settings); return 0; }, env).execute(new PrintWriter(out), new PrintWriter(err),
        "serve", "--kubernetes", "--config-file", file.toString(), "--renew-deadline", "20s");
    assertThat(err.toString()).isEmpty();
    ServeSettings s = served.get(0);
    assertThat(s.xdsPort()).as("file over default").isEqualTo(18001);
    assertThat(s.adminPort()).as("env over file").isEqualTo(9102);
    assertThat(s.election().leaseDuration()).as("file").isEqualTo(java.time.Duration.ofSeconds(30));
    assertThat(s.election().renewDeadline()).as("flag").isEqualTo(java.time.Duration.ofSeconds(20));
    assertThat(s.election().retryPeriod()).as("Gloo env name").isEqualTo(java.time.Duration.ofSeconds(3));
    assertThat(s.election().identity()).isEqualTo("pod-7");
    assertThat(s.election().leaseNamespace()).isEqualTo("gw");
    assertThat(s.kubernetes()).isPresent();
    assertThat(s.election().enabled()).isTrue();
  }

  @Test
  void limitsComeFromFlagEnvironmentOrFileAndDefaultToInputLimits() throws IOException {
    run("serve", "--config-dir", tmp.toString());
    assertThat(served.get(0).limits()).isEqualTo(io.holdfast.api.InputLimits.DEFAULTS);

    Path file = Files.writeString(tmp.resolve("limits.yaml"), "max-delegation-depth: 64\nwebhook-check-time: 8s\n");
    new HoldfastCli(settings -> { served.add(settings); return 0; }, Map.of("HOLDFAST_MAX_REGEX_PROGRAM_SIZE", "500"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--config-dir", tmp.toString(),
            "--config-file", file.toString(), "--max-routes-per-virtual-host", "20000", "--max-regex-length", "100");
    assertThat(err.toString()).isEmpty();
    io.holdfast.api.InputLimits limits = served.get(1).limits();
    assertThat(limits.maxRegexProgramSize()).as("environment").isEqualTo(500);
    assertThat(limits.maxDelegationDepth()).as("file").isEqualTo(64);
    assertThat(limits.webhookCheckTime()).as("file").isEqualTo(java.time.Duration.ofSeconds(8));
    assertThat(limits.maxRoutesPerVirtualHost()).as("flag").isEqualTo(20000);
    assertThat(limits.maxRegexLength()).as("flag").isEqualTo(100);
    assertThat(limits.webhookCheckCpuTime()).as("default").isEqualTo(java.time.Duration.ofSeconds(2));

    assertThat(run("serve", "--config-dir", tmp.toString(), "--max-delegation-depth", "none"))
        .isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--max-delegation-depth must be a whole number of at least 1, got 'none'")
        .doesNotContain("\tat ");
    assertThat(served).hasSize(2);
  }

  @Test
  void xdsLimitsComeFromFlagEnvironmentOrFileAndDefaultToXdsLimits() throws IOException {
    run("serve", "--config-dir", tmp.toString());
    assertThat(served.get(0).xdsLimits()).isEqualTo(io.holdfast.xds.server.XdsLimits.DEFAULTS);

    Path file = Files.writeString(tmp.resolve("xds.yaml"), "xds-max-names-per-stream: 5000\n"
        + "xds-max-connection-age: 0s\n");
    new HoldfastCli(settings -> { served.add(settings); return 0; },
        Map.of("HOLDFAST_XDS_MAX_NODE_ID_LENGTH", "300"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--config-dir", tmp.toString(),
            "--config-file", file.toString(), "--xds-max-streams-per-connection", "20",
            "--xds-max-message-size", "1048576", "--xds-max-connection-age-grace", "30s");
    assertThat(err.toString()).isEmpty();
    io.holdfast.xds.server.XdsLimits limits = served.get(1).xdsLimits();
    assertThat(limits.maxNodeIdLength()).as("environment").isEqualTo(300);
    assertThat(limits.maxNamesPerStream()).as("file").isEqualTo(5000);
    assertThat(limits.maxConnectionAge()).as("file: 0s is no limit").isZero();
    assertThat(limits.maxStreamsPerConnection()).as("flag").isEqualTo(20);
    assertThat(limits.maxInboundMessageBytes()).as("flag").isEqualTo(1_048_576);
    assertThat(limits.maxConnectionAgeGrace()).as("flag").isEqualTo(java.time.Duration.ofSeconds(30));

    assertThat(run("serve", "--config-dir", tmp.toString(), "--xds-max-names-per-stream", "0"))
        .isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--xds-max-names-per-stream must be a whole number of at least 1, got '0'");
    assertThat(served).hasSize(2);
  }

  @Test
  void gatewayControllerNameComesFromFlagEnvironmentOrFileDefaultsAndIsChecked() throws IOException {
    run("serve", "--config-dir", tmp.toString());
    assertThat(served.get(0).gatewayControllerName()).isEqualTo("holdfast.io/gateway-controller");

    run("serve", "--config-dir", tmp.toString(), "--gateway-controller-name", "example.test/gw");
    assertThat(served.get(1).gatewayControllerName()).isEqualTo("example.test/gw");

    new HoldfastCli(settings -> { served.add(settings); return 0; },
        Map.of("HOLDFAST_GATEWAY_CONTROLLER_NAME", "env.example.test/a/b"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--config-dir", tmp.toString());
    assertThat(served.get(2).gatewayControllerName()).as("environment").isEqualTo("env.example.test/a/b");

    Path file = Files.writeString(tmp.resolve("gw.yaml"), "gateway-controller-name: file.example.test/gw\n");
    run("serve", "--config-dir", tmp.toString(), "--config-file", file.toString());
    assertThat(served.get(3).gatewayControllerName()).as("config file").isEqualTo("file.example.test/gw");
    assertThat(err.toString()).isEmpty();

    served.clear();
    for (String bad : List.of("", "no-slash", "Upper.Case/x", "/path-only", "example.test/")) {
      assertUsageError(run("serve", "--config-dir", tmp.toString(), "--gateway-controller-name", bad),
          "--gateway-controller-name must be a domain-prefixed path", "holdfast serve");
    }
  }

  @Test
  void gatewayAddressesComeFromRepeatedFlagsEnvironmentOrFileAndNeedKubernetes() throws IOException {
    run("serve", "--kubernetes");
    assertThat(served.get(0).gatewayAddressing()).isEqualTo(ServeSettings.GatewayAddressing.NONE);

    run("serve", "--kubernetes", "--gateway-address", "192.0.2.5", "--gateway-address", "gw.example.test",
        "--gateway-service", "holdfast-system/front");
    assertThat(served.get(1).gatewayAddressing().addresses()).containsExactly("192.0.2.5", "gw.example.test");
    assertThat(served.get(1).gatewayAddressing().service()).contains("holdfast-system/front");

    Path file = Files.writeString(tmp.resolve("addr.yaml"), "gateway-address: [192.0.2.6, 2001:db8::1]\n");
    new HoldfastCli(settings -> { served.add(settings); return 0; },
        Map.of("HOLDFAST_GATEWAY_SERVICE", "edge/envoy"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--kubernetes", "--config-file", file.toString());
    assertThat(err.toString()).isEmpty();
    assertThat(served.get(2).gatewayAddressing().addresses()).as("config file").containsExactly("192.0.2.6",
        "2001:db8::1");
    assertThat(served.get(2).gatewayAddressing().service()).as("environment").contains("edge/envoy");

    served.clear();
    assertUsageError(run("serve", "--kubernetes", "--gateway-address", "not an address"),
        "--gateway-address must be an IP address or host name", "holdfast serve");
    assertUsageError(run("serve", "--kubernetes", "--gateway-service", "front"),
        "--gateway-service must be NAMESPACE/NAME", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--gateway-address", "192.0.2.5"),
        "--gateway-address and --gateway-service need --kubernetes", "holdfast serve");
  }

  @Test
  void aBadEnvironmentValueNamesTheVariable() {
    int code = new HoldfastCli(settings -> 0, Map.of("LEADER_ELECTION_LEASE_DURATION", "fifteen"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--kubernetes");
    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).startsWith("holdfast: environment variable LEADER_ELECTION_LEASE_DURATION: 'fifteen' is not a duration");
  }

  @Test
  void leaderRequestTimeoutAndFenceSlackComeFromFlagsEnvironmentOrFileAndDefaultTo2sAnd1s() throws IOException {
    run("serve", "--kubernetes");
    assertThat(served.get(0).election().leaderRequestTimeout()).isEqualTo(java.time.Duration.ofSeconds(2));
    assertThat(served.get(0).election().fenceSlack()).isEqualTo(java.time.Duration.ofSeconds(1));

    run("serve", "--kubernetes", "--leader-request-timeout", "1500ms", "--fence-slack=500ms");
    assertThat(served.get(1).election().leaderRequestTimeout()).isEqualTo(java.time.Duration.ofMillis(1500));
    assertThat(served.get(1).election().fenceSlack()).isEqualTo(java.time.Duration.ofMillis(500));

    Path file = Files.writeString(tmp.resolve("election.yaml"), "fence-slack: 750ms\n");
    new HoldfastCli(settings -> { served.add(settings); return 0; }, Map.of("HOLDFAST_LEADER_REQUEST_TIMEOUT", "3s"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--kubernetes", "--config-file", file.toString());
    assertThat(err.toString()).isEmpty();
    assertThat(served.get(2).election().leaderRequestTimeout()).as("environment").isEqualTo(java.time.Duration.ofSeconds(3));
    assertThat(served.get(2).election().fenceSlack()).as("config file").isEqualTo(java.time.Duration.ofMillis(750));
  }

  @Test
  void aFencingMarginBrokenFromTheEnvironmentIsAnErrorNamingTheSettingsAndTheRule() {
    int code = new HoldfastCli(settings -> 0, Map.of("HOLDFAST_FENCE_SLACK", "4500ms"))
        .execute(new PrintWriter(out), new PrintWriter(err), "serve", "--kubernetes");
    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--lease-duration (15s) - --renew-deadline (10s) must be greater than"
        + " --leader-request-timeout (2s) + --fence-slack (4.5s)", "must land before a successor can take the lease");
  }

  @Test
  void maxRecoveryAndExitPolicyComeThroughAndExcludeEachOther() {
    run("serve", "--kubernetes", "--max-recovery", "1m");
    assertThat(served.get(0).election().recovery())
        .isEqualTo(io.holdfast.election.RecoveryPolicy.recoverWithin(java.time.Duration.ofMinutes(1)));
    run("serve", "--kubernetes", "--on-lease-loss", "exit");
    assertThat(served.get(1).election().recovery()).isEqualTo(io.holdfast.election.RecoveryPolicy.EXIT);
    served.clear();
    assertUsageError(run("serve", "--kubernetes", "--on-lease-loss", "exit", "--max-recovery", "1m"),
        "--max-recovery only applies with --on-lease-loss recover", "holdfast serve");
  }

  @Test
  void anUnknownConfigFileKeyIsAnError() throws IOException {
    Path file = Files.writeString(tmp.resolve("bad.yaml"), "xds-prot: 1\n");
    int code = run("serve", "--config-file", file.toString(), "--config-dir", tmp.toString());
    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("unknown setting 'xds-prot'");
  }

  @Test
  void configSourcesAndTlsFlagsAreChecked() throws IOException {
    assertUsageError(run("serve", "--kubernetes", "--config-dir", tmp.toString()),
        "--config-dir and --kubernetes exclude each other", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--xds-tls-cert", "a.pem"),
        "--xds-tls-cert and --xds-tls-key go together", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--xds-tls-client-ca", "ca.pem"),
        "--xds-tls-client-ca needs --xds-tls-cert and --xds-tls-key", "holdfast serve");
    run("serve", "--config-dir", tmp.toString(), "--xds-tls-cert", "a.pem", "--xds-tls-key", "a.key",
        "--xds-tls-client-ca", "ca.pem");
    assertThat(served.get(0).tls().orElseThrow().requiresClientCertificate()).isTrue();
  }

  @Test
  void xdsAuthorisationIsProxyIdentityWithClientCertificatesAndRefusedWithoutThem() {
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--xds-authorisation", "proxy-identity"),
        "--xds-authorisation proxy-identity needs --xds-tls-client-ca", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--xds-tls-cert", "a.pem", "--xds-tls-key",
        "a.key", "--xds-authorisation", "proxy-identity"),
        "--xds-authorisation proxy-identity needs --xds-tls-client-ca", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--xds-authorisation", "everyone"),
        "--xds-authorisation must be none or proxy-identity, got 'everyone'", "holdfast serve");
    run("serve", "--config-dir", tmp.toString());
    assertThat(served.get(0).xdsAuthorisation()).isEqualTo(XdsAuthorisation.NONE);
    run("serve", "--config-dir", tmp.toString(), "--xds-tls-cert", "a.pem", "--xds-tls-key", "a.key",
        "--xds-tls-client-ca", "ca.pem");
    assertThat(served.get(1).xdsAuthorisation()).isEqualTo(XdsAuthorisation.PROXY_IDENTITY);
    run("serve", "--config-dir", tmp.toString(), "--xds-tls-cert", "a.pem", "--xds-tls-key", "a.key",
        "--xds-tls-client-ca", "ca.pem", "--xds-authorisation", "none");
    assertThat(served.get(2).xdsAuthorisation()).isEqualTo(XdsAuthorisation.NONE);
  }

  @Test
  void webhookFlagsAreCheckedAndTheWebhookIsOffByDefault() {
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--webhook-port", "9443"),
        "--webhook-port needs --webhook-tls-cert and --webhook-tls-key", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--webhook-tls-cert", "c.pem"),
        "--webhook-tls-cert and --webhook-tls-key need --webhook-port", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--webhook-port", "9091", "--webhook-tls-cert",
        "c.pem", "--webhook-tls-key", "k.pem"), "--webhook-port 9091 is the same as --admin-port", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--webhook-port", "70000"),
        "--webhook-port must be in 0..65535", "holdfast serve");
    run("serve", "--config-dir", tmp.toString());
    assertThat(served.get(0).webhook()).isEmpty();
    run("serve", "--config-dir", tmp.toString(), "--webhook-port", "9443", "--webhook-tls-cert", "c.pem",
        "--webhook-tls-key", "k.pem");
    ServeSettings.Webhook webhook = served.get(1).webhook().orElseThrow();
    assertThat(webhook.port()).isEqualTo(9443);
    assertThat(webhook.address()).isEqualTo("0.0.0.0");
    assertThat(webhook.certificate()).isEqualTo(Path.of("c.pem"));
  }

  @Test
  void missingConfigDirIsAUsageError() {
    assertUsageError(run("serve"), "--config-dir is required", "holdfast serve");
  }

  @Test
  void configDirThatDoesNotExistIsAUsageError() {
    Path missing = tmp.resolve("missing");

    assertUsageError(run("serve", "--config-dir", missing.toString()),
        "--config-dir '" + missing + "' does not exist", "holdfast serve");
  }

  @Test
  void configDirThatIsAFileIsAUsageError() throws IOException {
    Path file = Files.writeString(tmp.resolve("gateway.yaml"), "x: 1");

    assertUsageError(run("serve", "--config-dir", file.toString()),
        "--config-dir '" + file + "' is not a directory", "holdfast serve");
  }

  @Test
  void snapshotDirMustBeAnExistingDirectory() throws IOException {
    Path file = Files.writeString(tmp.resolve("snap"), "");

    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--snapshot-dir", file.toString()),
        "--snapshot-dir '" + file + "' is not a directory", "holdfast serve");
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--snapshot-dir", tmp.resolve("no").toString()),
        "--snapshot-dir '" + tmp.resolve("no") + "' does not exist", "holdfast serve");
  }

  @Test
  void unknownOptionAndMissingOrMisspeltSubcommandAreUsageErrors() {
    assertUsageError(run("serve", "--config-dir", tmp.toString(), "--bogus"),
        "Unknown option: '--bogus'", "holdfast serve");
    assertThat(run("srve")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("Did you mean: holdfast serve");
  }

  /** The demo moved to it/demo.sh: the product CLI neither lists nor runs it (it loaded test-only classes). */
  @Test
  void theProductCliHasNoDemo() {
    assertThat(run("--help")).isEqualTo(HoldfastCli.EXIT_OK);
    assertThat(out.toString()).contains("serve").doesNotContain("demo");
    assertThat(run("demo")).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("demo");
  }

  @Test
  void helpListsEveryOptionWithItsDefaultAndExitsZero() {
    int code = run("serve", "--help");

    assertThat(code).isEqualTo(HoldfastCli.EXIT_OK);
    assertThat(served).isEmpty();
    assertThat(out.toString().replaceAll("\\s+", " "))
        .contains("--config-dir=DIR", "File mode")
        .contains("--kubernetes", "--lease-duration=DURATION", "LEADER_ELECTION_LEASE_DURATION", "(default: 15s)")
        .contains("--max-recovery=DURATION", "MAX_RECOVERY_DURATION_WITHOUT_KUBE_API_SERVER")
        .contains("--leader-request-timeout=DURATION", "leader-only request", "(default: 2s)")
        .contains("--fence-slack=DURATION", "(default: 1s)")
        .contains("--xds-tls-cert=FILE", "--xds-tls-client-ca=FILE", "HOLDFAST_<OPTION>")
        .contains("--xds-address=ADDRESS", "(default: 127.0.0.1)")
        .contains("--xds-port=PORT", "(default: 18000)")
        .contains("--admin-address=ADDRESS")
        .contains("--admin-port=PORT", "(default: 9091)")
        .contains("--snapshot-dir=DIR", "(default: none)")
        .contains("--log-format=FORMAT", "text or json (default: text)");
  }

  @Test
  void failingActionGivesOneLineAndExitCode1() {
    int code = run(settings -> {
      throw new IllegalStateException("port 18000 in use");
    }, "serve", "--config-dir", tmp.toString());

    assertThat(code).isEqualTo(HoldfastCli.EXIT_FAILURE);
    assertThat(err.toString()).isEqualTo("holdfast: serve failed: port 18000 in use" + System.lineSeparator());
  }

  private void assertUsageError(int code, String message, String command) {
    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(served).as("action must not run").isEmpty();
    String[] lines = err.toString().split("\\R");
    assertThat(lines[0]).startsWith("holdfast: ").contains(message);
    assertThat(lines[lines.length - 1]).isEqualTo("Try '" + command + " --help' for more information.");
    assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
    err.getBuffer().setLength(0);
  }

  @Test
  void theShutdownBoundCoversTheWriterAndElectorClosesAndTheDeploymentGivesItTime() throws IOException {
    run("serve", "--kubernetes", "--kube-api-url", "https://127.0.0.1:6443");
    java.time.Duration defaults = HoldfastCli.shutdownBound(served.get(0));
    // status writer 2 s + 0.5 s, elector renew deadline 10 s + slack 1 s + 2 x lock 1 s + 2 s, drain 5 s
    assertThat(defaults).isEqualTo(java.time.Duration.ofMillis(22_500));

    run("serve", "--kubernetes", "--kube-api-url", "https://127.0.0.1:6443", "--lease-duration", "60s",
        "--renew-deadline", "40s");
    assertThat(HoldfastCli.shutdownBound(served.get(1))).isEqualTo(java.time.Duration.ofMillis(52_500));

    String deployment = Files.readString(Path.of("..", "deploy", "deployment.yaml"));
    java.util.regex.Matcher grace = java.util.regex.Pattern.compile("terminationGracePeriodSeconds: (\\d+)")
        .matcher(deployment);
    assertThat(grace.find()).as("deploy/deployment.yaml sets terminationGracePeriodSeconds").isTrue();
    assertThat(java.time.Duration.ofSeconds(Long.parseLong(grace.group(1)))).isGreaterThan(defaults);
  }
}
