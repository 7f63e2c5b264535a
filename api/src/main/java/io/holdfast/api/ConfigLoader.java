package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import java.util.stream.Collectors;

/**
 * Reads manifest texts into one {@link GatewayConfig}: {@link ManifestReader} splits each text into documents,
 * {@link ModelParser} parses each document. A document that fails to parse but names its resource becomes an
 * {@link UnparsedResource} (validation reports it per resource); problems without any resource to attach to
 * (YAML syntax, non-mapping documents, no kind or name) are returned as {@link ManifestError}s. Kubernetes
 * Services, EndpointSlices, Pods (their labels, for kube Upstreams' selectors) and TLS and Opaque Secrets among
 * the documents become endpoints and secrets
 * ({@link ClusterDocuments}), so Gateway API objects resolve their backends and certificates. Nothing is
 * all-or-nothing: every readable resource is in the config. Thread-safe.
 */
public final class ConfigLoader {

  private final ManifestReader reader = new ManifestReader();
  private final ModelParser parser = new ModelParser();
  private final UnknownKinds unknownKinds;

  /** What to do with a document of a kind Holdfast does not read (a Deployment, a CRD, a ConfigMap). */
  public enum UnknownKinds {
    /** Rejected as an unsupported kind, as the server does: a typo in Holdfast's group looks the same. */
    REJECT,
    /** Left out of the config, and listed ({@link Loaded#unknownKinds()}): a GitOps directory holds such kinds. */
    SKIP
  }

  /** Rejects documents of kinds Holdfast does not read, as the server does. */
  public ConfigLoader() {
    this(UnknownKinds.REJECT);
  }

  public ConfigLoader(UnknownKinds unknownKinds) {
    this.unknownKinds = Objects.requireNonNull(unknownKinds, "unknownKinds");
  }

  /** What this loader does with documents of kinds Holdfast does not read. */
  public UnknownKinds unknownKinds() {
    return unknownKinds;
  }

  /**
   * A document of a kind Holdfast does not read: its API group is neither Holdfast's nor the Gateway API's, and
   * it is none of the core kinds a directory stands in for the cluster with (Services, EndpointSlices, Pods, TLS
   * and Opaque Secrets, Namespaces). A document in Holdfast's group with an unknown kind is not one: it is a typo to
   * report.
   *
   * @param key the object it names, if it names one
   */
  public record UnknownKind(Location at, String apiVersion, String kind, Optional<ResourceKey> key) {
    public UnknownKind {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(apiVersion, "apiVersion");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(key, "key");
    }
  }

