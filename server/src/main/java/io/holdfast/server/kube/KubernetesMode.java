package io.holdfast.server.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.ResourceKey;
import io.holdfast.common.Durations;
import io.holdfast.election.ElectionSettings;
import io.holdfast.election.ExitHandler;
import io.holdfast.election.KubernetesLeaseLock;
import io.holdfast.election.LeaderElector;
import io.holdfast.election.Leadership;
import io.holdfast.election.LeadershipListener;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.kube.status.DesiredStatus;
import io.holdfast.kube.status.GatewayAddresses;
import io.holdfast.kube.status.StatusWriter;
import io.holdfast.pipeline.ConfigPipeline;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.Closeables;
import io.holdfast.server.cli.ServeSettings;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes mode: the informer-backed config source feeding the pipeline, the elector, and the leader-only
 * status writer fed by the status board. Three clients, each with the timeouts its job needs and a user
 * agent naming this replica: the source (informers), the status writer (request timeout = the election's
 * leaderRequestTimeout, no client-side retries: it has its own backoff), and the lease lock (every call bounded by
 * the lock timeout). The writer bases its writes on the source's informer copies, so a write needs no GET unless
 * it meets a 409.
 *
 * <p>Stop order: the status writer first (no new request; one in flight lands or is abandoned, within
 * leaderRequestTimeout + 500 ms), then the elector (which releases the lease), then the source and the clients. So
 * a successor never takes the lease while this replica's last status write is still on its way.
 */
