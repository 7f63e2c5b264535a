package io.holdfast.pipeline;

import io.holdfast.api.ManifestError;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import io.holdfast.xds.translate.Translation;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What Holdfast currently thinks of its config: each resource's verdict, the NACKs proxies sent for what was
 * generated from it, and problems that belong to no resource (malformed files). Written by the pipeline's one
 * thread and by gRPC threads reporting NACKs; read by the admin server and the status writer. Thread-safe.
 */
public final class StatusBoard {

  /** One published build: the verdicts and translation behind the snapshot being served. */
  /**
   * @param objectStatuses the full status of each object whose API reports more than a verdict (the Gateway API's
   *                       conditions, listeners and route parents), for the status writer
   */
  public record Build(String version, Instant builtAt, SortedMap<ResourceKey, ResourceStatus> statuses,
      List<ManifestError> manifestErrors, Translation translation,
      SortedMap<ResourceKey, io.holdfast.ir.ObjectStatus> objectStatuses) {
    public Build {
      statuses = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
      manifestErrors = List.copyOf(manifestErrors);
      objectStatuses = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(objectStatuses));
    }

    /** A build of Holdfast kinds only: no full statuses. */
    public Build(String version, Instant builtAt, SortedMap<ResourceKey, ResourceStatus> statuses,
        List<ManifestError> manifestErrors, Translation translation) {
      this(version, builtAt, statuses, manifestErrors, translation, new TreeMap<>());
    }
  }

  /** NACKs held for versions the board has not been told about yet; beyond this the oldest are dropped. */
  private static final int MAX_PENDING_NACKS = 1024;
  /** Unattributed NACKs shown per version; beyond this the oldest are dropped. */
  private static final int MAX_UNATTRIBUTED_NACKS = 100;

  /** Guards writes of {@link #view} and {@link #pending}; readers take {@link #view} without it. */
  private final Object lock = new Object();
  private volatile View view = new View(null, new Nacks());
  /**
   * NACKs whose version is not the current build's: the cache serves a snapshot before the pipeline tells the
   * board, so a proxy can NACK a version the board learns a moment later. Kept until the next build; only those
   * of that build's version survive it.
   */
  private final Deque<NackEvent> pending = new ArrayDeque<>();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final List<Runnable> publishListeners = new CopyOnWriteArrayList<>();
  private final List<java.util.function.Consumer<BuildOutcome>> outcomeListeners = new CopyOnWriteArrayList<>();
  private volatile BuildOutcome lastOutcome;

  /** The current build and the NACKs of its version, swapped together. */
  private record View(Build build, Nacks nacks) {
  }

  /** The NACKs of one version, attributed to the resources they concern. Written under the board's lock. */
  private static final class Nacks {
    final Map<ResourceKey, NackEvent> byResource = new ConcurrentHashMap<>();
    final Deque<NackEvent> unattributed = new ConcurrentLinkedDeque<>();

    void add(NackEvent nack, Translation translation) {
      List<ResourceKey> keys = NackAttribution.resourcesOf(nack, translation);
      keys.forEach(k -> byResource.put(k, nack));
      if (keys.isEmpty()) {
        unattributed.addLast(nack);
        if (unattributed.size() > MAX_UNATTRIBUTED_NACKS) {
          unattributed.pollFirst();
        }
      }
    }
  }

  /** How the latest build went; empty before the first. */
  public Optional<BuildOutcome> lastOutcome() {
    return Optional.ofNullable(lastOutcome);
  }

  /**
   * Records how the latest build went (the pipeline calls it after each build, after {@link #publish} when the
   * build was served). A failed build publishes nothing else: the board goes on showing the build still served.
   */
  public void recordOutcome(BuildOutcome outcome) {
    lastOutcome = java.util.Objects.requireNonNull(outcome, "outcome");
    outcomeListeners.forEach(l -> l.accept(outcome));
  }

  /** Called with every build's outcome, failed ones included, on the pipeline thread: keep it quick. */
  public void onOutcome(java.util.function.Consumer<BuildOutcome> listener) {
    outcomeListeners.add(listener);
  }

  public Optional<Build> current() {
    return Optional.ofNullable(view.build());
  }

  /**
   * Records a build. When its version differs from the previous one, NACKs of other versions no longer apply
   * and are dropped; NACKs of this very version that arrived before it (see {@link #onNack}) are kept.
   */
  public void publish(Build build) {
    synchronized (lock) {
      View before = view;
      if (before.build() != null && before.build().version().equals(build.version())) {
        view = new View(build, before.nacks());
      } else {
        Nacks nacks = new Nacks();
        pending.stream().filter(n -> n.rejectedVersion().equals(build.version()))
            .forEach(n -> nacks.add(n, build.translation()));
        pending.clear();
        view = new View(build, nacks);
      }
    }
    publishListeners.forEach(Runnable::run);
    listeners.forEach(Runnable::run);
  }

  /** Called after every build a source published (not on NACKs), on the pipeline thread. */
  public void onPublish(Runnable listener) {
    publishListeners.add(listener);
  }

  /** Called on every change (new build, new NACK), on the thread that made it: keep it quick. */
  public void onChange(Runnable listener) {
    listeners.add(listener);
  }

  /**
   * Records a NACK. One of the current build's version (or of an unknown version: the proxy rejected a response
   * this server cannot identify) is attributed now, see {@link NackAttribution}. One of another version is held
   * until the next build and kept only if that build has its version: the cache serves a snapshot before the
   * board learns of it, and a NACK of a version already replaced no longer applies.
   */
  public void onNack(NackEvent nack) {
    synchronized (lock) {
      View now = view;
      String version = nack.rejectedVersion();
      if (now.build() != null && (version.isEmpty() || version.equals(now.build().version()))) {
        now.nacks().add(nack, now.build().translation());
      } else {
        if (pending.size() >= MAX_PENDING_NACKS) {
          pending.removeFirst();
        }
        pending.addLast(nack);
      }
    }
    listeners.forEach(Runnable::run);
  }

  /**
   * Every NACK of the current build's version (or of an unknown version) the board holds: the last per resource
   * and the unattributed ones, each once, oldest first. Empty before the first build.
   */
  public List<NackEvent> currentNacks() {
    View now = view;
    java.util.Set<NackEvent> out = new java.util.LinkedHashSet<>(now.nacks().byResource.values());
    out.addAll(now.nacks().unattributed);
    return out.stream().sorted(java.util.Comparator.comparing(NackEvent::at)).toList();
  }

  /** NACKs of the current version not traced to any resource, oldest first. */
  public List<NackEvent> unattributedNacks() {
    return List.copyOf(view.nacks().unattributed);
  }

  /** The last NACK a proxy sent for what this resource generated, for the current version. */
  public Optional<NackEvent> nackOf(ResourceKey key) {
    return Optional.ofNullable(view.nacks().byResource.get(key));
  }

  public Optional<ResourceStatus> statusOf(ResourceKey key) {
    Build build = view.build();
    return build == null ? Optional.empty() : Optional.ofNullable(build.statuses().get(key));
  }

  /**
   * A JSON-friendly view of the board with problems as strings, for tests and logs. The admin {@code /state} shows
   * the board through the server's {@code ConfigState} instead (problems as objects, with file and line).
   */
  public Map<String, Object> toState() {
    Map<String, Object> out = new LinkedHashMap<>();
    View now = view;
    Build build = now.build();
    out.put("lastBuild", lastOutcome().map(BuildOutcome::toState).orElse(null));
    if (build == null) {
      out.put("version", null);
      return out;
    }
    out.put("version", build.version());
    out.put("builtAt", build.builtAt().toString());
    out.put("manifestErrors", build.manifestErrors().stream().map(ManifestError::toString).toList());
    Map<String, Object> resources = new LinkedHashMap<>();
    build.statuses().forEach((key, status) -> {
      Map<String, Object> r = new LinkedHashMap<>();
      r.put("state", status.state().name());
      r.put("observedGeneration", status.observedGeneration());
      r.put("problems", status.problems().stream().map(Object::toString).toList());
      Optional.ofNullable(now.nacks().byResource.get(key)).ifPresent(n -> r.put("nack", Map.of("node", n.nodeId(), "type", n.typeUrl(),
          "version", n.rejectedVersion(), "error", n.errorDetail(), "at", n.at().toString())));
      resources.put(key.toString(), r);
    });
    out.put("resources", resources);
    out.put("unattributedNacks", now.nacks().unattributed.stream().map(n -> n.nodeId() + " " + n.typeUrl() + ": "
        + n.errorDetail()).toList());
    return out;
  }
}
