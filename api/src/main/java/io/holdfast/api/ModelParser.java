package io.holdfast.api;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Turns one document tree (from YAML, JSON or a Kubernetes custom resource) into a model resource. It checks
 * shape only: unknown fields, wrong types, missing required fields, mutually exclusive fields, enum values and
 * duration syntax, each reported with its JSON path. Value rules (ranges, references, regexes) belong to
 * validation. Kubernetes metadata fields Holdfast does not use, and a top-level {@code status}, are accepted and
 * ignored so that resources read back from a cluster parse. Stateless and thread-safe.
 */
public final class ModelParser {

  private static final Set<String> TOP = Set.of("apiVersion", "kind", "metadata", "spec", "status");
  private static final Set<String> METADATA = Set.of("name", "namespace", "labels", "annotations", "generation",
      "resourceVersion", "creationTimestamp", "uid", "managedFields", "finalizers", "ownerReferences",
      "deletionTimestamp", "deletionGracePeriodSeconds", "generateName", "selfLink");
  private static final Set<String> KINDS =
      Set.of(ResourceKey.UPSTREAM, ResourceKey.VIRTUAL_SERVICE, ResourceKey.GATEWAY, ResourceKey.TCP_GATEWAY,
          ResourceKey.ROUTE_TABLE);

  public ParseResult parse(JsonNode document) {
    List<Problem> problems = new ArrayList<>();
    Optional<Fields> top = Fields.of(document, "", problems, TOP);
    if (top.isEmpty()) {
      return new ParseResult.Invalid(Optional.empty(), 0, problems);
    }
    Fields fields = top.get();
    Optional<String> apiVersion = fields.requiredString("apiVersion");
    Optional<String> kind = fields.requiredString("kind");
    Optional<Metadata> metadata = fields.requiredObject("metadata", METADATA).flatMap(ModelParser::metadata);
    Optional<ResourceKey> key = kind.flatMap(k -> metadata.map(m -> m.key(k)));
    long generation = metadata.map(Metadata::generation).orElse(0L);

    boolean supported = true;
    if (apiVersion.isPresent() && !apiVersion.get().equals(GatewayResource.API_VERSION)) {
      fields.problem("apiVersion", Reasons.UNSUPPORTED_API_VERSION,
          "unsupported apiVersion \"" + apiVersion.get() + "\" (expected " + GatewayResource.API_VERSION + ")");
      supported = false;
    }
    if (kind.isPresent() && !KINDS.contains(kind.get())) {
      fields.problem("kind", Reasons.UNSUPPORTED_KIND,
          "unsupported kind \"" + kind.get()
              + "\" (expected one of Gateway, RouteTable, TcpGateway, Upstream, VirtualService)");
      supported = false;
    }
    Optional<GatewayResource> resource = Optional.empty();
    if (supported && kind.isPresent()) {
      Optional<JsonNode> spec = fields.required("spec");
      if (spec.isPresent() && metadata.isPresent()) {
        resource = switch (kind.get()) {
          case ResourceKey.UPSTREAM -> UpstreamSpecParser.parse(metadata.get(), spec.get(), problems);
          case ResourceKey.VIRTUAL_SERVICE -> VirtualServiceSpecParser.parse(metadata.get(), spec.get(), problems);
          case ResourceKey.ROUTE_TABLE -> RouteTableSpecParser.parse(metadata.get(), spec.get(), problems);
          case ResourceKey.TCP_GATEWAY -> TcpGatewaySpecParser.parse(metadata.get(), spec.get(), problems);
          default -> GatewaySpecParser.parse(metadata.get(), spec.get(), problems);
        };
      }
    }
    if (problems.isEmpty() && resource.isPresent()) {
      return new ParseResult.Parsed(resource.get());
    }
    return new ParseResult.Invalid(key, generation, problems);
  }

  private static Optional<Metadata> metadata(Fields fields) {
    Optional<String> name = fields.requiredString("name");
    String namespace = fields.string("namespace").orElse(Metadata.DEFAULT_NAMESPACE);
    Map<String, String> labels = fields.stringMap("labels").orElse(Map.of());
    fields.stringMap("annotations");
    long generation = fields.longInteger("generation").orElse(0L);
    String resourceVersion = fields.string("resourceVersion").orElse("");
    Optional<Instant> created = fields.string("creationTimestamp").flatMap(text -> {
      try {
        return Optional.of(Instant.parse(text));
      } catch (DateTimeParseException e) {
        fields.problem(fields.path("creationTimestamp"), Reasons.INVALID_VALUE,
            "invalid timestamp \"" + text + "\" (expected RFC 3339, e.g. 2026-01-31T12:00:00Z)");
        return Optional.empty();
      }
    });
    // The key must be known even when other metadata fields are wrong, so only the name decides.
    return name.map(n -> new Metadata(n, namespace, labels, generation, resourceVersion, created));
  }
}