public final class KubernetesMode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesMode.class);

  private final Deque<AutoCloseable> started = new ArrayDeque<>();
  private final Leadership leadership;
  private final LeaderElector elector; // null when election is disabled
  private final KubeConfigSource source;

  private KubernetesMode(Leadership leadership, LeaderElector elector, KubeConfigSource source) {
    this.leadership = leadership;
    this.elector = elector;
    this.source = source;
  }

  /** Client settings for {@code settings}: the given API URL, or in-cluster / KUBECONFIG config. */
  static Config baseConfig(ServeSettings.KubernetesSource kube, String identity) {
    Config auto = kube.apiServerUrl()
        .map(url -> new ConfigBuilder(Config.empty()).withMasterUrl(url).withTrustCerts(true).build())
        .orElseGet(() -> Config.autoConfigure(null));
    return new ConfigBuilder(auto).withUserAgent("holdfast/" + identity).build();
  }

  /**
   * Told what the status page's timeline shows: leadership changes (registered before the elector starts, so none
   * is missed) and the config source's staleness transitions.
   */
  public record Observers(LeadershipListener leadership, KubeConfigSource.HealthListener health) {
    public static final Observers NONE =
        new Observers(new LeadershipListener() { }, KubeConfigSource.HealthListener.NONE);

    public Observers {
      java.util.Objects.requireNonNull(leadership, "leadership");
      java.util.Objects.requireNonNull(health, "health");
    }
  }

  public static KubernetesMode start(ServeSettings settings, ConfigPipeline pipeline, StatusBoard board,
      MeterRegistry registry, Clock clock, Observers observers) {
    return start(settings, pipeline, board, registry, clock, observers, KubernetesMode::client);
  }

  /** Builds one of the three API clients ({@code source}, {@code status} or {@code lease}) from its settings. */
  @FunctionalInterface
  interface ClientFactory {
    KubernetesClient create(String name, Config config, MeterRegistry registry);
  }

  /**
   * As {@link #start(ServeSettings, ConfigPipeline, StatusBoard, MeterRegistry, Clock, Observers)}, with the
   * clients built by {@code clients}.
   */
  static KubernetesMode start(ServeSettings settings, ConfigPipeline pipeline, StatusBoard board,
      MeterRegistry registry, Clock clock, Observers observers, ClientFactory clients) {
    ServeSettings.KubernetesSource kube = settings.kubernetes().orElseThrow();
    ElectionSettings election = settings.election();
    Config base = baseConfig(kube, election.identity());
    Deque<AutoCloseable> opened = new ArrayDeque<>();
    try {
      KubernetesClient sourceClient = clients.create("source", new ConfigBuilder(base).withRequestTimeout(2_000)
          .withConnectionTimeout(2_000).withWatchReconnectInterval(500)
          // Informers retry on their own; client-side retries would only hide an outage for ~20 s.
          .withRequestRetryBackoffLimit(0).build(), registry);
      opened.push(sourceClient);
      int statusTimeout = (int) Math.min(Integer.MAX_VALUE, election.leaderRequestTimeout().toMillis());
      KubernetesClient statusClient = clients.create("status", new ConfigBuilder(base)
          .withMasterUrl(kube.statusApiServerUrl().orElse(base.getMasterUrl())) // fault-injection aid (tests)
          .withRequestTimeout(statusTimeout).withConnectionTimeout(Math.min(statusTimeout, 2_000))
          .withRequestRetryBackoffLimit(0).build(), registry);
      opened.push(statusClient);

      Leadership leadership;
      LeaderElector elector = null;
      if (election.enabled()) {
        KubernetesClient leaseClient = clients.create("lease",
            KubernetesLeaseLock.electionConfig(base, election.lockTimeout()), registry);
        opened.push(leaseClient);
        elector = LeaderElector.builder(election,
                KubernetesLeaseLock.using(leaseClient, election.leaseNamespace(), election.leaseName()))
            .meterRegistry(registry)
            .exitHandler(ExitHandler.system())
            .build();
        leadership = elector;
      } else {
        leadership = Leadership.alwaysLeader(election.identity());
      }
      leadership.addListener(observers.leadership());

      KubeConfigSource.Builder sb = KubeConfigSource.builder(sourceClient, config -> pipeline.apply(config, List.of()))
          .clock(clock).meterRegistry(registry).healthListener(observers.health())
          .secretLookupTime(secretLookupTime(settings.pipeline().limits().webhookCheckTime()));
      sb.namespaces(kube.watchNamespaces());
      KubeConfigSource source = sb.build();
      opened.push(source);

      StatusWriter writer = StatusWriter.builder(statusClient, leadership).meterRegistry(registry).clock(clock)
          .requestTimeout(election.leaderRequestTimeout())
          .objectCache(source::cached)
          .gatewayControllerName(settings.gatewayControllerName())
          .build();
      // Pull: the writer reads the board on its own thread; a change (a build, or a NACK on a Netty event loop)
      // only wakes it, so a wake sent for an older build cannot bring that build's statuses back.
      GatewayAddresses addresses = gatewayAddresses(settings.gatewayAddressing(), sourceClient, writer::changed);
      opened.push(addresses);
      writer.follow(() -> desired(board, addresses.current()));
      board.onChange(writer::changed);
      writer.start();
      opened.push(writer);

      source.start();
      if (elector != null) {
        elector.start();
        opened.push(elector);
      }
      // Closed first, before the elector releases the lease: leader-only work ends (bounded) while still leading.
      opened.remove(writer);
      opened.push(writer);
      KubernetesMode mode = new KubernetesMode(leadership, elector, source);
      mode.started.addAll(opened);
      log.info("kubernetes mode started api={} watchNamespaces={} election={} identity={} leaderRequestTimeout={}",
          base.getMasterUrl(), kube.watchNamespaces().isEmpty() ? "*" : String.join(",", kube.watchNamespaces()), election.enabled() ? "lease "
              + election.leaseNamespace() + "/" + election.leaseName() : "disabled", election.identity(),
          Durations.format(election.leaderRequestTimeout()));
      return mode;
    } catch (RuntimeException e) {
      Closeables.closeAll(opened);
      throw e;
    }
  }

  /**
   * The webhook's direct Secret lookups ({@link KubeConfigSource#withNamedSecrets}) take at most half the check's
   * wall-clock budget, and never more than the source's default: the check itself needs the rest.
   */
  static Duration secretLookupTime(Duration checkTime) {
    Duration half = checkTime.dividedBy(2);
    return half.compareTo(KubeConfigSource.DEFAULT_SECRET_LOOKUP_TIME) < 0 ? half
        : KubeConfigSource.DEFAULT_SECRET_LOOKUP_TIME;
  }

  private static KubernetesClient client(String name, Config config, MeterRegistry registry) {
    return new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("holdfast-metrics",
            new KubeApiMetrics(registry, name, System::nanoTime)))
        .build();
  }

  /** The Gateways' addresses: stated, and the ingress of the Service in front of the proxies when one is named. */
  private static GatewayAddresses gatewayAddresses(ServeSettings.GatewayAddressing addressing,
      KubernetesClient client, Runnable onChange) {
    if (addressing.service().isEmpty()) {
      return GatewayAddresses.stated(addressing.addresses());
    }
    String[] service = ServeSettings.GatewayAddressing.namespaceAndName(addressing.service().get());
    return GatewayAddresses.watching(addressing.addresses(), client, service[0], service[1], onChange);
  }

  private static Map<ResourceKey, DesiredStatus> desired(StatusBoard board,
      List<GatewayAddresses.Address> addresses) {
    Map<ResourceKey, DesiredStatus> out = new LinkedHashMap<>();
    board.current().ifPresent(b -> {
      b.statuses().forEach((key, status) -> out.put(key, new DesiredStatus(status, board.nackOf(key))));
      // Gateway API objects are written from their full status; it also covers routes without a verdict (no
      // parent of Holdfast's left), so Holdfast's old parent entries on them are removed.
      b.objectStatuses().forEach((key, status) -> out.put(key, DesiredStatus.gatewayApi(status, addresses,
          board.nackOf(key))));
    });
    return out;
  }

  public Leadership leadership() {
    return leadership;
  }

  /**
   * {@code config} with the Secrets {@code reviewed} names from the source's cache, or asked of the API when the cache
   * lacks them ({@link KubeConfigSource#withNamedSecrets}).
   */
  public io.holdfast.api.GatewayConfig withNamedSecrets(io.holdfast.api.GatewayConfig config, ResourceKey reviewed) {
    return source.withNamedSecrets(config, reviewed);
  }

  /** The source has listed everything at least once. */
  public boolean synced() {
    return source.hasSynced();
  }

  public Optional<Instant> staleSince() {
    return source.staleSince();
  }

  /** Whether the API answered the source's last check; empty before the first. */
  public Optional<Boolean> apiAnswered() {
    return source.apiAnswered();
  }

  /** {@code election} and {@code kube} sections of the admin state. */
  public Map<String, Object> state(Clock clock) {
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("state", leadership.state().name().toLowerCase(java.util.Locale.ROOT));
    e.put("holder", leadership.observedLeader().orElse(null));
    e.put("term", leadership.currentTerm().map(Object::toString).orElse(null));
    e.put("leaseTransitions", leadership.currentTerm().map(t -> (Object) t.transitions()).orElse(null));
    if (elector != null) {
      // The holder is as last seen: during an outage a follower's record (even one naming this replica) is old.
      double seen = elector.observedLeaderAgeSeconds();
      e.put("holderSeenSecondsAgo", Double.isNaN(seen) ? null : seen);
      e.put("leaseDurationSeconds", elector.settings().leaseDuration().toMillis() / 1000.0);
      double age = elector.lastRenewAgeSeconds();
      e.put("secondsSinceRenew", Double.isNaN(age) ? null : age);
      e.put("watchHealthy", elector.watchHealthy());
      // e.g. a missing lease namespace: without this a typo in --lease-namespace looks like a quiet follower
      e.put("lastError", elector.lastError().orElse(null));
    }
    Map<String, Object> k = new LinkedHashMap<>();
    k.put("synced", source.hasSynced());
    k.put("apiAnswered", source.apiAnswered().orElse(null));
    k.put("staleSince", source.staleSince().map(Object::toString).orElse(null));
    k.put("lastContact", source.lastContact().map(Object::toString).orElse(null));
    k.put("secondsSinceContact", source.lastContact()
        .map(t -> (Object) (Duration.between(t, clock.instant()).toMillis() / 1000.0)).orElse(null));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("election", e);
    out.put("kube", k);
    return out;
  }

  @Override
  public synchronized void close() {
    Closeables.closeAll(started);
  }

}