  /** One manifest text and the name it is reported under (a file path, a ConfigMap key). */
  public record Source(String name, String text) {
    public Source {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * Where a resource's document starts: its source's name and the document's first content line (1-based), and
   * where its fields are.
   */
  public record Location(String source, int line, FieldPositions fields) {
    public Location {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(fields, "fields");
    }

    /** A location whose fields are all reported at {@code line}. */
    public Location(String source, int line) {
      this(source, line, FieldPositions.unknown(line));
    }
  }

  /**
   * @param locations where each resource named by a document (parsed or not) was read, in source order; a key
   *                  given twice has two locations
   * @param unknownKinds the documents of kinds Holdfast does not read, in source order: left out of the config
   *                  with {@link UnknownKinds#SKIP}, in it (rejected) with {@link UnknownKinds#REJECT}
   */
  public record Loaded(GatewayConfig config, List<ManifestError> errors, Map<ResourceKey, List<Location>> locations,
      List<UnknownKind> unknownKinds) {
    public Loaded(GatewayConfig config, List<ManifestError> errors, Map<ResourceKey, List<Location>> locations) {
      this(config, errors, locations, List.of());
    }

    public Loaded {
      Objects.requireNonNull(config, "config");
      errors = List.copyOf(errors);
      unknownKinds = List.copyOf(unknownKinds);
      Map<ResourceKey, List<Location>> copy = new java.util.TreeMap<>();
      locations.forEach((key, list) -> copy.put(key, List.copyOf(list)));
      locations = java.util.Collections.unmodifiableMap(copy);
    }

    /** The locations of {@code key}, empty if no document named it. */
    public List<Location> locationsOf(ResourceKey key) {
      return locations.getOrDefault(key, List.of());
    }
  }

  /**
   * Forgets what was read from every source not named in {@code sources}: a long-lived loader is told which
   * sources still exist, so a deleted file's parse is not kept (see {@link ManifestReader#retainOnly}).
   */
  public void retainOnly(java.util.Collection<String> sources) {
    reader.retainOnly(sources);
  }

  public Loaded load(List<Source> sources, Map<ServiceRef, List<Endpoint>> serviceEndpoints) {
    GatewayConfig.Builder config = GatewayConfig.builder();
    ClusterDocuments cluster = new ClusterDocuments();
    List<ManifestError> errors = new ArrayList<>();
    Map<ResourceKey, List<Location>> locations = new java.util.TreeMap<>();
    List<UnknownKind> unknown = new ArrayList<>();
    List<ServiceRef> selections = new ArrayList<>(); // kube Upstreams' references; the narrowed ones need pod labels
    List<ApiObject> foreignObjects = new ArrayList<>(); // for the routes' subset choices of Gloo Upstreams
    for (Source source : sources) {
      ManifestReader.Result read = reader.read(source.name(), source.text());
      errors.addAll(read.errors());
      for (ManifestDocument document : read.documents()) {
        Location location = new Location(source.name(), document.line(), document.positions());
        if (cluster.offer(document.tree())) {
          continue; // a Service, EndpointSlice, Pod or TLS/Opaque Secret: resolved below, as a cluster would
        }
        Optional<ApiObject> foreign = foreignObject(document.tree());
        if (foreign.isPresent()) {
          locations.computeIfAbsent(foreign.get().key(), k -> new ArrayList<>()).add(location);
          config.add(foreign.get());
          GlooUpstreams.kubeService(foreign.get()).ifPresent(selections::add);
          foreignObjects.add(foreign.get());
          continue;
        }
        Optional<UnknownKind> unknownKind = unknownKind(document.tree(), location);
        unknownKind.ifPresent(unknown::add);
        if (unknownKind.isPresent() && unknownKinds == UnknownKinds.SKIP) {
          continue;
        }
        ParseResult result = parser.parse(document.tree());
        if (result instanceof ParseResult.Parsed parsed) {
          locations.computeIfAbsent(parsed.resource().key(), k -> new ArrayList<>()).add(location);
          config.add(parsed.resource());
          if (parsed.resource() instanceof Upstream upstream && upstream.target() instanceof UpstreamTarget.Kube kube) {
            selections.add(kube.service(upstream.metadata().namespace()));
          }
        } else if (result instanceof ParseResult.Invalid invalid) {
          Optional<UnparsedResource> unparsed = invalid.toUnparsed();
          if (unparsed.isPresent()) {
            locations.computeIfAbsent(unparsed.get().key(), k -> new ArrayList<>()).add(location);
            config.addUnparsed(unparsed.get());
          } else {
            // At the first problem's field (a missing name is reported at metadata), not the document's start.
            FieldPositions.Position at = invalid.problems().isEmpty() ? document.positions().start()
                : document.positions().of(invalid.problems().get(0).field());
            errors.add(new ManifestError(source.name(), at.line(), at.column(), "document " + document.index()
                + " is not a usable resource: " + invalid.problems().stream().map(Problem::toString)
                .collect(Collectors.joining("; "))));
          }
        }
      }
    }
    selections.addAll(GlooUpstreams.subsetServices(foreignObjects));
    cluster.serviceEndpoints().forEach(config::endpoints);
    cluster.selectedEndpoints(selections).forEach(config::endpoints);
    serviceEndpoints.forEach(config::endpoints); // given ones win over the directory's
    cluster.secrets().forEach(config::secret);
    return new Loaded(config.build(), errors, locations, unknown);
  }

  /** The document as an {@link UnknownKind}, if it is one; called for documents no other reader took. */
  private static Optional<UnknownKind> unknownKind(JsonNode tree, Location at) {
    String apiVersion = tree.path("apiVersion").asString("");
    String kind = tree.path("kind").asString("");
    if (apiVersion.isEmpty() || kind.isEmpty()) {
      return Optional.empty(); // says nothing of what it is: reported as a document missing fields
    }
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? ResourceKey.CORE_GROUP : apiVersion.substring(0, slash);
    if (group.equals(ResourceKey.HOLDFAST_GROUP) || group.equals(GATEWAY_API_GROUP)) {
      return Optional.empty();
    }
    String name = tree.path("metadata").path("name").asString("");
    String namespace = tree.path("metadata").path("namespace").asString("");
    Optional<ResourceKey> key = name.isEmpty() ? Optional.empty()
        : Optional.of(new ResourceKey(group, kind, namespace, name));
    return Optional.of(new UnknownKind(at, apiVersion, kind, key));
  }

  /** The API group of the Kubernetes Gateway API, whose objects its own front end parses. */
  public static final String GATEWAY_API_GROUP = "gateway.networking.k8s.io";

  /**
   * The API groups of Gloo Edge's kinds, which the Gloo front end reads (any version; it rejects other ones):
   * also Gloo Enterprise's AuthConfig and the rate limiter's RateLimitConfig, which Gloo's options reference.
   */
  public static final List<String> GLOO_GROUPS = List.of("gateway.solo.io", "gloo.solo.io",
      "enterprise.gloo.solo.io", "ratelimit.solo.io");

  /**
   * A document of another config API, carried as it is for that API's front end: any kind of the Gateway API's
   * group, Holdfast's policy kinds for it ({@link PolicyKinds}), Gloo Edge's groups ({@link #GLOO_GROUPS}), and
   * core Namespaces (whose labels Gateway listeners select routes by). Empty for everything else,
   * Holdfast's kinds included. A document without a name is left to the Holdfast parser, which reports it.
   */
  static Optional<ApiObject> foreignObject(JsonNode tree) {
    if (!(tree instanceof tools.jackson.databind.node.ObjectNode object)) {
      return Optional.empty();
    }
    String apiVersion = object.path("apiVersion").asString("");
    String kind = object.path("kind").asString("");
    String name = object.path("metadata").path("name").asString("");
    boolean gatewayApi = apiVersion.startsWith(GATEWAY_API_GROUP + "/");
    boolean namespace = apiVersion.equals("v1") && kind.equals("Namespace");
    boolean policy = PolicyKinds.isPolicy(apiVersion, kind);
    Optional<String> gloo = GLOO_GROUPS.stream().filter(g -> apiVersion.startsWith(g + "/")).findFirst();
    if (!(gatewayApi || namespace || policy || gloo.isPresent()) || kind.isEmpty() || name.isEmpty()) {
      return Optional.empty();
    }
    // Namespaces and GatewayClasses are cluster-scoped: their key has no namespace, as the API server's has none.
    boolean clusterScoped = namespace || kind.equals("GatewayClass");
    String ns = clusterScoped ? "" : object.path("metadata").path("namespace").asString(Metadata.DEFAULT_NAMESPACE);
    long generation = object.path("metadata").path("generation").asLong(1);
    String group = gatewayApi ? GATEWAY_API_GROUP : policy ? PolicyKinds.GROUP : gloo.orElse(ResourceKey.CORE_GROUP);
    return Optional.of(new ApiObject(new ResourceKey(group, kind, ns, name), generation, object));
  }
}
