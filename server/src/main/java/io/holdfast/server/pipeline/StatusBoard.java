package io.holdfast.server.pipeline;

import io.holdfast.xds.model.ManifestError;
import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.server.NackEvent;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.validate.ResourceStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What Holdfast currently thinks of its config: each resource's verdict, the NACKs proxies sent for what was
 * generated from it, and problems that belong to no resource (malformed files). Written by the pipeline's one
 * thread and by gRPC threads reporting NACKs; read by the admin server and the status writer. Thread-safe.
 */
public final class StatusBoard {

  /** One published build: the verdicts and translation behind the snapshot being served. */
  public record Build(String version, Instant builtAt, SortedMap<ResourceKey, ResourceStatus> statuses,
      List<ManifestError> manifestErrors, Translation translation) {
    public Build {
      statuses = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(statuses));
      manifestErrors = List.copyOf(manifestErrors);
    }
  }

  private volatile Build current;
  private final Map<ResourceKey, NackEvent> nacksByResource = new ConcurrentHashMap<>();
  private final List<NackEvent> unattributedNacks = new CopyOnWriteArrayList<>();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final List<Runnable> publishListeners = new CopyOnWriteArrayList<>();

  public Optional<Build> current() {
    return Optional.ofNullable(current);
  }

  /** Records a build; NACKs of earlier versions no longer apply and are cleared. */
  public void publish(Build build) {
    String previous = current == null ? null : current.version();
    current = build;
    if (!build.version().equals(previous)) {
      nacksByResource.clear();
      unattributedNacks.clear();
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
   * Attributes a NACK to the resources its error names, or that the request named; a NACK whose text names
   * nothing we generated is kept unattributed. Envoy and grpc-java both put the rejected resource's name in
   * the error detail.
   */
  public void onNack(NackEvent nack) {
    Build build = current;
    List<ResourceKey> keys = new ArrayList<>();
    if (build != null) {
      build.translation().origins().forEach((envoyName, origin) -> {
        if (nack.resourceNames().contains(envoyName) || nack.errorDetail().contains(envoyName)) {
          if (!keys.contains(origin)) {
            keys.add(origin);
          }
        }
      });
    }
    if (keys.isEmpty()) {
      unattributedNacks.add(nack);
    }
    keys.forEach(k -> nacksByResource.put(k, nack));
    listeners.forEach(Runnable::run);
  }

  /** The last NACK a proxy sent for what this resource generated, for the current version. */
  public Optional<NackEvent> nackOf(ResourceKey key) {
    return Optional.ofNullable(nacksByResource.get(key));
  }

  public Optional<ResourceStatus> statusOf(ResourceKey key) {
    Build build = current;
    return build == null ? Optional.empty() : Optional.ofNullable(build.statuses().get(key));
  }

  /** A JSON-friendly view for the admin {@code /state} endpoint. */
  public Map<String, Object> toState() {
    Map<String, Object> out = new LinkedHashMap<>();
    Build build = current;
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
      nackOf(key).ifPresent(n -> r.put("nack", Map.of("node", n.nodeId(), "type", n.typeUrl(),
          "version", n.rejectedVersion(), "error", n.errorDetail(), "at", n.at().toString())));
      resources.put(key.toString(), r);
    });
    out.put("resources", resources);
    out.put("unattributedNacks", unattributedNacks.stream().map(n -> n.nodeId() + " " + n.typeUrl() + ": "
        + n.errorDetail()).toList());
    return out;
  }
}
