package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.AnyNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.common.Debounce;
import io.holdfast.common.DebounceThread;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway config as the Kubernetes API holds it: Upstream, VirtualService, Gateway, TcpGateway and RouteTable
 * custom resources, the Gateway API's GatewayClasses, Gateways, HTTPRoutes, GRPCRoutes, TLSRoutes, TCPRoutes and ReferenceGrants and the
 * Namespaces (all optional: a cluster without the Gateway API CRDs simply has none), plus the Services and EndpointSlices that kube upstreams resolve to and the Secrets that
 * sslConfigs and Upstream TLS settings name, kept in fabric8 informer caches, and the labels of Pods (nothing else of
 * them: {@link PodLabelStore}) that kube Upstreams' selectors narrow endpoints by.
 *
 * <p>What is read, and where: all namespaces, or only the ones given ({@link Builder#namespaces}), one informer per
 * namespace and kind; then no namespaced kind is ever listed cluster-wide, Namespaces are read one by one by name,
 * and only GatewayClasses (cluster-scoped) are listed cluster-wide. Secrets are read only of the types Holdfast
 * uses ({@link #SECRET_TYPES}), through one informer per type with a {@code type=} field selector, so no other
 * Secret (service account tokens, registry credentials, Helm releases) ever reaches this process's memory.
 *
 * <p>Informer events only mark the view dirty. One rebuild thread waits for a pause in changes
 * ({@link Debounce}: {@code holdOff}, default 100 ms, but at most {@code cap}, default 500 ms, after the first change),
 * rebuilds the whole {@link GatewayConfig} from the caches and hands it to the sink when it differs from the
 * last one: the sink is called on that one thread, in order, never before every informer has listed once.
 * The config carries no resourceVersions (so status writes do not count as changes); {@link #observed()}
 * has them, with generations and uids, for the status writer.
 *
 * <p>Outages never shrink the config: informer caches keep their content while the API is away, and every
 * list and watch failure is retried. A health thread asks the API a cheap question every
 * {@code probeInterval} (bounded by the client's request timeout): the view is stale while some informer is
 * not watching or the API does not answer. A silent network cut leaves a watch looking healthy (the JDK HTTP
 * client sends no WebSocket pings), so when the API answers again after a failed probe, every informer is
 * replaced by one seeded with its cache, which re-lists at once and picks up what changed meanwhile.
 *
 * <p>The caller owns the client (and sets its timeouts); {@link #close()} stops informers and threads only.
 */
public final class KubeConfigSource implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(KubeConfigSource.class);
  static final String SERVICE = "Service";
  static final String ENDPOINT_SLICE = "EndpointSlice";
  static final String SECRET = "Secret";
  static final String NAMESPACE = "Namespace";
  static final String POD = "Pod";
  /**
   * The Secret types read: {@code kubernetes.io/tls} for certificates and keys (sslConfig, Gateway listeners,
   * Upstream client certificates) and {@code Opaque} for CA bundles ({@code ca.crt} of a clientCa or trustedCa
   * Secret, which a CA-only Secret cannot be of the tls type for: that type requires tls.crt and tls.key). A Secret
   * of any other type named by a resource is reported as not found.
   */
  public static final List<String> SECRET_TYPES = List.of("kubernetes.io/tls", "Opaque");
  /**
   * Most namespaces one source watches one by one. Reason: each opens one watch per namespaced kind (16 today), so
   * 32 namespaces hold 512 watches on the API server; past that, watching all namespaces costs less.
   */
  public static final int MAX_NAMESPACES = 32;
  /** See {@link Builder#secretLookupTime}: within the webhook's default 5 s check budget, with room for the check. */
  public static final Duration DEFAULT_SECRET_LOOKUP_TIME = Duration.ofSeconds(2);
  private static final String BY_SERVICE = "byService";
  /**
   * Pods per list page. Reason: Pods are the one kind read whose list is the size of the cluster's workload; a page
   * is parsed whole before the store keeps only labels, so paging bounds that transient memory (500: client-go's
   * default page size).
   */
  private static final long POD_LIST_PAGE = 500;
  /**
   * Kinds without which nothing is served: Holdfast's first three. A kind added later is optional (see
   * {@link InformerSlot}): a cluster upgraded without its CRD still gets the rest of its config.
   */
  private static final java.util.Set<ResourceDefinitionContext> REQUIRED =
      java.util.Set.of(GatewayCrds.UPSTREAM, GatewayCrds.VIRTUAL_SERVICE, GatewayCrds.GATEWAY);

  private final KubernetesClient client;
  private final List<String> watched; // namespaces; empty: all
  private final Consumer<GatewayConfig> sink;
  private final Debounce.Timing debounce;
  private final Duration probeInterval;
  private final Clock clock;
  private final KubeSourceMetrics metrics;
  private final Map<ResourceDefinitionContext, InformerSlot<GenericKubernetesResource>> customs =
      new LinkedHashMap<>();
  private final InformerSlot<Service> services;
  private final InformerSlot<EndpointSlice> slices;
  private final InformerSlot<Secret> secrets;
  private final InformerSlot<Namespace> namespaces;
  private final InformerSlot<Pod> pods;
  private final List<InformerSlot<?>> slots = new ArrayList<>();
  private final DebounceThread debouncer;
  private final ScheduledExecutorService health;
  private final ConfigAssembler assembler;
  private final SecretLookup lookup;
  private final Staleness staleness = new Staleness();
  private final HealthListener healthListener;
  private volatile Instant lastContact;
  private volatile Boolean apiAnswered; // null before the first probe
  private volatile Map<ResourceKey, ObservedObject> observed = Map.of();
  private GatewayConfig lastPushed; // rebuild thread only
  private boolean probeFailed; // health thread only
  private boolean started;
  private boolean closed;

  private KubeConfigSource(Builder b) {
    client = b.client;
    watched = b.namespaces;
    sink = b.sink;
    debounce = b.debounce;
    probeInterval = b.probeInterval;
    clock = b.clock;
    healthListener = b.healthListener;
    metrics = new KubeSourceMetrics(b.registry);
    assembler = new ConfigAssembler(client.getKubernetesSerialization());
    lookup = new SecretLookup(client, watched, b.secretLookupTime, System::nanoTime);
    InformerSlot.Listener listener = new InformerSlot.Listener() {
      @Override
      public void changed(String kind) {
        lastContact = clock.instant();
        debouncer.mark();
      }

      @Override
      public void failed(String kind, Throwable error) {
        metrics.failed(kind);
        log.debug("informer list or watch failed, retrying kind={} error={}", kind, error.toString());
      }
    };
    for (ResourceDefinitionContext kind : GatewayCrds.ALL) {
      customs.put(kind, new InformerSlot<>(kind.getKind(), !REQUIRED.contains(kind),
          perNamespace(ns -> in(client.genericKubernetesResources(kind), ns).runnableInformer(0)), listener));
    }
    // The Gateway API's kinds: optional, as the user installs their CRDs (and a cluster may have none). GatewayClass
    // is cluster-scoped, so it is listed cluster-wide even when namespaces are given.
    for (ResourceDefinitionContext kind : GatewayCrds.GATEWAY_API) {
      customs.put(kind, new InformerSlot<>(kind.getKind(), true, Boolean.TRUE.equals(kind.isNamespaceScoped())
          ? perNamespace(ns -> in(client.genericKubernetesResources(kind), ns).runnableInformer(0))
          : List.of(() -> client.genericKubernetesResources(kind).runnableInformer(0)), listener));
    }
    // Gloo Edge's kinds: optional, as their CRDs are Gloo's (a cluster moving from Gloo Edge has them).
    for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
      customs.put(kind, new InformerSlot<>(kind.getKind() + "." + kind.getGroup(), true,
          perNamespace(ns -> in(client.genericKubernetesResources(kind), ns).runnableInformer(0)), listener));
    }
    // Holdfast's Gateway API policy kinds: optional too, so an upgrade that has not applied their CRDs yet serves.
    for (ResourceDefinitionContext kind : GatewayCrds.POLICIES) {
      customs.put(kind, new InformerSlot<>(kind.getKind(), true,
          perNamespace(ns -> in(client.genericKubernetesResources(kind), ns).runnableInformer(0)), listener));
    }
    // Namespaces (cluster-scoped) for listeners' allowedRoutes selectors; optional like the Gateway API kinds. With
    // namespaces given, only those are read, each by name: RBAC can then name them (resourceNames).
    namespaces = new InformerSlot<>(NAMESPACE, true, watched.isEmpty()
        ? List.of(() -> client.namespaces().runnableInformer(0))
        : watched.stream().<Supplier<SharedIndexInformer<Namespace>>>map(
            ns -> () -> client.namespaces().withName(ns).runnableInformer(0)).toList(), listener);
    services = new InformerSlot<>(SERVICE, false,
        perNamespace(ns -> in(client.services(), ns).runnableInformer(0)), listener);
    slices = new InformerSlot<>(ENDPOINT_SLICE, false, perNamespace(ns -> in(client.discovery().v1().endpointSlices(),
        ns).runnableInformer(0).addIndexers(Map.of(BY_SERVICE, KubeConfigSource::serviceKeys))), listener);
    // Secrets of the watched namespaces, of the types Holdfast reads only (one informer per type: a field selector
    // takes one value); the assembler copies only the ones an sslConfig, a listener, an Upstream's tls or security
    // options (basic-auth users, key sets) name into the config. Optional (see InformerSlot): an upgrade without the secrets RBAC rule still serves everything
    // else, and its sslConfigs report SecretNotFound until the rule is there.
    List<Supplier<SharedIndexInformer<Secret>>> secretInformers = new ArrayList<>();
    for (String type : SECRET_TYPES) {
      secretInformers.addAll(perNamespace(ns -> in(client.secrets(), ns).withField("type", type)
          .runnableInformer(0)));
    }
    secrets = new InformerSlot<>(SECRET, true, secretInformers, listener);
    // Pods, for kube Upstreams' selectors: only their labels are kept (PodLabelStore), without the namespace index,
    // and only a label change counts as a change (most Pod updates are status writes). Optional: without the pods
    // RBAC rule, everything else is served and selector-bearing Upstreams get no endpoints (PodLabelsUnavailable).
    pods = new InformerSlot<>(POD, true, perNamespace(ns -> in(client.pods(), ns).withLimit(POD_LIST_PAGE)
        .runnableInformer(0).itemStore(new PodLabelStore()).removeNamespaceIndex()), listener,
        (before, after) -> !labelsOf(before).equals(labelsOf(after)));
    slots.addAll(customs.values());
    slots.add(services);
    slots.add(slices);
    slots.add(secrets);
    slots.add(namespaces);
    slots.add(pods);
    slots.forEach(slot -> metrics.watching(slot.kind()));
    debouncer = new DebounceThread("holdfast-kube-rebuild", debounce, System::nanoTime, this::hasSynced, this::rebuild);
    health = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "holdfast-kube-health");
      t.setDaemon(true);
      return t;
    });
    metrics.bindGauges(this::hasSynced, () -> staleness.since().isPresent());
  }

  /** A source reading {@code client}'s cluster into {@code sink}; all namespaces unless some are set. */
  public static Builder builder(KubernetesClient client, Consumer<GatewayConfig> sink) {
    return new Builder(client, sink);
  }

  /** Starts the informers, the rebuild thread and the health checks; returns at once. Idempotent. */
  public synchronized void start() {
    if (started || closed) {
      return;
    }
    started = true;
    debouncer.start();
    slots.forEach(InformerSlot::start);
    health.scheduleWithFixedDelay(this::checkHealth, probeInterval.toMillis(), probeInterval.toMillis(),
        TimeUnit.MILLISECONDS);
    log.info("kube source started namespaces={} holdOff={} cap={} probeInterval={}", describeNamespaces(),
        debounce.holdOff(), debounce.cap(), probeInterval);
  }

  /** True once every informer has listed at least once; stays true through outages. */
  public boolean hasSynced() {
    return slots.stream().allMatch(InformerSlot::hasSynced);
  }

  /**
   * Since when the cached view may be behind the cluster (some informer is not watching, or the API did not
   * answer the last probe); empty before the first sync and while all is well.
   */
  public Optional<Instant> staleSince() {
    return staleness.since();
  }

  /** Whether the API answered the last reachability probe; empty before the first probe. */
  public Optional<Boolean> apiAnswered() {
    return Optional.ofNullable(apiAnswered);
  }

  /** When the API last answered (a probe, a list or an event); empty if it never has. */
  public Optional<Instant> lastContact() {
    return Optional.ofNullable(lastContact);
  }

  /**
   * The metadata of every custom resource in the last rebuild, keyed like the config's resources (parsed or
   * not). Updated before the sink sees the config built with it; immutable.
   */
  public Map<ResourceKey, ObservedObject> observed() {
    return observed;
  }

  /**
   * The custom resource as this source's informer last saw it (spec, status and metadata), or empty if it has not
   * seen it or {@code key} is neither a Holdfast kind nor a Gateway API kind. May lag the API; for writers that want to skip a GET (see
   * {@code StatusWriter.Builder.objectCache}). The caller must not modify the object.
   */
  public Optional<GenericKubernetesResource> cached(ResourceKey key) {
    return GatewayCrds.context(key).map(customs::get).flatMap(slot ->
        slot.byKey(key.namespace().isEmpty() ? key.name() : key.namespace() + "/" + key.name()));
  }

  /**
   * {@code config} with the data of every Secret the object {@code object} names ({@link NamedSecrets}) that the
   * config lacks and this source can read: the Secrets a rebuild would copy in once that object is in the cluster.
   * For the admission webhook, which judges a reviewed object in the pipeline's input plus that object: the input
   * holds only the Secrets something already named, so an object naming an existing Secret nothing named before
   * would otherwise look as if the Secret were missing. Read from the Secret cache; one the cache lacks is asked of
   * the API ({@link SecretLookup}: a Secret applied together with the object may not have reached the cache yet),
   * within {@link Builder#secretLookupTime} and at most {@link SecretLookup#MAX_REQUESTS_PER_CHECK} requests, never
   * when the source's last probe got no answer or its Secrets are not readable; what is not found stays missing.
   * Either way only Secrets this source reads (of the {@link #SECRET_TYPES}, in the watched namespaces) are added,
   * and only to the returned config: the source's caches and its rebuilds never see what a lookup found (the
   * informer delivers it). Whether the object may use one (a ReferenceGrant for another namespace's) stays the front
   * end's verdict. The config's own Secret entries are kept as they are. Bound: one key comparison per object of the
   * config, then one cache lookup per Secret reference of {@code object} (its references are bounded where they are
   * read, {@link GlooRefs#MAX_NODES}), and the lookups' bounds. Thread-safe.
   */
  public GatewayConfig withNamedSecrets(GatewayConfig config, ResourceKey object) {
    GatewayConfig.Builder completed = null;
    SecretLookup.Session lookups = null;
    for (ResourceKey key : NamedSecrets.of(config, object)) {
      if (config.secrets().containsKey(key)) {
        continue;
      }
      Optional<Secret> found = secrets.byKey(key.namespace() + "/" + key.name());
      if (found.isEmpty() && !secrets.isAbsent()) {
        lookups = lookups == null ? lookup.session(!Boolean.FALSE.equals(apiAnswered)) : lookups;
        found = lookups.find(key);
      }
      if (found.isPresent()) {
        completed = completed == null ? config.toBuilder() : completed;
        completed.secret(key, ConfigAssembler.secretData(found.get()));
      }
    }
    return completed == null ? config : completed.build();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    health.shutdownNow();
    try {
      // A probe in flight ends within the client's request timeout; do not wait longer than a moment for it.
      health.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    slots.forEach(InformerSlot::close);
    debouncer.close();
    metrics.close();
    log.info("kube source closed namespaces={}", describeNamespaces());
  }

  private void rebuild() {
    long begin = System.nanoTime();
    ConfigAssembler.Assembled assembled = assembler.assemble(new InformerView());
    observed = assembled.observed();
    GatewayConfig config = assembled.config();
    boolean changed = !config.equals(lastPushed);
    metrics.rebuilt(changed, Duration.ofNanos(System.nanoTime() - begin));
    if (!changed) {
      return;
    }
    lastPushed = config;
    log.info("kube config rebuilt upstreams={} virtualServices={} gateways={} tcpGateways={} routeTables={}"
        + " unparsed={} services={} secrets={} gatewayApiObjects={}", config.upstreams().size(),
        config.virtualServices().size(), config.gateways().size(), config.tcpGateways().size(),
        config.routeTables().size(), config.unparsed().size(), config.serviceEndpoints().size(),
        config.secrets().size(), config.apiObjects().size());
    try {
      sink.accept(config);
    } catch (RuntimeException | Error e) {
      lastPushed = null; // hand the same content over again next time
      if (e instanceof Error error) {
        throw error; // the rebuild thread's guard counts it, and ends the process if it is fatal
      }
      log.error("config sink failed; the next change retries", e);
    }
  }

  private void checkHealth() {
    try {
      boolean answered = probe();
      Instant now = clock.instant();
      if (answered) {
        lastContact = now;
      }
      if (answered && probeFailed) {
        // The API is back; watches opened before the cut may sit on dead connections. Re-list everything.
        log.info("kube API answers again, re-listing every kind lastContact={}", now);
        slots.forEach(InformerSlot::restart);
      }
      probeFailed = !answered;
      apiAnswered = answered;
      List<String> notWatching = slots.stream().filter(s -> !s.isWatching()).map(InformerSlot::kind).toList();
      Optional<Instant> staleBefore = staleness.since();
      switch (staleness.observe(now, hasSynced(), notWatching.isEmpty(), answered)) {
        case BECAME_STALE -> {
          log.warn("kube view is stale, serving the cached config apiAnswers={} notWatching={}",
              answered, notWatching);
          healthListener.onStale(now, answered ? "not watching " + String.join(", ", notWatching)
              : "the API does not answer");
        }
        case RECOVERED -> {
          log.info("kube view is current again: the API answers and every informer watches");
          healthListener.onRecovered(staleBefore.orElse(now), now);
        }
        default -> { }
      }
    } catch (Throwable e) {
      // A scheduled task that throws is never run again: nothing may leave it (a fatal error ends the process).
      log.error("kube health check failed error={}", e.toString());
      io.holdfast.common.WorkerFailures.caught("kube-health", e);
    }
  }

  /** One cheap request through the caller's client: did the API answer at all (even with an error)? */
  private boolean probe() {
    try {
      in(client.genericKubernetesResources(GatewayCrds.UPSTREAM), watched.stream().findFirst())
          .list(new ListOptionsBuilder().withLimit(1L).build());
      return true;
    } catch (KubernetesClientException e) {
      return e.getCode() > 0; // an HTTP status means the API is there; 0 means no answer (timeout, refused)
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** One informer factory per watched namespace ({@code informer} gets it), or one for all namespaces (empty). */
  private <T extends HasMetadata> List<Supplier<SharedIndexInformer<T>>> perNamespace(
      Function<Optional<String>, SharedIndexInformer<T>> informer) {
    if (watched.isEmpty()) {
      return List.of(() -> informer.apply(Optional.empty()));
    }
    return watched.stream().<Supplier<SharedIndexInformer<T>>>map(ns -> () -> informer.apply(Optional.of(ns)))
        .toList();
  }

  private static <T, L, R extends Resource<T>> AnyNamespaceOperation<T, L, R> in(MixedOperation<T, L, R> operation,
      Optional<String> namespace) {
    return namespace.<AnyNamespaceOperation<T, L, R>>map(operation::inNamespace).orElseGet(operation::inAnyNamespace);
  }

  private String describeNamespaces() {
    return watched.isEmpty() ? "*" : String.join(",", watched);
  }

  private static Map<String, String> labelsOf(Pod pod) {
    return pod.getMetadata() == null || pod.getMetadata().getLabels() == null ? Map.of()
        : pod.getMetadata().getLabels();
  }

  private static List<String> serviceKeys(EndpointSlice slice) {
    var meta = slice.getMetadata();
    String service = meta == null || meta.getLabels() == null ? null
        : meta.getLabels().get(EndpointResolver.SERVICE_NAME_LABEL);
    return service == null ? List.of() : List.of(meta.getNamespace() + "/" + service);
  }

  /** The informer caches as the assembler reads them. */
  private final class InformerView implements ClusterView {
    @Override
    public List<GenericKubernetesResource> customResources(ResourceDefinitionContext kind) {
      return customs.get(kind).items();
    }

    @Override
    public Optional<Service> service(String ns, String name) {
      return services.byKey(ns + "/" + name);
    }

    @Override
    public List<EndpointSlice> slicesOf(String ns, String service) {
      return slices.byIndex(BY_SERVICE, ns + "/" + service);
    }

    @Override
    public Optional<Secret> secret(String ns, String name) {
      return secrets.byKey(ns + "/" + name);
    }

    @Override
    public List<Namespace> namespaces() {
      return namespaces.items();
    }

    @Override
    public Optional<Map<String, String>> podLabels(String ns, String name) {
      return pods.byKey(ns + "/" + name).map(KubeConfigSource::labelsOf);
    }

    @Override
    public boolean podsReadable() {
      return !pods.isPartlyAbsent();
    }
  }

  /**
   * Told when the cached view becomes stale and when it is current again (see {@link #staleSince()}), on the
   * health thread, in order. Keep it quick; an exception is logged and does not stop the health checks.
   */
  public interface HealthListener {
    HealthListener NONE = new HealthListener() {
      @Override
      public void onStale(Instant since, String reason) {
      }

      @Override
      public void onRecovered(Instant staleSince, Instant now) {
      }
    };

    /** The view became stale at {@code since}; {@code reason} says why, e.g. "the API does not answer". */
    void onStale(Instant since, String reason);

    /** The view, stale since {@code staleSince}, is current again at {@code now}. */
    void onRecovered(Instant staleSince, Instant now);
  }

  /** Settings of a {@link KubeConfigSource}. */
  public static final class Builder {
    private final KubernetesClient client;
    private final Consumer<GatewayConfig> sink;
    private List<String> namespaces = List.of();
    private Debounce.Timing debounce = Debounce.Timing.DEFAULT;
    private Duration probeInterval = Duration.ofSeconds(2);
    private Clock clock = Clock.systemUTC();
    private MeterRegistry registry = new SimpleMeterRegistry();
    private HealthListener healthListener = HealthListener.NONE;
    private Duration secretLookupTime = DEFAULT_SECRET_LOOKUP_TIME;

    private Builder(KubernetesClient client, Consumer<GatewayConfig> sink) {
      this.client = Objects.requireNonNull(client, "client");
      this.sink = Objects.requireNonNull(sink, "sink");
    }

    /** Watch only this namespace (kube upstreams then resolve only Services in it). Default: all. */
    public Builder namespace(String value) {
      return namespaces(List.of(Objects.requireNonNull(value, "namespace")));
    }

    /**
     * Watch only these namespaces (at most {@link #MAX_NAMESPACES}; duplicates count once): no namespaced kind is
     * then listed cluster-wide, and objects elsewhere are never seen. Empty: all namespaces. Default: all.
     */
    public Builder namespaces(Collection<String> values) {
      Set<String> distinct = new LinkedHashSet<>();
      for (String value : Objects.requireNonNull(values, "namespaces")) {
        if (value == null || value.isBlank()) {
          throw new IllegalArgumentException("namespaces must not be blank; use allNamespaces()");
        }
        distinct.add(value.trim());
      }
      if (distinct.size() > MAX_NAMESPACES) {
        throw new IllegalArgumentException("namespaces: at most " + MAX_NAMESPACES + " (got " + distinct.size()
            + "); watch all namespaces instead");
      }
      namespaces = List.copyOf(distinct);
      return this;
    }

    public Builder allNamespaces() {
      namespaces = List.of();
      return this;
    }

    /**
     * Quiet time after the last change before a rebuild, and the longest a change waits for its rebuild while
     * changes keep coming; default {@link Debounce.Timing#DEFAULT} (100 ms, capped at 500 ms).
     */
    public Builder debounce(Debounce.Timing value) {
      debounce = Objects.requireNonNull(value, "debounce");
      return this;
    }

    /** How often the API's reachability is checked; default 2 s. */
    public Builder probeInterval(Duration value) {
      if (positiveOrZero(value, "probeInterval").isZero()) {
        throw new IllegalArgumentException("probeInterval must be positive");
      }
      probeInterval = value;
      return this;
    }

    /** Time source for {@link #staleSince()} and {@link #lastContact()}; default the UTC system clock. */
    public Builder clock(Clock value) {
      clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** Where the meters go; default a private registry. */
    public Builder meterRegistry(MeterRegistry value) {
      registry = Objects.requireNonNull(value, "registry");
      return this;
    }

    /** Told about staleness transitions; default none. */
    public Builder healthListener(HealthListener value) {
      healthListener = Objects.requireNonNull(value, "healthListener");
      return this;
    }

    /**
     * Wall-clock time the direct Secret lookups of one {@link #withNamedSecrets} call may take together (each request
     * gets half of it); zero makes none. Keep it well within the webhook's check budget. Default 2 s.
     */
    public Builder secretLookupTime(Duration value) {
      secretLookupTime = positiveOrZero(value, "secretLookupTime");
      return this;
    }

    public KubeConfigSource build() {
      return new KubeConfigSource(this);
    }

    private static Duration positiveOrZero(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative()) {
        throw new IllegalArgumentException(name + " must not be negative: " + value);
      }
      return value;
    }
  }
}
