package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.CorsPolicy;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.tcp_proxy.v3.TcpProxy;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.holdfast.api.ConfigLoader;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TlsSecretData;
import io.envoyproxy.envoy.extensions.filters.listener.tls_inspector.v3.TlsInspector;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.holdfast.api.ServiceRef;
import io.holdfast.frontend.gatewayapi.GatewayApiFrontEnd;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.ir.Condition;
import io.holdfast.ir.Ir;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.SectionStatus;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Golden files: {@code src/test/resources/golden/<case>/input.yaml} (plus optional {@code endpoints.yaml}, and PEM
 * files under {@code tls/} that sslConfigs name as {@code tls/FILE}, as file mode reads them, and Kubernetes TLS
 * Secrets under {@code secrets/}, see {@link #withSecrets}) is loaded, validated
 * (certificate validity judged at {@link #NOW}), lowered by both front ends (Gateway API documents in the input
 * are lowered by the Gateway API front end, whose statuses are listed with their conditions) and translated; the statuses, snapshot version, every Envoy resource as protobuf JSON and each proxy's scope (names by type)
 * must equal {@code expected.json} exactly. Run with {@code -Dgolden.update=true} to rewrite the expected files
 * after an intended change, then review the diff.
 */
class GoldenTest {

  private static final Path ROOT = Path.of("src/test/resources/golden");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");
  private static final JsonFormat.Printer PRINTER = JsonFormat.printer().usingTypeRegistry(
      JsonFormat.TypeRegistry.newBuilder()
          .add(HttpConnectionManager.getDescriptor())
          .add(Router.getDescriptor())
          .add(HttpProtocolOptions.getDescriptor())
          .add(LeastRequest.getDescriptor())
          .add(RoundRobin.getDescriptor())
          .add(TcpProxy.getDescriptor())
          .add(TlsInspector.getDescriptor())
          .add(Cors.getDescriptor())
          .add(CorsPolicy.getDescriptor())
          .add(HTTPFault.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.basic_auth.v3.BasicAuth.getDescriptor())
          .add(io.envoyproxy.envoy.config.route.v3.FilterConfig.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute.getDescriptor())
          .add(UpstreamTlsContext.getDescriptor())
          .add(io.envoyproxy.envoy.extensions.http.header_formatters.preserve_case.v3.PreserveCaseFormatterConfig
              .getDescriptor())
          .add(io.envoyproxy.envoy.extensions.filters.http.grpc_web.v3.GrpcWeb.getDescriptor())
          .add(DownstreamTlsContext.getDescriptor())
          .add(TrafficTypes.DESCRIPTORS)
          .build());
  private static final JsonMapper JSON = JsonMapper.builder().build();
  /** Certificate validity is judged at this fixed instant, so committed test certificates never age out of a case. */
  static final Instant NOW = Instant.parse("2027-06-01T00:00:00Z");

  static Stream<String> cases() throws IOException {
    try (Stream<Path> dirs = Files.list(ROOT)) {
      List<String> names = dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).hasSizeGreaterThanOrEqualTo(4);
      return names.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("cases")
  void translationMatchesGoldenFile(String name) throws IOException {
    Path dir = ROOT.resolve(name);
    String actual = render(dir);
    Path expected = dir.resolve("expected.json");
    if (UPDATE) {
      Files.writeString(expected, actual, StandardCharsets.UTF_8);
    }
    assertThat(expected).as("missing golden file; run with -Dgolden.update=true").exists();
    assertThat(actual).isEqualTo(Files.readString(expected, StandardCharsets.UTF_8));
  }

  private static String render(Path dir) throws IOException {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(
        List.of(new ConfigLoader.Source("input.yaml", Files.readString(dir.resolve("input.yaml")))),
        endpoints(dir.resolve("endpoints.yaml")));
    assertThat(loaded.errors()).isEmpty();
    GatewayConfig config = withSecrets(withTlsFiles(loaded.config(), dir), dir);
    ValidationResult result = new Validator(Clock.fixed(NOW, ZoneOffset.UTC)).validate(config);
    // Both front ends lower into one builder, as the pipeline's ConfigCheck does: the Holdfast kinds' accepted IR,
    // then the Gateway API's objects with their statuses.
    Ir holdfast = HoldfastFrontEnd.lowerAccepted(result.accepted());
    IrBuilder builder = new IrBuilder();
    holdfast.listeners().forEach(builder::add);
    holdfast.clusters().forEach(builder::add);
    holdfast.secrets().forEach(builder::add);
    new GatewayApiFrontEnd(GatewayApiFrontEnd.DEFAULT_CONTROLLER_NAME).lower(config, builder);
    IrBuilder.Result built = builder.build();
    Translation translation = EnvoyConstraints.checked(new Translator().translate(built.ir()));

    ObjectNode root = JSON.createObjectNode();
    ObjectNode statuses = root.putObject("statuses");
    result.statuses().forEach((key, status) -> statuses.put(key.toString(), describe(status)));
    built.statuses().forEach((key, status) -> {
      if (key.group().equals(GatewayApiFrontEnd.GROUP) || io.holdfast.api.PolicyKinds.ALL.contains(key.kind())) {
        statuses.set(key.toString(), describe(status));
      }
    });
    root.put("version", translation.snapshot().version());
    ObjectNode resources = root.putObject("resources");
    translation.snapshot().resources().forEach((type, byName) -> {
      ObjectNode ofType = resources.putObject(type);
      byName.forEach((resourceName, message) -> ofType.set(resourceName, toJson(message)));
    });
    // What each proxy may be served: the names per type of its Gateways' listeners and what they use.
    ObjectNode scopes = root.putObject("scopes");
    translation.snapshot().scopes().byProxy().forEach((proxy, scope) -> {
      ObjectNode ofProxy = scopes.putObject(proxy);
      scope.names().forEach((type, names) -> names.forEach(
          ofProxy.putArray(type.substring(type.lastIndexOf('.') + 1))::add));
    });
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
  }

  private static String describe(ResourceStatus status) {
    if (status.problems().isEmpty()) {
      return status.state().name();
    }
    return status.state() + ": " + status.problems().stream().map(Object::toString).collect(Collectors.joining("; "));
  }

  /** A Gateway API status: its conditions, listener sections and route parents, each condition on one line. */
  private static JsonNode describe(ObjectStatus status) {
    ObjectNode node = JSON.createObjectNode();
    node.set("conditions", conditions(status.conditions()));
    if (!status.sections().isEmpty()) {
      ObjectNode listeners = node.putObject("listeners");
      for (SectionStatus section : status.sections()) {
        ObjectNode listener = listeners.putObject(section.name());
        listener.set("conditions", conditions(section.conditions()));
        listener.put("supportedKinds", section.supportedKinds().stream().map(SectionStatus.GroupKind::kind)
            .collect(Collectors.joining(", ")));
        listener.put("attachedRoutes", section.attachedRoutes());
      }
    }
    if (!status.parents().isEmpty()) {
      ObjectNode parents = node.putObject("parents");
      for (ParentStatus parent : status.parents()) {
        parents.set(parent.parent() + parent.section().map(s -> "/" + s).orElse("")
            + parent.port().map(p -> ":" + p).orElse(""), conditions(parent.conditions()));
      }
    }
    return node;
  }

  private static ObjectNode conditions(List<Condition> conditions) {
    ObjectNode node = JSON.createObjectNode();
    conditions.forEach(c -> node.put(c.type(), c.status() + " " + c.reason() + ": " + c.message()
        + " (generation " + c.observedGeneration() + ")"));
    return node;
  }

  /**
   * The config with the Kubernetes Secrets of {@code dir/secrets}: {@code NAMESPACE.NAME.crt} and
   * {@code NAMESPACE.NAME.key} are Secret {@code NAMESPACE/NAME}'s {@code tls.crt} and {@code tls.key};
   * {@code NAMESPACE.NAME.yaml} is a map of another Secret's entries.
   */
  static GatewayConfig withSecrets(GatewayConfig config, Path dir) throws IOException {
    Path secrets = dir.resolve("secrets");
    if (!Files.isDirectory(secrets)) {
      return config;
    }
    GatewayConfig.Builder builder = config.toBuilder();
    try (Stream<Path> files = Files.list(secrets)) {
      for (Path crt : files.filter(f -> f.getFileName().toString().endsWith(".crt")).sorted().toList()) {
        String[] namespaceAndName = crt.getFileName().toString().replaceFirst("\\.crt$", "").split("\\.", 2);
        Path key = crt.resolveSibling(crt.getFileName().toString().replaceFirst("\\.crt$", ".key"));
        builder.secret(TlsSecretData.secretKey(namespaceAndName[0], namespaceAndName[1]), new TlsSecretData(
            new java.util.TreeMap<>(Map.of(TlsSecretData.TLS_CRT, Files.readString(crt),
                TlsSecretData.TLS_KEY, Files.readString(key)))));
      }
    }
    // NAMESPACE.NAME.yaml: the data of a Secret of any type (OAuth2 credentials), entry name to text.
    try (Stream<Path> files = Files.list(secrets)) {
      for (Path yaml : files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList()) {
        String[] namespaceAndName = yaml.getFileName().toString().replaceFirst("\\.yaml$", "").split("\\.", 2);
        java.util.TreeMap<String, String> entries = new java.util.TreeMap<>();
        YAMLMapper.builder().build().readTree(Files.readString(yaml)).properties()
            .forEach(e -> entries.put(e.getKey(), e.getValue().stringValue()));
        builder.secret(TlsSecretData.secretKey(namespaceAndName[0], namespaceAndName[1]), new TlsSecretData(entries));
      }
    }
    return builder.build();
  }

  private static JsonNode toJson(Message message) {
    try {
      return JSON.readTree(PRINTER.print(message));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The config with every file under {@code dir/tls} as the file mode source delivers it ({@code tls/NAME}). */
  static GatewayConfig withTlsFiles(GatewayConfig config, Path dir) throws IOException {
    Path tls = dir.resolve("tls");
    if (!Files.isDirectory(tls)) {
      return config;
    }
    GatewayConfig.Builder builder = config.toBuilder();
    try (Stream<Path> files = Files.list(tls)) {
      for (Path file : files.filter(f -> !f.getFileName().toString().endsWith(".md")).sorted().toList()) {
        builder.secret(TlsSecretData.fileKey("tls/" + file.getFileName()), TlsSecretData.file(Files.readString(file)));
      }
    }
    return builder.build();
  }

  /** {@code [{service: {namespace, name, port}, endpoints: [{address, port}]}]}, if the file exists. */
  static Map<ServiceRef, List<Endpoint>> endpoints(Path file) {
    Map<ServiceRef, List<Endpoint>> endpoints = new LinkedHashMap<>();
    if (!Files.exists(file)) {
      return endpoints;
    }
    try {
      for (JsonNode entry : YAMLMapper.builder().build().readTree(Files.readString(file))) {
        JsonNode service = entry.get("service");
        List<Endpoint> list = new ArrayList<>();
        entry.get("endpoints").forEach(e -> list.add(new Endpoint(e.get("address").stringValue(), e.get("port").intValue())));
        endpoints.put(new ServiceRef(service.get("namespace").stringValue(), service.get("name").stringValue(),
            service.get("port").intValue()), list);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return endpoints;
  }
}
