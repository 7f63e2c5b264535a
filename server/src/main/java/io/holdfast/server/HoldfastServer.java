package io.holdfast.server;

import io.holdfast.election.ElectionMetrics;
import io.holdfast.election.LeaderElector;
import io.holdfast.election.Leadership;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import io.holdfast.pipeline.BuildOutcome;
import io.holdfast.ir.NackListener;
import io.holdfast.pipeline.ConfigCheck;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.admin.AdminServer;
import io.holdfast.server.admin.AdminSources;
import io.holdfast.server.admin.ConfigState;
import io.holdfast.server.admin.DataPlaneVerdict;
import io.holdfast.server.admin.EventTimeline;
import io.holdfast.server.admin.ProxyStanding;
import io.holdfast.server.admin.TimelineFeeds;
import io.holdfast.server.admin.UnconfirmedProxies;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.server.kube.KubernetesMode;
import io.holdfast.server.snapshot.SnapshotKey;
import io.holdfast.server.tls.CertificateExpiry;
import io.holdfast.server.snapshot.SnapshotStore;
import io.holdfast.server.snapshot.StoredSnapshot;
import io.holdfast.server.source.DirectoryWatcher;
import io.holdfast.server.source.FileConfigSource;
import io.holdfast.server.source.FirstServedOrder;
import io.holdfast.server.webhook.AdmissionWebhook;
import io.holdfast.xds.server.ProxyStatus;
import io.holdfast.xds.server.ReloadingTls;
import io.holdfast.xds.server.XdsCache;
import io.holdfast.xds.server.XdsServer;
import io.holdfast.xds.server.XdsServerSettings;
import io.holdfast.xds.server.XdsTls;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running Holdfast replica in file mode: config directory -> pipeline -> xDS server, plus the admin
 * server. Single-replica election (always leader): with files there is no cluster to elect through.
 * {@link #close()} stops everything in reverse order of start.
 */
public final class HoldfastServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HoldfastServer.class);

  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final XdsCache cache = new XdsCache();
  private final StatusBoard board = new StatusBoard();
  /** Which connected proxies have left what was sent to them unconfirmed (the verdict's ProxiesBehind). */
  private final UnconfirmedProxies unconfirmed = new UnconfirmedProxies();
  private final Clock clock;
  private final EventTimeline timeline;
  private final CertificateExpiry certificates;
  private volatile Leadership leadership;
  private volatile KubernetesMode kube; // null in file mode
  /** Kubernetes mode, before its elector is wired: report "starting", never the placeholder's "leader". */
  private volatile boolean awaitingElection;
  private XdsServer xds;
  private AdminServer admin;
  private AdmissionWebhook webhook; // null when disabled
  /** Where each resource was declared (file mode); none in Kubernetes mode. */
  private volatile ConfigState.Locations locations = ConfigState.Locations.NONE;
  /** Set while serving a snapshot loaded from disk that no source has confirmed yet. */
  private volatile Optional<java.time.Instant> staleSince = Optional.empty();

  private HoldfastServer(Clock clock, String identity) {
    this.clock = clock;
    this.timeline = new EventTimeline(clock, EventTimeline.DEFAULT_CAPACITY);
    this.certificates = new CertificateExpiry(registry, clock);
    this.leadership = Leadership.alwaysLeader(identity);
  }

  /** Starts serving; on failure, whatever had started is stopped again before the exception propagates. */
  public static HoldfastServer start(ServeSettings settings, Clock clock) throws IOException {
    return start(settings, clock, ConfigCheck::new);
  }

  /** As above, the pipeline's check made by {@code checks} from the settings (fault injection in tests). */
  static HoldfastServer start(ServeSettings settings, Clock clock,
      java.util.function.Function<PipelineSettings, ConfigCheck> checks) throws IOException {
    HoldfastServer s = new HoldfastServer(clock, settings.fileMode() ? identity() : settings.election().identity());
    try {
      s.startAll(settings, checks);
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  private void startAll(ServeSettings settings, java.util.function.Function<PipelineSettings, ConfigCheck> checks)
      throws IOException {
    WorkerFailureMetrics.bind(registry);
    Optional<SnapshotStore> store = settings.snapshotDir()
        .map(dir -> SnapshotStore.open(dir, leadership.identity(), clock, registry,
            settings.snapshotKeyFile().map(SnapshotKey::read)));
    if (store.isEmpty()) {
      SnapshotStore.registerMeters(registry);
    }
    // Serve the last-known snapshot at once: new proxies get full config even before any source has synced. It is
    // read, decoded and indexed on its own thread while this one starts the xDS server: both are mostly class
    // loading and initialisation, which overlap on two cores. A proxy that connects first waits (the cache answers
    // nothing before its first snapshot), and no source is started before the snapshot is in place (joined below).
    CompletableFuture<Optional<StoredSnapshot>> restored = new CompletableFuture<>();
    Thread restore = new Thread(() -> {
      try {
        Optional<StoredSnapshot> stored = store.flatMap(SnapshotStore::load);
        stored.ifPresent(found -> cache.setSnapshot(found.snapshot()));
        restored.complete(stored);
      } catch (RuntimeException | Error e) {
        restored.completeExceptionally(e);
      }
    }, "holdfast-snapshot-restore");
    restore.setDaemon(true); // if the xDS server fails to start, the failed start need not wait for it
    restore.start();
    startXds(settings);
    Optional<StoredSnapshot> loaded = restoredSnapshot(restored);
    loaded.ifPresent(stored -> {
      certificates.update(stored.snapshot());
      staleSince = Optional.of(stored.savedAt());
      timeline.record(EventTimeline.Kind.SNAPSHOT, "Serving the last-known snapshot " + stored.snapshot().version()
          + " from disk (saved " + stored.savedAt() + " by " + stored.savedBy() + ") until the config source syncs");
      log.info("serving last-known snapshot from disk version={} savedAt={} savedBy={} until the config source syncs",
          stored.snapshot().version(), stored.savedAt(), stored.savedBy());
    });
    // File mode: objects' ages (first served), stored with the snapshot so "older wins" survives a restart.
    FirstServedOrder ages = new FirstServedOrder(clock);
    if (settings.fileMode()) {
      loaded.ifPresent(stored -> ages.restore(stored.firstServed()));
    }
    ConfigPipeline pipeline = new ConfigPipeline(cache, board, clock, registry, translation -> {
      certificates.update(translation.snapshot());
      store.ifPresent(s -> s.save(translation.snapshot(), ages.current()));
    }, checks.apply(settings.pipeline()));
    if (settings.webhook().isPresent()) {
      ServeSettings.Webhook w = settings.webhook().get();
      // Every replica serves it: the judgement reads only this replica's view and writes nothing. It judges with
      // the pipeline's own settings, so its verdicts are the server's.
      webhook = bind("--webhook-address", w.address(), w.port(), () -> AdmissionWebhook.builder(w.socketAddress(),
          XdsTls.serverOnly(w.certificate(), w.key()), pipeline::currentInput).pipelineSettings(settings.pipeline())
          .secrets(this::withNamedSecrets).meterRegistry(registry).start());
      started.push(webhook);
    }
    board.onPublish(() -> staleSince = Optional.empty()); // a source built a config: disk copy superseded
    board.onPublish(TimelineFeeds.snapshots(timeline, board));
    board.onPublish(TimelineFeeds.rejections(timeline, board, key -> locations.of(key)));
    board.onOutcome(TimelineFeeds.builds(timeline));
    started.push(new DataPlaneMetrics(registry, board, this::proxyStanding));
    io.micrometer.core.instrument.Gauge.builder("holdfast.config.staleness", this,
            h -> h.staleSince().map(t -> Duration.between(t, h.clock.instant()).toMillis() / 1000.0).orElse(0.0))
        .baseUnit("seconds")
        .description("How long the served config has not been confirmed by its source; 0 while fresh")
        .register(registry);
    admin = bind("--admin-address", settings.adminAddress(), settings.adminPort(), () -> AdminServer.start(
        settings.adminSocketAddress(), new AdminSources(() -> cache.currentSnapshot().isPresent(),
            () -> "no config loaded yet", registry, this::state)));
    started.push(admin);
    if (settings.fileMode()) {
      timeline.record(EventTimeline.Kind.LEADERSHIP, "This replica leads: single-replica mode, no election");
      FileConfigSource files = new FileConfigSource(pipeline, ages,
          () -> store.ifPresent(s -> cache.currentSnapshot().ifPresent(snapshot -> s.save(snapshot,
              ages.current()))));
      locations = files::locationsOf;
      started.push(DirectoryWatcher.start(settings.configDir(), files));
    } else {
      awaitingElection = true;
      // Pushed last, so closed first: the lease is released before streams are drained.
      kube = KubernetesMode.start(settings, pipeline, board, registry, clock, new KubernetesMode.Observers(
          TimelineFeeds.leadership(timeline), TimelineFeeds.outages(timeline)));
      leadership = kube.leadership();
      awaitingElection = false;
      started.push(kube);
    }
    if (!(leadership instanceof io.holdfast.election.LeaderElector)) {
      ElectionMetrics.singleReplica(registry, leadership); // the elector registers these when there is one
    }
    log.info("holdfast serving xds={}:{} admin={}:{} source={} election={} identity={}",
        settings.xdsAddress(), xds.port(), settings.adminAddress(), admin.port(),
        settings.fileMode() ? settings.configDir() : "kubernetes",
        settings.election().enabled() ? "lease" : "single-replica", leadership.identity());
  }

  /** Starts the xDS server on the cache; it serves whatever snapshot the cache holds, as soon as it holds one. */
  private void startXds(ServeSettings settings) throws IOException {
    NackListener nackFeed = TimelineFeeds.nacks(timeline);
    XdsServer.Builder xdsBuilder = XdsServer.builder(cache,
        XdsServerSettings.on(settings.xdsAddress(), settings.xdsPort()).withLimits(settings.xdsLimits())
            .withAuthorisation(settings.xdsAuthorisation()), registry)
        .nackListener(nack -> {
          board.onNack(nack);
          nackFeed.onNack(nack);
        })
        .disconnectListener(TimelineFeeds.disconnects(timeline))
        .clock(clock);
    if (settings.tls().isPresent()) {
      ReloadingTls tls = ReloadingTls.builder(settings.tls().get()).clock(clock).start();
      started.push(tls);
      xdsBuilder.credentials(tls.credentials());
    }
    xds = bind("--xds-address", settings.xdsAddress(), settings.xdsPort(), xdsBuilder::start);
    started.push(xds);
  }

  /** A listener's start. */
  private interface Listening<T> {
    T start() throws IOException;
  }

  /** Starts a listener; a taken address fails as an {@link AddressInUseException} naming {@code flag}. */
  private static <T> T bind(String flag, String address, int port, Listening<T> listener) throws IOException {
    try {
      return listener.start();
    } catch (IOException | RuntimeException e) {
      if (AddressInUseException.isAddressInUse(e)) {
        throw new AddressInUseException(flag, address, port, e);
      }
      throw e;
    }
  }

  /** The restore thread's result: its failure is this start's failure. */
  private static Optional<StoredSnapshot> restoredSnapshot(CompletableFuture<Optional<StoredSnapshot>> restored) {
    try {
      return restored.join();
    } catch (java.util.concurrent.CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }

  /**
   * Switches logging to the chosen format and routes java.util.logging (gRPC's) into it; call before starting,
   * from the executable only.
   */
  public static void useLogFormat(io.holdfast.server.cli.LogFormat format) {
    Logging.use(format);
    Logging.routeJavaUtilLogging();
  }

  public int xdsPort() {
    return xds.port();
  }

  /** The admission webhook's port, or empty when it is disabled. */
  public Optional<Integer> webhookPort() {
    return Optional.ofNullable(webhook).map(AdmissionWebhook::port);
  }

  public int adminPort() {
    return admin.port();
  }

  public StatusBoard statusBoard() {
    return board;
  }

  public XdsCache cache() {
    return cache;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  /** Since when the served snapshot is unconfirmed by a live source (loaded from disk, or source cut off). */
  public Optional<java.time.Instant> staleSince() {
    Optional<java.time.Instant> source = kube == null ? Optional.empty() : kube.staleSince();
    if (staleSince.isPresent() && source.isPresent()) {
      return Optional.of(staleSince.get().isBefore(source.get()) ? staleSince.get() : source.get());
    }
    return staleSince.isPresent() ? staleSince : source;
  }

  /** The admin {@code /state} document. */
  public Map<String, Object> state() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("identity", leadership.identity());
    Leadership l = leadership;
    s.put("role", awaitingElection ? "starting"
        : l.state() == io.holdfast.election.ElectorState.STOPPED ? "stopped" : l.isLeader() ? "leader" : "follower");
    s.put("electionMode", kube == null || !(l instanceof io.holdfast.election.LeaderElector) ? "single-replica" : "lease");
    if (kube != null) {
      s.putAll(kube.state(clock));
    }
    cache.currentSnapshot().ifPresent(snap -> s.put("snapshotVersion", snap.version()));
    s.put("staleSince", staleSince().map(Object::toString).orElse(null));
    board.current().ifPresent(b -> s.put("snapshotAgeSeconds",
        Duration.between(b.builtAt(), clock.instant()).toMillis() / 1000.0));
    s.put("xdsStreams", xds.connectedStreams());
    List<ProxyStatus> proxies = xds.proxies();
    s.put("proxies", proxies.stream().map(HoldfastServer::proxyState).toList());
    s.put("config", ConfigState.of(board, locations));
    s.put("timeline", timeline.toState());
    s.put("generatedAt", clock.instant().toString());
    List<Map<String, Object>> certs = certificates.state();
    s.put("certificates", certs);
    s.put("verdict", DataPlaneVerdict.judge(verdictFacts(proxies, certs)).toState());
    return s;
  }

  /** Which connected proxies reject the version served (the status page, the verdict, the NACKing gauge). */
  private ProxyStanding proxyStanding() {
    return ProxyStanding.of(xds.proxies(), cache.currentSnapshot().map(XdsSnapshot::version));
  }

  /** What the verdict is judged on, read now from the cache, the board, the xDS server and the election. */
  private DataPlaneVerdict.Facts verdictFacts(List<ProxyStatus> proxies, List<Map<String, Object>> certs) {
    Optional<String> version = cache.currentSnapshot().map(XdsSnapshot::version);
    Set<String> connected = new TreeSet<>();
    proxies.forEach(p -> connected.add(p.nodeId()));
    List<String> gone = version.map(v -> board.currentNacks().stream()
        .filter(n -> n.rejectedVersion().equals(v) && !connected.contains(n.nodeId()))
        .map(NackEvent::nodeId).distinct().toList()).orElse(List.of());
    Optional<StatusBoard.Build> build = board.current();
    List<String> rejected = build.map(b -> b.statuses().entrySet().stream()
        .filter(e -> e.getValue().state() == ResourceStatus.State.REJECTED)
        .map(e -> ConfigState.described(e.getKey(), locations)).toList()).orElse(List.of());
    List<String> manifestErrors = build.map(b -> b.manifestErrors().stream().map(Object::toString).toList())
        .orElse(List.of());
    Optional<String> buildProblem = board.lastOutcome().filter(o -> o.verdict() != BuildOutcome.Verdict.OK)
        .map(o -> (o.verdict() == BuildOutcome.Verdict.FAILED ? "failed, so the previous snapshot is still served: "
            : "contained a failure of Holdfast's own: ") + o.problems().stream().findFirst().map(Object::toString)
            .orElse("no detail"));
    List<String> expired = new ArrayList<>();
    List<String> expiring = new ArrayList<>();
    for (Map<String, Object> cert : certs) {
      if (cert.get("daysLeft") instanceof Number days && days.longValue() < DataPlaneVerdict.CERTIFICATE_WARNING_DAYS) {
        (days.longValue() < 0 ? expired : expiring).add(cert.get("secret") + " (" + days + " days left)");
      }
    }
    Optional<Duration> staleFor = staleSince().map(t -> Duration.between(t, clock.instant()));
    KubernetesMode k = kube;
    DataPlaneVerdict.Api api = k == null ? DataPlaneVerdict.Api.NOT_USED : k.apiAnswered()
        .map(answered -> answered ? DataPlaneVerdict.Api.ANSWERING : DataPlaneVerdict.Api.UNREACHABLE)
        .orElse(DataPlaneVerdict.Api.UNCHECKED);
    // From the same list of proxies and the same version as the rest of the facts, not a second read of each.
    List<String> nacking = ProxyStanding.of(proxies, version).nacking();
    return new DataPlaneVerdict.Facts(version, List.copyOf(connected), nacking, gone, rejected,
        manifestErrors, buildProblem, api, staleFor, k == null || k.synced(), leadershipFact(),
        leaseHolderAsSeen(), expired, expiring, unconfirmed.behind(proxies, Set.copyOf(nacking), clock.instant()));
  }

  /**
   * The webhook's {@code SecretSource}: in Kubernetes mode the source's Secret cache, or on a miss a bounded request
   * to the API, completes the config (the pipeline's input holds only Secrets some object names); in file mode, and before the source starts, the config
   * as it is (a file-mode view already holds every Secret of the directory).
   */
  private io.holdfast.api.GatewayConfig withNamedSecrets(io.holdfast.api.GatewayConfig config,
      io.holdfast.api.ResourceKey reviewed) {
    KubernetesMode k = kube;
    return k == null ? config : k.withNamedSecrets(config, reviewed);
  }

  /**
   * Leading, following a holder seen within the lease's duration, or unconfirmed (nobody holds it, the record
   * names this replica although it does not lead, or it is older than the lease).
   */
  private DataPlaneVerdict.Leadership leadershipFact() {
    Leadership l = leadership;
    if (awaitingElection) {
      return DataPlaneVerdict.Leadership.STARTING;
    }
    if (l.isLeader()) {
      return DataPlaneVerdict.Leadership.LEADING;
    }
    if (!(l instanceof LeaderElector elector)) {
      return DataPlaneVerdict.Leadership.UNCONFIRMED; // a single replica that stopped
    }
    Optional<String> holder = l.observedLeader();
    double age = elector.observedLeaderAgeSeconds();
    boolean fresh = !Double.isNaN(age) && age <= elector.settings().leaseDuration().toMillis() / 1000.0;
    return holder.isPresent() && !holder.get().equals(l.identity()) && fresh
        ? DataPlaneVerdict.Leadership.FOLLOWING : DataPlaneVerdict.Leadership.UNCONFIRMED;
  }

  /** {@code replica-1, seen 12s ago}; empty when nobody holds the lease or there is no election. */
  private Optional<String> leaseHolderAsSeen() {
    if (!(leadership instanceof LeaderElector elector)) {
      return Optional.empty();
    }
    double age = elector.observedLeaderAgeSeconds();
    return elector.observedLeader().map(h -> h + (Double.isNaN(age) ? ""
        : ", seen " + Math.round(age) + "s ago"));
  }

  private static Map<String, Object> proxyState(ProxyStatus proxy) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("nodeId", proxy.nodeId());
    p.put("streams", proxy.streams());
    Map<String, String> acked = new LinkedHashMap<>();
    proxy.ackedVersions().forEach((type, version) -> acked.put(shortTypeName(type), version));
    p.put("ackedVersions", acked);
    Map<String, String> sent = new LinkedHashMap<>();
    proxy.sentVersions().forEach((type, version) -> sent.put(shortTypeName(type), version));
    p.put("sentVersions", sent); // holdfast status: in sync when every type's last response was ACKed
    p.put("lastNack", proxy.lastNack().map(n -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", shortTypeName(n.typeUrl()));
      m.put("version", n.rejectedVersion());
      m.put("error", n.errorDetail());
      m.put("at", n.at().toString());
      return m;
    }).orElse(null));
    return p;
  }

  /** {@code Listener} for {@code type.googleapis.com/envoy.config.listener.v3.Listener}. */
  private static String shortTypeName(String typeUrl) {
    return typeUrl.substring(typeUrl.lastIndexOf('.') + 1);
  }

  /** Stops everything in reverse order of start. Idempotent; safe to call from several threads. */
  @Override
  public synchronized void close() {
    Closeables.closeAll(started);
  }

  private static String identity() {
    String host = System.getenv().getOrDefault("POD_NAME", System.getenv().getOrDefault("HOSTNAME", "holdfast"));
    return host.isBlank() ? "holdfast" : host;
  }
}
