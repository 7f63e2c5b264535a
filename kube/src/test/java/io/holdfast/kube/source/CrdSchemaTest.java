package io.holdfast.kube.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.holdfast.api.ManifestDocument;
import io.holdfast.api.ManifestReader;
import io.holdfast.api.ModelParser;
import io.holdfast.api.ParseResult;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The CRDs in deploy/crds are well-formed, structural, and accept exactly the shapes ModelParser accepts. */
class CrdSchemaTest {

  static final Path CRDS = Path.of("../deploy/crds");
  private static final Path EXAMPLES = Path.of("../examples/config");
  private static final Map<String, String> PLURALS =
      Map.of("Upstream", "upstreams", "VirtualService", "virtualservices", "Gateway", "gateways",
          "TcpGateway", "tcpgateways", "RouteTable", "routetables", "ClientTrafficPolicy", "clienttrafficpolicies",
          "TrafficPolicy", "trafficpolicies", "SecurityPolicy", "securitypolicies");

  static CustomResourceDefinition load(String kind) {
    Path file = CRDS.resolve("gateway.holdfast.io_" + PLURALS.get(kind) + ".yaml");
    try (InputStream in = Files.newInputStream(file)) {
      return Serialization.unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }

  private static JSONSchemaProps schema(String kind) {
    return load(kind).getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
  }

  @Test
  void everyHoldfastKindHasItsCrdFile() throws IOException {
    try (Stream<Path> files = Files.list(CRDS)) {
      assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrderElementsOf(
          Stream.concat(GatewayCrds.ALL.stream(), GatewayCrds.POLICIES.stream())
              .map(c -> "gateway.holdfast.io_" + c.getPlural() + ".yaml").toList());
    }
    assertThat(Stream.concat(GatewayCrds.ALL.stream(), GatewayCrds.POLICIES.stream())).extracting(c -> c.getKind())
        .containsExactlyInAnyOrderElementsOf(PLURALS.keySet());
    assertThat(GatewayCrds.POLICIES).extracting(c -> c.getKind()).containsExactlyElementsOf(PolicyKinds.ALL);
  }

  @ParameterizedTest
  @ValueSource(strings = {"Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable", "ClientTrafficPolicy",
      "TrafficPolicy", "SecurityPolicy"})
  void crdNamesGroupScopeAndStatusSubresource(String kind) {
    CustomResourceDefinition crd = load(kind);
    assertThat(crd.getApiVersion()).isEqualTo("apiextensions.k8s.io/v1");
    assertThat(crd.getMetadata().getName()).isEqualTo(PLURALS.get(kind) + ".gateway.holdfast.io");
    assertThat(crd.getSpec().getGroup()).isEqualTo(GatewayCrds.GROUP);
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo(kind);
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo(PLURALS.get(kind));
    assertThat(crd.getSpec().getNames().getListKind()).isEqualTo(kind + "List");
    assertThat(crd.getSpec().getVersions()).hasSize(1);
    CustomResourceDefinitionVersion v1 = crd.getSpec().getVersions().get(0);
    assertThat(v1.getName()).isEqualTo(GatewayCrds.VERSION);
    assertThat(v1.getServed()).isTrue();
    assertThat(v1.getStorage()).isTrue();
    assertThat(v1.getSubresources().getStatus()).isNotNull();
    assertThat(v1.getAdditionalPrinterColumns()).extracting(c -> c.getName() + "=" + c.getJsonPath())
        .containsExactly(
            "Accepted=.status.conditions[?(@.type==\"Accepted\")].status",
            "Reason=.status.conditions[?(@.type==\"Accepted\")].reason",
            "Age=.metadata.creationTimestamp");
    // The CRD and the client-side definition must name the same resource.
    var context = GatewayCrds.context(new ResourceKey(GatewayCrds.GROUP, kind, "demo", "x")).orElseThrow();
    assertThat(context.getPlural()).isEqualTo(crd.getSpec().getNames().getPlural());
    assertThat(context.getGroup()).isEqualTo(crd.getSpec().getGroup());
    assertThat(context.isNamespaceScoped()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable"})
  void schemaIsStructuralWithAStatusOfConditions(String kind) {
    JSONSchemaProps root = schema(kind);
    assertThat(SchemaCheck.structuralProblems(root)).isEmpty();
    JSONSchemaProps status = root.getProperties().get("status");
    assertThat(status.getProperties()).containsKeys("conditions", "observedGeneration", "nack");
    assertThat(status.getProperties().get("conditions").getItems().getSchema().getProperties())
        .containsOnlyKeys("type", "status", "reason", "message", "lastTransitionTime", "observedGeneration");
    // Only the NACK record, whose fields the status writer owns, keeps unknown fields.
    assertThat(preservingPaths(root, "")).containsExactly("status.nack");
  }

  @Test
  void everyExampleDocumentConformsToItsSchema() throws IOException {
    List<ManifestDocument> documents = new ArrayList<>();
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        documents.addAll(new ManifestReader().read(file.toString(), Files.readString(file)).documents());
      }
    }
    assertThat(documents).extracting(d -> d.tree().get("kind").stringValue())
        .contains("Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable");
    for (ManifestDocument document : documents) {
      String kind = document.tree().get("kind").stringValue();
      assertThat(SchemaCheck.violations(document.tree(), schema(kind))).as(document.location()).isEmpty();
    }
  }

  @Test
  void aStatusAsTheWriterWritesItConforms() {
    JsonNode doc = SchemaFixtures.tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: a, namespace: demo}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 80}]}}
        status:
          observedGeneration: 3
          conditions:
            - {type: Accepted, status: "False", reason: UnknownField, message: "spec.x: unknown field",
               lastTransitionTime: "2026-01-31T12:00:00Z", observedGeneration: 3}
          nack: {nodeId: envoy-1, typeUrl: type.googleapis.com/envoy.config.cluster.v3.Cluster,
                 message: rejected, somethingNew: kept}
        """);
    assertThat(SchemaCheck.violations(doc, schema("Upstream"))).isEmpty();
    assertThat(new ModelParser().parse(doc)).isInstanceOf(ParseResult.Parsed.class);
  }

  /** Documents the parser accepts must conform; documents it rejects for their shape must not. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void schemaAndParserAgree(SchemaFixtures.Case c) {
    JsonNode doc = SchemaFixtures.tree(c.yaml());
    boolean parsed = new ModelParser().parse(doc) instanceof ParseResult.Parsed;
    List<String> violations = SchemaCheck.violations(doc, schema(doc.get("kind").stringValue()));
    assertThat(parsed).as("parser accepts: " + c.name()).isEqualTo(c.valid());
    assertThat(violations.isEmpty()).as("schema accepts: " + c.name() + " " + violations).isEqualTo(c.valid());
  }

  static Stream<SchemaFixtures.Case> cases() {
    return SchemaFixtures.CASES.stream();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ClientTrafficPolicy", "TrafficPolicy", "SecurityPolicy"})
  void policySchemaIsStructuralWithTheGatewayApiPolicyStatus(String kind) {
    JSONSchemaProps root = schema(kind);
    assertThat(SchemaCheck.structuralProblems(root)).isEmpty();
    // A SecurityPolicy or TrafficPolicy may instead be named by HTTPRoute rules' ExtensionRef filters.
    if (kind.equals("ClientTrafficPolicy")) {
      assertThat(root.getProperties().get("spec").getRequired()).containsExactly("targetRefs");
    } else {
      assertThat(root.getProperties().get("spec").getRequired()).isNullOrEmpty();
    }
    assertThat(root.getProperties().get("status").getProperties()).containsOnlyKeys("conditions", "ancestors");
    assertThat(preservingPaths(root, "")).isEmpty();
  }

  /** Every policy document of the policy goldens (which the front end reads, valid or not) conforms to its CRD. */
  @ParameterizedTest
  @ValueSource(strings = {"gateway-api-security-policy", "gateway-api-traffic-policies", "gateway-api-oauth2"})
  void policyGoldenInputsConform(String golden) throws IOException {
    Path file = Path.of("../xds/src/test/resources/golden", golden, "input.yaml");
    List<ManifestDocument> policies = new ManifestReader().read(file.toString(), Files.readString(file)).documents()
        .stream().filter(d -> PolicyKinds.isPolicy(d.tree().path("apiVersion").asString(""),
            d.tree().path("kind").asString(""))).toList();
    assertThat(policies).isNotEmpty();
    for (ManifestDocument document : policies) {
      assertThat(SchemaCheck.violations(document.tree(), schema(document.tree().get("kind").stringValue())))
          .as(document.location()).isEmpty();
    }
  }

  /**
   * A policy's option fields are the same schema as the Holdfast fields its parser shares (SecurityPolicy: a
   * VirtualService's options.security; ClientTrafficPolicy: a Gateway's options; TrafficPolicy: a VirtualService's
   * route traffic fields): a change to one CRD that the other misses fails here.
   */
  @Test
  void policyOptionSchemasAreTheHoldfastKindsOnes() {
    Map<String, JSONSchemaProps> vsOptions = spec("VirtualService").get("options").getProperties();
    Map<String, JSONSchemaProps> gatewayOptions = spec("Gateway").get("options").getProperties();
    assertThat(without(spec("SecurityPolicy"), "targetRefs"))
        .isEqualTo(vsOptions.get("security").getProperties());
    // A ClientTrafficPolicy has no external processing service (its TrafficPolicy none to tune), nor the Gateway's
    // normalizePath, webSockets and grpcWeb (added for Gloo Gateways' defaults; not yet policy fields).
    assertThat(asGatewayOptions(spec("ClientTrafficPolicy"))).isEqualTo(without(without(without(without(
        gatewayOptions, "extProc"), "normalizePath"), "webSockets"), "grpcWeb"));
    Map<String, JSONSchemaProps> traffic = without(spec("TrafficPolicy"), "targetRefs");
    assertThat(traffic).containsOnlyKeys("rateLimit", "compression", "csrf", "maxRequestBodyBytes");
    traffic.forEach((field, schema) -> assertThat(schema).as(field).isEqualTo(vsOptions.get(field)));
    assertThat(vsOptions).containsKey("extProc");
  }

  private static Map<String, JSONSchemaProps> spec(String kind) {
    return schema(kind).getProperties().get("spec").getProperties();
  }

  /**
   * A ClientTrafficPolicy's fields as a Holdfast Gateway's options: where the Gateway names an upstream, the policy
   * may name a backendRef instead (so upstream is not required there).
   */
  private static Map<String, JSONSchemaProps> asGatewayOptions(Map<String, JSONSchemaProps> policy) {
    Map<String, JSONSchemaProps> out = without(policy, "targetRefs");
    JSONSchemaProps logs = out.get("accessLogs").getItems().getSchema();
    for (JSONSchemaProps service : List.of(logs.getProperties().get("grpc"), logs.getProperties().get("openTelemetry"),
        out.get("rateLimitService"), out.get("tracing").getProperties().get("openTelemetry"))) {
      assertThat(service.getProperties()).containsKey("backendRef");
      service.getProperties().remove("backendRef");
      List<String> required = new java.util.ArrayList<>(List.of("upstream"));
      required.addAll(service.getRequired() == null ? List.of() : service.getRequired());
      service.setRequired(required);
    }
    return out;
  }

  private static Map<String, JSONSchemaProps> without(Map<String, JSONSchemaProps> fields, String field) {
    Map<String, JSONSchemaProps> out = new java.util.TreeMap<>(fields);
    out.remove(field);
    return out;
  }

  /** A policy's fields beyond its parser's (a typo, a field of another kind) are rejected, as the parser does. */
  @Test
  void policySchemasRejectFieldsTheirParsersReject() {
    JsonNode typo = SchemaFixtures.tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: TrafficPolicy
        metadata: {name: a, namespace: demo}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
          compresion: [gzip]
        """);
    assertThat(SchemaCheck.violations(typo, schema("TrafficPolicy"))).isNotEmpty();
    JsonNode listenerFieldOnRoutePolicy = SchemaFixtures.tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: TrafficPolicy
        metadata: {name: a, namespace: demo}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
          idleTimeout: 30s
        """);
    assertThat(SchemaCheck.violations(listenerFieldOnRoutePolicy, schema("TrafficPolicy"))).isNotEmpty();
    assertThat(SchemaCheck.violations(listenerFieldOnRoutePolicy, schema("ClientTrafficPolicy"))).isEmpty();
    JsonNode noTargets = SchemaFixtures.tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: a, namespace: demo}
        spec: {rbac: {rules: [{clientIp: [192.0.2.0/24]}]}}
        """);
    // An HTTPRoute rule may name it in an ExtensionRef filter instead; a ClientTrafficPolicy cannot be named so.
    assertThat(SchemaCheck.violations(noTargets, schema("SecurityPolicy"))).isEmpty();
    JsonNode clientWithoutTargets = SchemaFixtures.tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: ClientTrafficPolicy
        metadata: {name: a, namespace: demo}
        spec: {idleTimeout: 30s}
        """);
    assertThat(SchemaCheck.violations(clientWithoutTargets, schema("ClientTrafficPolicy"))).isNotEmpty();
  }

  private static List<String> preservingPaths(JSONSchemaProps schema, String path) {
    List<String> out = new ArrayList<>();
    if (Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields())) {
      out.add(path);
    }
    if (schema.getProperties() != null) {
      schema.getProperties().forEach((name, child) ->
          out.addAll(preservingPaths(child, path.isEmpty() ? name : path + "." + name)));
    }
    if (schema.getItems() != null && schema.getItems().getSchema() != null) {
      out.addAll(preservingPaths(schema.getItems().getSchema(), path + "[]"));
    }
    return out;
  }
}
