package io.holdfast.frontend.gloo;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.ApiObject;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.RouteAction;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.Upstream;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import io.holdfast.frontend.gloo.GatewayReader.Read;
import io.holdfast.ir.Finding;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One build's reading of every Gloo object in a config: each object either becomes the Holdfast resource it reads
 * as (in {@link #holdfastConfig()}, keyed as Holdfast's kinds are) or is rejected with the findings that say why
 * ({@link #rejected()}). Gloo's cross-object rules are settled here, before Holdfast's validation sees anything:
 * which VirtualServices each Gateway serves (every namespace unless {@code virtualServiceNamespaces} narrows it,
 * only those with an {@code sslConfig} on an {@code ssl} Gateway and only those without one elsewhere), and what
 * an {@code upstreamGroup} destination splits to. Never throws: a failure reading one object rejects that object.
 */
final class GlooReading {

  /** The kinds read, by the Holdfast kind they become; anything else in Gloo's groups is rejected. */
  private final GatewayConfig input;
  private final Map<ResourceKey, ResourceKey> toGloo = new TreeMap<>();
  private final Map<ResourceKey, List<Finding>> rejected = new TreeMap<>();
  private final Map<ResourceKey, List<Finding>> warnings = new TreeMap<>();
  private final OptionObjects hostOptions = new OptionObjects();
  private final OptionObjects routeOptions = new OptionObjects();
  private final Map<ResourceKey, ApiObject> objects = new TreeMap<>();
  private final Map<ResourceKey, Optional<RouteAction.Split>> groups = new TreeMap<>();
  private final Destinations destinations = new Destinations();
  /** IR keys of the Upstreams of accepted Gateways' OpenTelemetry collectors ({@link OtelCollectors}). */
  private final Map<ResourceKey, ResourceKey> collectorKeys = new TreeMap<>();
  private final GatewayConfig.Builder out = GatewayConfig.builder();
  /** Settings, AuthConfigs and RateLimitConfigs as read, for the options that name them. */
  private EdgePolicies.Context edge;

  /** The Holdfast keys of the Upstreams read without error, which {@code forwardSniClusterName} may reach. */
  private final Set<ResourceKey> readUpstreams = new TreeSet<>();
  private final AccessPolicy.CrossNamespaceRefs crossNamespaceRefs;

  private GlooReading(GatewayConfig input, AccessPolicy.CrossNamespaceRefs crossNamespaceRefs) {
    this.input = input;
    this.crossNamespaceRefs = crossNamespaceRefs;
  }

  /** Read under the file defaults' cross-namespace setting. */
  static GlooReading of(GatewayConfig input) {
    return of(input, AccessPolicy.FILE_DEFAULTS.crossNamespaceRefs());
  }

  /** @param crossNamespaceRefs which Upstreams of other namespaces a generated reference may name */
  static GlooReading of(GatewayConfig input, AccessPolicy.CrossNamespaceRefs crossNamespaceRefs) {
    GlooReading reading = new GlooReading(input, crossNamespaceRefs);
    reading.readAll();
    return reading;
  }

  /** The Holdfast form of every Gloo object read without error, plus the endpoints and secrets of the input. */
  GatewayConfig holdfastConfig() {
    return out.build();
  }

  /** Holdfast key of each resource in {@link #holdfastConfig()} to the key its IR elements and status carry. */
  Map<ResourceKey, ResourceKey> irKeys() {
    Map<ResourceKey, ResourceKey> all = new TreeMap<>(toGloo);
    all.putAll(destinations.irKeys());
    all.putAll(collectorKeys);
    return all;
  }

  /** The Gloo objects rejected while reading, with why. */
  Map<ResourceKey, List<Finding>> rejected() {
    return rejected;
  }

  /** The warnings found while reading objects that are served, to add to their statuses. */
  Map<ResourceKey, List<Finding>> warnings() {
    return warnings;
  }

  /** Every Gloo object of the input by key. */
  Map<ResourceKey, ApiObject> objects() {
    return objects;
  }

  private void readAll() {
    input.serviceEndpoints().forEach(out::endpoints);
    input.secrets().forEach(out::secret);
    List<ApiObject> gateways = new ArrayList<>();
    List<ApiObject> virtualServices = new ArrayList<>();
    List<ApiObject> routeTables = new ArrayList<>();
    List<ApiObject> upstreams = new ArrayList<>();
    List<ApiObject> upstreamGroups = new ArrayList<>();
    List<ApiObject> options = new ArrayList<>();
    List<ApiObject> edgeObjects = new ArrayList<>(); // Settings, AuthConfig, RateLimitConfig
    for (ApiObject object : input.apiObjects()) {
      if (!GlooKinds.isGloo(object.key())) {
        continue;
      }
      objects.put(object.key(), object);
      String apiVersion = object.at("/apiVersion").asString("");
      String kind = object.key().kind();
      List<ApiObject> bucket = switch (kind) {
        case GlooKinds.GATEWAY -> gateways;
        case GlooKinds.VIRTUAL_SERVICE -> virtualServices;
        case GlooKinds.ROUTE_TABLE -> routeTables;
        case GlooKinds.UPSTREAM -> upstreams;
        case GlooKinds.UPSTREAM_GROUP -> upstreamGroups;
        case GlooKinds.VIRTUAL_HOST_OPTION, GlooKinds.ROUTE_OPTION -> options;
        case GlooKinds.SETTINGS, GlooKinds.AUTH_CONFIG, GlooKinds.RATE_LIMIT_CONFIG -> edgeObjects;
        default -> null;
      };
      boolean groupOk = GlooKinds.isRead(object.key().group(), kind);
      if (GlooListenerOptions.isOptionKind(object.key())) {
        GlooListenerOptions.OptionKindRejection why = GlooListenerOptions.rejectOptionKind(object);
        reject(object, why.field(), GlooFeatures.UNSUPPORTED, why.message());
      } else if (bucket == null || !groupOk) {
        reject(object, "kind", GlooFeatures.UNSUPPORTED, "Gloo's " + kind + " kind is not read by Holdfast (read: "
            + "Gateway, VirtualService, RouteTable, VirtualHostOption, RouteOption, Upstream, UpstreamGroup,"
            + " Settings, AuthConfig, RateLimitConfig)");
      } else if (!GlooKinds.isGlooApiVersion(apiVersion)) {
        reject(object, "apiVersion", Reasons.UNSUPPORTED_API_VERSION, "apiVersion " + apiVersion
            + " is not read (expected " + object.key().group() + "/" + GlooKinds.VERSION + ")");
      } else {
        bucket.add(object);
      }
    }
    // In dependency order: what routes name (groups) before the routes, VirtualServices before Gateways.
    edge = EdgeObjects.read(edgeObjects, destinations, this::guarded, rejected, warnings);
    options.forEach(o -> guarded(o, () -> readOptions(o)));
    // Upstreams before groups: a group's destination may choose a subset of an Upstream (Destinations#subset).
    upstreams.forEach(o -> guarded(o, () -> readUpstream(o)));
    upstreamGroups.forEach(o -> guarded(o, () -> readUpstreamGroup(o)));
    routeTables.forEach(o -> guarded(o, () -> readRouteTable(o)));
    Map<ResourceKey, VirtualService> served = new TreeMap<>();
    virtualServices.forEach(o -> guarded(o, () -> readVirtualService(o).ifPresent(vs -> served.put(vs.key(), vs))));
    gateways.forEach(o -> guarded(o, () -> readGateway(o, served)));
    destinations.upstreams().values().forEach(out::add);
  }

  /** Runs one object's reading; a failure of Holdfast itself on it rejects that object only. */
  private void guarded(ApiObject object, Runnable read) {
    try {
      read.run();
    } catch (RuntimeException e) {
      reject(object, "", Reasons.INTERNAL_ERROR, "Holdfast could not read this object (" + e
          + "); this is a bug in Holdfast, please report it");
    }
  }

  private void reject(ApiObject object, String field, String reason, String message) {
    rejected.computeIfAbsent(object.key(), k -> new ArrayList<>())
        .add(new Finding(Finding.Severity.ERROR, field, reason, message));
  }

  /** Findings collected while reading {@code object}; the object is rejected if any is an error. */
  private boolean accept(ApiObject object, List<Finding> findings, GatewayResource resource) {
    return accept(object, findings, List.of(resource));
  }

  /** As {@link #accept(ApiObject, List, GatewayResource)} for an object read as several resources: all or none. */
  private boolean accept(ApiObject object, List<Finding> findings, List<GatewayResource> resources) {
    if (findings.stream().anyMatch(f -> f.severity() == Finding.Severity.ERROR)) {
      rejected.computeIfAbsent(object.key(), k -> new ArrayList<>()).addAll(findings);
      return false;
    }
    if (!findings.isEmpty()) {
      warnings.put(object.key(), List.copyOf(findings));
    }
    for (GatewayResource resource : resources) {
      toGloo.put(resource.key(), object.key());
      out.add(resource);
    }
    return true;
  }

  private GlooRoutes routes(ApiObject object) {
    return routes(object, edge(object, false));
  }

  private GlooRoutes routes(ApiObject object, EdgePolicies policies) {
    return new GlooRoutes(object.key().namespace(), destinations, this::split, routeOptions, this::selectTables,
        policies);
  }

  private EdgePolicies edge(ApiObject object, boolean virtualService) {
    return new EdgePolicies(edge, object.key().namespace(), virtualService);
  }

  /** The refusals of an object served with refusing routes: errors on its status (see {@link EdgePolicies}). */
  private void refusals(ApiObject object, EdgePolicies policies) {
    if (!policies.refusals().isEmpty() && !rejected.containsKey(object.key())) {
      List<Finding> all = new ArrayList<>(warnings.getOrDefault(object.key(), List.of()));
      all.addAll(policies.refusals());
      warnings.put(object.key(), all);
    }
  }

  /** Gloo's RouteTables picked by a selector with expressions, in Holdfast's selector order (weight, then key). */
  private List<ObjectRef> selectTables(String owner, List<String> namespaces, Map<String, String> labels,
      LabelExpressions expressions) {
    record Pick(int weight, ResourceKey key) {
    }
    List<Pick> picks = new ArrayList<>();
    for (ApiObject table : objects.values()) {
      ResourceKey key = table.key();
      if (!key.group().equals(GlooKinds.GATEWAY_GROUP) || !key.kind().equals(GlooKinds.ROUTE_TABLE)) {
        continue;
      }
      boolean inNamespace = namespaces.isEmpty() ? key.namespace().equals(owner)
          : namespaces.contains("*") || namespaces.contains(key.namespace());
      Map<String, String> tableLabels = new HashMap<>();
      table.at("/metadata/labels").properties().forEach(e -> tableLabels.put(e.getKey(), e.getValue().asString()));
      if (inNamespace && tableLabels.entrySet().containsAll(labels.entrySet()) && expressions.matches(tableLabels)) {
        picks.add(new Pick(table.at("/spec/weight").asInt(0), key));
      }
    }
    picks.sort(java.util.Comparator.comparingInt(Pick::weight).thenComparing(p -> new ResourceKey(
        ResourceKey.ROUTE_TABLE, p.key().namespace(), p.key().name())));
    return picks.stream().map(p -> ObjectRef.of(p.key().namespace(), p.key().name())).toList();
  }

  private Optional<RouteAction.Split> split(ResourceKey group, Node at) {
    Optional<RouteAction.Split> split = groups.get(group);
    if (split == null || split.isEmpty()) {
      at.error(at.path, split == null ? Reasons.MISSING_FIELD : Reasons.INVALID_VALUE, "UpstreamGroup "
          + group.namespace() + "/" + group.name() + (split == null ? " does not exist" : " is rejected"));
      return Optional.empty();
    }
    return split;
  }

  /**
   * A VirtualHostOption or RouteOption: its {@code options} are read as they would be in place, so the object's own
   * status says whether they can be honoured; referrers merge them ({@link OptionObjects}).
   */
  private void readOptions(ApiObject object) {
    List<Finding> findings = new ArrayList<>();
    metadata(object, findings);
    Node spec = spec(object, findings);
    spec.only(object.key().kind(), java.util.Set.of("options"));
    Node options = spec.child("options");
    boolean host = object.key().kind().equals(GlooKinds.VIRTUAL_HOST_OPTION);
    if (host) {
      VirtualServiceReader.hostOptions(options);
    } else {
      GlooRoutes routes = routes(object);
      routes.providersResolvedWhereUsed();
      routes.options(options);
    }
    // Checks extauth and rate limits as written (as for a VirtualService; a RouteTable referrer checks its own
    // limits again); referrers resolve the references.
    edge(object, true).read(options, !host);
    boolean ok = findings.stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR);
    (host ? hostOptions : routeOptions).put(object.key(), ok && options.json.isObject()
        ? Optional.of(options.json) : Optional.empty());
    if (!ok) {
      rejected.computeIfAbsent(object.key(), k -> new ArrayList<>()).addAll(findings);
    } else if (!options.json.isObject()) {
      rejected.computeIfAbsent(object.key(), k -> new ArrayList<>()).add(new Finding(Finding.Severity.ERROR,
          "spec.options", Reasons.MISSING_FIELD, "spec.options is required"));
    }
  }

  private void readUpstreamGroup(ApiObject object) {
    List<Finding> findings = new ArrayList<>();
    Node spec = spec(object, findings);
    spec.only("UpstreamGroup", java.util.Set.of("destinations"));
    GlooRoutes routes = routes(object);
    List<RouteAction.WeightedTarget> targets = new ArrayList<>();
    for (Node weighted : spec.list("destinations")) {
      weighted.only("weighted destination", java.util.Set.of("destination", "weight"));
      int weight = weighted.integer("weight").orElse(0);
      routes.destination(weighted.child("destination"))
          .ifPresent(ref -> targets.add(new RouteAction.WeightedTarget(ref, weight)));
    }
    if (targets.isEmpty()) {
      findings.add(new Finding(Finding.Severity.ERROR, "spec.destinations", Reasons.MISSING_FIELD,
          "an UpstreamGroup needs at least one destination"));
    }
    groups.put(object.key(), findings.isEmpty() ? Optional.of(new RouteAction.Split(targets)) : Optional.empty());
    if (!findings.isEmpty()) {
      rejected.computeIfAbsent(object.key(), k -> new ArrayList<>()).addAll(findings);
    }
  }

  private void readUpstream(ApiObject object) {
    List<Finding> findings = new ArrayList<>();
    Metadata metadata = metadata(object, findings);
    if (metadata.name().startsWith(Destinations.PREFIX) || metadata.name().startsWith(Destinations.AUTHZ_PREFIX)
        || metadata.name().startsWith(Destinations.SUBSET_PREFIX)) {
      findings.add(new Finding(Finding.Severity.ERROR, "metadata.name", Reasons.INVALID_NAME, "names starting with "
          + Destinations.PREFIX + ", " + Destinations.AUTHZ_PREFIX + " or " + Destinations.SUBSET_PREFIX
          + " are Holdfast's, for the Upstreams of routes' kube destinations, pass-through authorisation servers"
          + " and routes' subsets"));
    }
    if (metadata.name().startsWith(OtelCollectors.PREFIX)) {
      findings.add(new Finding(Finding.Severity.ERROR, "metadata.name", Reasons.INVALID_NAME, "names starting with "
          + OtelCollectors.PREFIX + " are Holdfast's, for the Upstreams of Gateways' OpenTelemetry collectors"));
    }
    Node spec = spec(object, findings);
    Upstream upstream = UpstreamReader.read(metadata, spec, input);
    if (accept(object, findings, upstream)) {
      readUpstreams.add(upstream.key());
      // Read once more only for the subsets routes may choose: the object is accepted, so this finds no error.
      destinations.subsets(upstream, UpstreamReader.subsetSelectors(
          new Node(object.bodyCopy().path("spec").path("kube"), "spec.kube", new ArrayList<>())));
    }
  }

  private void readRouteTable(ApiObject object) {
    List<Finding> findings = new ArrayList<>();
    Metadata metadata = metadata(object, findings);
    EdgePolicies policies = edge(object, false);
    if (accept(object, findings, VirtualServiceReader.routeTable(metadata, spec(object, findings),
        routes(object, policies)))) {
      refusals(object, policies);
    }
  }

  private Optional<VirtualService> readVirtualService(ApiObject object) {
    List<Finding> findings = new ArrayList<>();
    Metadata metadata = metadata(object, findings);
    EdgePolicies policies = edge(object, true);
    VirtualService vs = VirtualServiceReader.virtualService(metadata, spec(object, findings),
        routes(object, policies), input, hostOptions, policies);
    if (!accept(object, findings, vs)) {
      return Optional.empty();
    }
    refusals(object, policies);
    policies.commit();
    return Optional.of(vs);
  }

  private void readGateway(ApiObject object, Map<ResourceKey, VirtualService> served) {
    List<Finding> findings = new ArrayList<>();
    Metadata metadata = metadata(object, findings);
    GatewayReader.Read read = GatewayReader.read(metadata, spec(object, findings), routes(object), input,
        new SniClusters(readUpstreams, crossNamespaceRefs, input));
    Optional<TcpGateway> tcp = read.tcpHosts().map(hosts -> new TcpGateway(metadata, read.bindAddress(),
        read.port(), hosts, read.proxyNames()));
    if (tcp.isPresent() && read.matched().isEmpty()) {
      accept(object, findings, tcp.get());
      return;
    }
    List<Read> parts = read.matched().isEmpty() ? List.of(read) : read.matched();
    // A hybridGateway's matched tcpGateways beside its httpGateways: one more resource sharing the socket.
    List<GatewayResource> gateways = new ArrayList<>(tcp.stream().toList());
    for (int i = 0; i < parts.size(); i++) {
      Read part = parts.get(i);
      List<VirtualService> selected = served.values().stream().filter(vs -> selects(part, vs)).toList();
      part.sslDefaults().ifPresent(defaults -> sslDefaultsApplied(defaults, selected));
      Metadata partMetadata = read.matched().isEmpty() ? metadata : matchedMetadata(metadata, i, findings);
      Gateway gateway = new Gateway(partMetadata, part.bindAddress(), part.port(),
          new VirtualServiceSelection.Named(selected.stream()
              .map(vs -> ObjectRef.of(vs.metadata().namespace(), vs.metadata().name())).toList()), part.ssl(),
          part.proxyNames(), part.options()).withSourcePrefixRanges(part.sourcePrefixRanges());
      // What Gloo's Settings add to every HTTP listener (rate-limit server, ext_proc, grpc_web).
      gateways.add(EdgeObjects.withGrpcWeb(EdgeObjects.withExtProc(EdgeObjects.withRateLimitServer(gateway,
          edge.settings()), edge.settings()), edge.settings()));
    }
    if (accept(object, findings, gateways)) {
      read.collectors().upstreams().forEach(out::add);
      collectorKeys.putAll(read.collectors().irKeys());
    }
  }

  /** The field groups of a Gloo sslConfig that merge as one (the certificate source is a oneof). */
  private static final Set<String> CERTIFICATE_SOURCE = Set.of("secretRef", "sslFiles", "sds");

  /**
   * Gloo merges a matcher's sslConfig into each served VirtualService's sslConfig as defaults (the VirtualService's
   * own fields win). Holdfast serves each VirtualService's own sslConfig, which is the same exactly when every field
   * the matcher sets is set by each VirtualService too; a default that would apply is refused, naming it.
   */
  private void sslDefaultsApplied(Node defaults, List<VirtualService> selected) {
    for (VirtualService vs : selected) { // bounded by the VirtualServices read
      ResourceKey gloo = toGloo.get(vs.key());
      ApiObject source = gloo == null ? null : objects.get(gloo);
      tools.jackson.databind.JsonNode own = source == null ? null : source.at("/spec/sslConfig");
      for (String field : defaults.json.propertyNames()) {
        boolean set = own != null && own.isObject() && (CERTIFICATE_SOURCE.contains(field)
            ? CERTIFICATE_SOURCE.stream().anyMatch(f -> own.has(f) && !own.get(f).isNull())
            : own.has(field) && !own.get(field).isNull());
        if (!set) {
          defaults.error(defaults.at(field), GlooFeatures.UNSUPPORTED, "Gloo would apply this matcher's "
              + field + " to VirtualService " + vs.metadata().namespace() + "/" + vs.metadata().name() + ", whose"
              + " sslConfig sets none; Holdfast serves each VirtualService's own sslConfig, so set " + field
              + " there");
        }
      }
    }
  }

  /**
   * Suffix of the Holdfast Gateway of a hybridGateway's matched httpGateway: {@code <name>-matched-<n>}, numbered
   * among its matched httpGateways from 0 (its matched tcpGateways are the TcpGateway {@code <name>}).
   */
  static final String MATCHED_SUFFIX = "-matched-";

  /** The metadata of a matched httpGateway's Holdfast Gateway; a Gloo Gateway of that very name is refused. */
  private Metadata matchedMetadata(Metadata metadata, int index, List<Finding> findings) {
    String name = metadata.name() + MATCHED_SUFFIX + index;
    if (objects.containsKey(new ResourceKey(GlooKinds.GATEWAY_GROUP, GlooKinds.GATEWAY, metadata.namespace(),
        name))) {
      findings.add(new Finding(Finding.Severity.ERROR, "spec.hybridGateway.matchedGateways",
          Reasons.CONFLICTING_FIELDS, "Holdfast serves this matched httpGateway as Gateway " + name + ", the name"
          + " of another Gloo Gateway in this namespace; rename one of them"));
    }
    return metadata.withName(name);
  }

  /** Gloo's selection: named, or by labels, or all; in the given namespaces (default all); ssl matching ssl. */
  static boolean selects(GatewayReader.Read gateway, VirtualService vs) {
    if (vs.sslConfig().isPresent() != gateway.ssl()) {
      return false; // Gloo serves VirtualServices with sslConfig only on ssl Gateways, and the others only elsewhere
    }
    String gatewayNamespace = gateway.metadata().namespace();
    if (gateway.named().isPresent()) {
      return gateway.named().get().stream().anyMatch(ref -> ref.namespace().orElse(gatewayNamespace)
          .equals(vs.metadata().namespace()) && ref.name().equals(vs.metadata().name()));
    }
    List<String> namespaces = gateway.namespaces();
    boolean inNamespace = namespaces.isEmpty() || namespaces.contains("*")
        || namespaces.contains(vs.metadata().namespace());
    return inNamespace && gateway.selector()
        .map(labels -> vs.metadata().labels().entrySet().containsAll(labels.entrySet())).orElse(true);
  }

  private static Node spec(ApiObject object, List<Finding> findings) {
    // A copy: optionsConfigRefs merge referenced options into it.
    Node spec = new Node(object.bodyCopy().path("spec"), "spec", findings);
    if (!spec.json.isObject()) {
      findings.add(new Finding(Finding.Severity.ERROR, "spec", Reasons.MISSING_FIELD, "spec is required"));
    }
    return spec;
  }

  private static Metadata metadata(ApiObject object, List<Finding> findings) {
    Node metadata = new Node(object.at("/metadata"), "metadata", findings);
    Map<String, String> labels = metadata.stringMap("labels");
    Optional<Instant> created = Optional.empty();
    Optional<String> timestamp = metadata.string("creationTimestamp");
    if (timestamp.isPresent()) {
      try {
        created = Optional.of(Instant.parse(timestamp.get()));
      } catch (DateTimeParseException e) {
        findings.add(new Finding(Finding.Severity.ERROR, "metadata.creationTimestamp", Reasons.INVALID_VALUE,
            "invalid timestamp \"" + timestamp.get() + "\""));
      }
    }
    ResourceKey key = object.key();
    return new Metadata(key.name(), key.namespace(), new HashMap<>(labels), object.generation(),
        metadata.string("resourceVersion").orElse(""), created);
  }
}
