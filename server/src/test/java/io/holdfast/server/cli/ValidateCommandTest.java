package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code holdfast validate} through the real command line: exit codes, text and JSON output, stdin, directories. */
class ValidateCommandTest {
  static final String UPSTREAM = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: echo, namespace: demo}
      spec:
        static:
          hosts: [{address: 127.0.0.1, port: 9101}]
      """;
  static final String GOOD_VS = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: web, namespace: demo, labels: {expose: public}}
      spec:
        domains: [web.test]
        routes:
          - match: {prefix: /}
            route: {upstream: echo}
      """;
  /** Selects nothing: served, with a NoVirtualServices warning. */
  static final String LONELY_GATEWAY = """
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: lonely, namespace: demo}
      spec:
        port: 10081
        selector: {matchLabels: {expose: nobody}}
      """;
  static final String MISSING_UPSTREAM_VS = """
      # routes to an upstream nobody declared
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: broken, namespace: demo}
      spec:
        domains: [broken.test]
        routes:
          - match: {prefix: /}
            route: {upstream: nowhere}
      """;

  @TempDir
  Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private String stdin = "";

  private int run(String... args) {
    return new HoldfastCli(settings -> {
      throw new AssertionError("validate must not serve");
    }).execute(() -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out),
        new PrintWriter(err), args);
  }

  private Path write(String name, String text) throws IOException {
    Path file = tmp.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    return file;
  }

  @Test
  void theBundledExampleIsAcceptedWithExitCode0() {
    int code = run("validate", Path.of("..", "examples", "config").toString());

    assertThat(code).isEqualTo(0);
    assertThat(out.toString()).contains("0 rejected; 0 file errors").doesNotContain("REJECTED");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void theGatewayApiExamplesAreAccepted() {
    // File mode: the Services and EndpointSlices are in the directory, so every reference resolves.
    assertThat(run("validate", Path.of("..", "examples", "gateway-api").toString())).isEqualTo(0);
    assertThat(out.toString()).contains("4 resources: 4 accepted, 0 with warnings, 0 rejected; 0 file errors");
    // The Kubernetes example under deploy/ names Services and a Secret that live in the cluster, not in the file:
    // served, and the references validate cannot see are named (they were hidden before).
    out.getBuffer().setLength(0);
    assertThat(run("validate", Path.of("..", "deploy", "examples").toString())).isEqualTo(0);
    assertThat(out.toString()).contains("4 resources: 1 accepted, 3 with warnings, 0 rejected; 0 file errors")
        .contains("warning: BackendNotFound: spec.rules[0].backendRefs[0]: Service demo/echo-v2:80 does not exist")
        .contains("warning: InvalidCertificateRef: spec.listeners[1].tls.certificateRefs[0]");
  }

  @Test
  void aMalformedGatewayControllerNameIsAUsageError() throws IOException {
    Path file = write("up.yaml", UPSTREAM);

    assertThat(run("validate", "--gateway-controller-name", "example.test/gw", file.toString())).isEqualTo(0);
    int code = run("validate", "--gateway-controller-name", "not a name", file.toString());

    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("--gateway-controller-name must be a domain-prefixed path");
  }

  /**
   * Regression (issue 22): an HTTPRoute with an invalid path type made validate die with "state REJECTED with 0
   * problems" and a stack trace. It is rejected with its reason; everything else keeps its verdict.
   */
  @Test
  void anHttpRouteWithAnInvalidEnumIsRejectedWithItsReasonAndNothingElseIsHurt() throws IOException {
    Path file = write("mixed.yaml", UPSTREAM + "---\n" + io.holdfast.server.HostileInputs.INVALID_ENUM_ROUTE);

    int code = run("validate", file.toString());

    assertThat(code).isEqualTo(1);
    assertThat(out.toString()).contains("HTTPRoute.gateway.networking.k8s.io/shop/typo: InvalidEnumValue: "
        + "spec.rules[0].matches[0].path.type: path match type Prefix is not one of Exact, PathPrefix,"
        + " RegularExpression")
        .contains("4 resources: 3 accepted, 0 with warnings, 1 rejected; 0 file errors")
        .doesNotContain("internal error");
    assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  /** Item 8 of issue 22: validate takes the settings verdicts depend on from serve's environment and file. */
  @Test
  void validateJudgesWithTheServersSettingsFromTheEnvironmentAndTheConfigFile() throws IOException {
    Path file = write("class.yaml", """
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: ours}
        spec: {controllerName: example.test/gw}
        """);
    Path settings = write("serve.yaml", "gateway-controller-name: example.test/gw\nxds-port: 18001\n");

    assertThat(run("validate", file.toString())).isZero();
    assertThat(out.toString()).as("not Holdfast's class by default").contains("0 resources");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "--config-file", settings.toString(), file.toString())).isZero();
    assertThat(out.toString()).as("serve's settings file").contains("1 resource: 1 accepted");

    out.getBuffer().setLength(0);
    int code = new HoldfastCli(s -> {
      throw new AssertionError("validate must not serve");
    }, java.util.Map.of("HOLDFAST_GATEWAY_CONTROLLER_NAME", "example.test/gw")).execute(
        () -> new ByteArrayInputStream(new byte[0]), new PrintWriter(out), new PrintWriter(err), "validate",
        file.toString());
    assertThat(code).isZero();
    assertThat(out.toString()).as("serve's environment").contains("1 resource: 1 accepted");
  }

  @Test
  void warningsAreMarkedAndDoNotFail() throws IOException {
    Path file = write("gw.yaml", UPSTREAM + "---\n" + LONELY_GATEWAY);

    int code = run("validate", file.toString());

    assertThat(code).isEqualTo(0);
    assertThat(out.toString()).contains(file + ":11:1: Gateway/demo/lonely: warning: NoVirtualServices: spec: ")
        .contains("2 resources: 1 accepted, 1 with warnings, 0 rejected; 0 file errors");
  }

  @Test
  void aRejectionIsReportedAtItsFieldsOwnLineWithTheStatusReasonAndExitCode1() throws IOException {
    Path file = write("vs.yaml", UPSTREAM + "---\n" + MISSING_UPSTREAM_VS);

    int code = run("validate", file.toString());

    assertThat(code).isEqualTo(1);
    // "---" is line 7, the document starts at 9; "route: {upstream: nowhere}" is line 16, the key at column 15.
    assertThat(out.toString()).contains(file + ":16:15: VirtualService/demo/broken: UpstreamNotFound: "
        + "spec.routes[0].route.upstream: ");
    assertThat(out.toString()).contains("1 rejected");
  }

  @Test
  void jsonOutputListsEveryResourceWithStateAndProblems() throws IOException {
    Path file = write("all.yaml", UPSTREAM + "---\n" + MISSING_UPSTREAM_VS + "---\n" + LONELY_GATEWAY);

    int code = run("validate", "--output", "json", file.toString());

    assertThat(code).isEqualTo(1);
    JsonNode doc = JsonMapper.builder().build().readTree(out.toString());
    assertThat(doc.get("passed").asBoolean()).isFalse();
    assertThat(doc.get("resources")).hasSize(3);
    JsonNode broken = find(doc, "broken");
    assertThat(broken.get("file").asString()).isEqualTo(file.toString());
    assertThat(broken.get("line").asInt()).isEqualTo(9);
    assertThat(broken.get("kind").asString()).isEqualTo("VirtualService");
    assertThat(broken.get("namespace").asString()).isEqualTo("demo");
    assertThat(broken.get("state").asString()).isEqualTo("REJECTED");
    JsonNode problem = broken.get("problems").get(0);
    assertThat(problem.get("severity").asString()).isEqualTo("ERROR");
    assertThat(problem.get("field").asString()).isEqualTo("spec.routes[0].route.upstream");
    assertThat(problem.get("reason").asString()).isEqualTo("UpstreamNotFound");
    assertThat(problem.get("message").asString()).contains("nowhere");
    // The one problem shape (ReportedProblem): self-contained, at the field's own line and column.
    assertThat(problem.propertyNames()).containsExactly("severity", "reason", "message", "field", "group", "kind",
        "namespace", "name", "file", "line", "column");
    assertThat(problem.get("file").asString()).isEqualTo(file.toString());
    assertThat(problem.get("line").asInt()).isEqualTo(16);
    assertThat(problem.get("column").asInt()).isEqualTo(15);
    assertThat(problem.get("kind").asString()).isEqualTo("VirtualService");
    assertThat(problem.get("group").asString()).isEqualTo("gateway.holdfast.io");
    assertThat(doc.get("verdict").asString()).isEqualTo("REJECTED");
    assertThat(find(doc, "lonely").get("problems").get(0).get("severity").asString()).isEqualTo("WARNING");
    assertThat(find(doc, "echo").get("state").asString()).isEqualTo("ACCEPTED");
    assertThat(find(doc, "echo").get("problems")).isEmpty();
    assertThat(doc.get("fileErrors")).isEmpty();
  }

  @Test
  void standardInputIsReadForDashAndValidatedWithTheOtherFiles() throws IOException {
    Path upstream = write("upstream.yaml", UPSTREAM);
    stdin = GOOD_VS;

    int code = run("validate", upstream.toString(), "-");

    assertThat(code).isEqualTo(0);
    assertThat(out.toString()).contains("2 resources: 2 accepted");

    stdin = MISSING_UPSTREAM_VS;
    StringWriter before = new StringWriter();
    before.write(out.toString());
    assertThat(run("validate", "-")).isEqualTo(1);
    assertThat(out.toString().substring(before.toString().length()))
        .contains("<stdin>:9:15: VirtualService/demo/broken: UpstreamNotFound: ");
  }

  /** Standard input was read whole; it is held to the files' 8 MiB, before anything parses it. */
  @Test
  void standardInputOverTheFileLimitIsAFileError() {
    stdin = "#".repeat((int) io.holdfast.server.source.ConfigPaths.MAX_FILE_BYTES + 1);
    assertThat(run("validate", "-")).isEqualTo(1);
    assertThat(out.toString()).contains("<stdin>", "larger than 8388608 bytes");
  }

  @Test
  void limitOptionsRaiseTheBounds() throws IOException {
    Path vs = write("vs.yaml", UPSTREAM + "---\n" + GOOD_VS.replace("prefix: /", "regex: /" + "x".repeat(150)));
    assertThat(run("validate", vs.toString())).isEqualTo(1);
    assertThat(out.toString()).contains("RegexTooComplex", "--max-regex-program-size");
    assertThat(run("validate", "--max-regex-program-size", "1000", vs.toString())).isEqualTo(0);
    assertThat(run("validate", "--max-regex-length", "0", vs.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--max-regex-length must be a whole number of at least 1, got '0'");
  }

  @Test
  void aDirectoryWithABadFileReportsItAndStillValidatesTheOthers() throws IOException {
    Path dir = tmp.resolve("conf");
    write("conf/upstream.yaml", UPSTREAM);
    write("conf/vs.yaml", GOOD_VS);
    write("conf/broken.yml", "apiVersion: gateway.holdfast.io/v1\nkind: Upstream\nmetadata: {name: [oops\n");
    write("conf/notes.txt", "not config");
    write("conf/.swap.yaml", "{{{");
    write("conf/sub/hidden.yaml", MISSING_UPSTREAM_VS);

    int code = run("validate", dir.toString());

    assertThat(code).isEqualTo(1);
    String text = out.toString();
    // The unclosed flow sequence is found at the end of the text.
    assertThat(text).contains(dir.resolve("broken.yml") + ":4:1: invalid YAML: ");
    assertThat(text).contains("2 resources: 2 accepted, 0 with warnings, 0 rejected; 1 file error")
        .doesNotContain("swap").doesNotContain("broken.test");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "--recursive", dir.toString())).isEqualTo(1);
    assertThat(out.toString()).contains(dir.resolve("sub").resolve("hidden.yaml") + ":9:15: VirtualService/demo/broken: ")
        .contains("3 resources: 2 accepted, 0 with warnings, 1 rejected; 1 file error");
  }

  @Test
  void aDocumentThatNamesNoResourceIsAFileError() throws IOException {
    Path file = write("x.yaml", UPSTREAM + "---\n- just\n- a list\n");

    assertThat(run("validate", file.toString())).isEqualTo(1);
    assertThat(out.toString()).contains(file + ":8:1: document 1 is ");
  }

  @Test
  void usageErrorsExitWith2() throws IOException {
    assertThat(run("validate")).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required parameter").contains("holdfast validate --help");

    err.getBuffer().setLength(0);
    assertThat(run("validate", tmp.resolve("nope.yaml").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("nope.yaml' does not exist").contains("holdfast validate --help");

    Path file = write("ok.yaml", UPSTREAM);
    err.getBuffer().setLength(0);
    assertThat(run("validate", "--output", "xml", file.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--output must be text or json, got 'xml'");
    assertThat(out.toString()).isEmpty();
  }

  /**
   * Validate judges with serve's settings (issue 22, item 8), so a settings file it cannot read is a usage error
   * naming it, as for serve, rather than a verdict under other settings than the server's.
   */
  @Test
  void anUnreadableServeSettingsFileIsAUsageErrorForValidateToo() throws IOException {
    Path file = write("ok.yaml", UPSTREAM);
    int code = new HoldfastCli(s -> 7, java.util.Map.of("HOLDFAST_CONFIG_FILE", tmp.resolve("absent.yaml").toString()))
        .execute(new PrintWriter(out), new PrintWriter(err), "validate", file.toString());

    assertThat(code).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("absent.yaml");
  }

  /** Issue 26: an unknown field is reported at its own line, not at its document's start. */
  @Test
  void anUnknownFieldIsReportedAtItsOwnLineInTextAndJson() throws IOException {
    Path file = write("typo.yaml", UPSTREAM + "---\n" + GOOD_VS.replace("route: {upstream: echo}",
        "route: {upstream: echo}\n    - match: {prefx: /b}\n      route: {upstream: echo}"));

    assertThat(run("validate", file.toString())).isEqualTo(1);
    // The document starts at line 8; the second route's "prefx" is on line 16, column 15.
    assertThat(out.toString()).contains(file + ":16:15: VirtualService/demo/web: UnknownField: "
        + "spec.routes[1].match.prefx: unknown field");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "-o", "json", file.toString())).isEqualTo(1);
    JsonNode problems = find(JsonMapper.builder().build().readTree(out.toString()), "web").get("problems");
    assertThat(problems).anySatisfy(p -> {
      assertThat(p.get("field").asString()).isEqualTo("spec.routes[1].match.prefx");
      assertThat(p.get("line").asInt()).isEqualTo(16);
    });
  }

  /** Issue 26: an empty directory gave "0 resources" and exit 0. */
  @Test
  void aDirectoryWithNothingToReadIsAWarningAndExitCode2() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("empty"));

    assertThat(run("validate", empty.toString())).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("warning: '" + empty + "' has no *.yaml or *.yml files: nothing to"
        + " validate there");

    err.getBuffer().setLength(0);
    assertThat(run("validate", "-R", empty.toString())).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("'" + empty + "' and its subdirectories have no *.yaml or *.yml files");
  }

  /** Issue 26: YAML only in subdirectories, without -R, gave "0 resources" and exit 0. */
  @Test
  void yamlOnlyInSubdirectoriesWithoutRecursiveIsAWarningThatSuggestsR() throws IOException {
    Path dir = tmp.resolve("gitops");
    write("gitops/apps/upstream.yaml", UPSTREAM);
    write("gitops/apps/vs.yml", GOOD_VS);
    write("gitops/README.md", "not config");

    assertThat(run("validate", dir.toString())).isEqualTo(HoldfastCli.EXIT_USAGE);
    assertThat(err.toString()).contains("warning: '" + dir + "' has no *.yaml or *.yml files; its subdirectories"
        + " have 2 (read them with -R)");

    err.getBuffer().setLength(0);
    out.getBuffer().setLength(0);
    assertThat(run("validate", "-R", dir.toString())).isZero();
    assertThat(err.toString()).isEmpty();
    assertThat(out.toString()).contains("2 resources: 2 accepted");
  }

  private static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: echo, namespace: demo}
      spec: {replicas: 1}
      """;
  private static final String CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: upstreams.gateway.holdfast.io}
      spec: {group: gateway.holdfast.io}
      """;

  /** Issue 26: any Deployment or CRD in a GitOps directory failed the run. */
  @Test
  void ignoreUnknownKindsSkipsWhatHoldfastDoesNotReadAndListsItAsNotes() throws IOException {
    Path dir = tmp.resolve("repo");
    write("repo/app.yaml", DEPLOYMENT + "---\n" + UPSTREAM + "---\n" + GOOD_VS);
    write("repo/crds.yaml", CRD);

    assertThat(run("validate", dir.toString())).as("as the server judges them").isEqualTo(1);
    assertThat(out.toString()).contains("UnsupportedKind")
        .contains("hint: 2 documents are of a kind Holdfast does not read (apps/v1 Deployment,"
            + " apiextensions.k8s.io/v1 CustomResourceDefinition); pass --ignore-unknown-kinds to skip them");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "--ignore-unknown-kinds", dir.toString())).isZero();
    assertThat(out.toString())
        .contains(dir.resolve("app.yaml") + ":1:1: note: skipped: apps/v1 Deployment is not a kind Holdfast reads")
        .contains(dir.resolve("crds.yaml") + ":1:1: note: skipped: apiextensions.k8s.io/v1 CustomResourceDefinition")
        .contains("2 resources: 2 accepted, 0 with warnings, 0 rejected; 0 file errors; 2 skipped")
        .doesNotContain("hint:").doesNotContain("UnsupportedKind");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "--ignore-unknown-kinds", "-o", "json", dir.toString())).isZero();
    JsonNode skipped = JsonMapper.builder().build().readTree(out.toString()).get("skipped");
    assertThat(skipped).hasSize(2);
    assertThat(skipped.get(0).get("severity").asString()).isEqualTo("NOTE");
    assertThat(skipped.get(0).get("reason").asString()).isEqualTo("SkippedKind");
    assertThat(skipped.get(0).get("kind").asString()).isEqualTo("Deployment");
    assertThat(skipped.get(0).get("group").asString()).isEqualTo("apps");
  }

  /** A typo in Holdfast's own group is not an unknown kind: it is still rejected with the flag. */
  @Test
  void ignoreUnknownKindsStillRejectsAnUnknownKindInHoldfastsGroup() throws IOException {
    Path file = write("typo.yaml", UPSTREAM.replace("kind: Upstream", "kind: Upstreem"));

    assertThat(run("validate", "--ignore-unknown-kinds", file.toString())).isEqualTo(1);
    assertThat(out.toString()).contains(file + ":2:1: Upstreem/demo/echo: UnsupportedKind: kind: ");
  }

  /** Issue 26: a crash and a rejection both exited 1. */
  @Test
  void anInternalErrorExitsWith3InOneLine() {
    int code = new HoldfastCli(settings -> {
      throw new AssertionError("validate must not serve");
    }).execute(() -> {
      throw new IllegalStateException("boom");
    }, new PrintWriter(out), new PrintWriter(err), "validate", "-");

    assertThat(code).isEqualTo(HoldfastCli.EXIT_INTERNAL);
    assertThat(err.toString()).isEqualTo("holdfast: validate failed: internal error: boom"
        + System.lineSeparator());
  }

  /** An Error picocli does not handle is one line too: a fatal one exits 70 (as the workers' do), others 3. */
  @Test
  void anErrorIsOneLineWithTheFatalOrInternalCode() {
    int fatal = new HoldfastCli(settings -> 0).execute(() -> {
      throw new StackOverflowError("deep");
    }, new PrintWriter(out), new PrintWriter(err), "validate", "-");
    assertThat(fatal).isEqualTo(io.holdfast.common.WorkerFailures.FATAL_EXIT_STATUS);
    assertThat(err.toString()).isEqualTo("holdfast: fatal error: deep" + System.lineSeparator());

    err.getBuffer().setLength(0);
    int internal = new HoldfastCli(settings -> 0).execute(() -> {
      throw new AssertionError("broken invariant");
    }, new PrintWriter(out), new PrintWriter(err), "validate", "-");
    assertThat(internal).isEqualTo(HoldfastCli.EXIT_INTERNAL);
    assertThat(err.toString()).contains("internal error: broken invariant").doesNotContain("\tat ");
  }

  private static JsonNode find(JsonNode doc, String name) {
    for (JsonNode r : doc.get("resources")) {
      if (r.get("name").asString().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no resource " + name + " in " + doc);
  }

  static List<String> lines(String text) {
    return text.lines().toList();
  }
}
