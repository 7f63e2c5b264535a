package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The Pod informer's store, keeping of each Pod only what kube Upstreams' selectors need: its key
 * ({@code namespace/name}), its labels, and the resourceVersion the informer compares. A Pod's spec and status
 * (containers, volumes, conditions: kilobytes each) are dropped as they arrive, so a cluster of 10 000 pods costs
 * about their labels (a few hundred bytes each), not their full objects. What it hands back is a Pod with only that
 * metadata. Thread-safe (the informer writes, rebuilds read).
 */
final class PodLabelStore implements ItemStore<Pod> {

  private record Kept(String resourceVersion, Map<String, String> labels) {
  }

  private final ConcurrentHashMap<String, Kept> pods = new ConcurrentHashMap<>();

  @Override
  public String getKey(Pod pod) {
    return Cache.metaNamespaceKeyFunc(pod);
  }

  @Override
  public Pod put(String key, Pod pod) {
    return restore(key, pods.put(key, keep(pod)));
  }

  @Override
  public Pod remove(String key) {
    return restore(key, pods.remove(key));
  }

  @Override
  public Stream<String> keySet() {
    return pods.keySet().stream();
  }

  @Override
  public Stream<Pod> values() {
    return pods.entrySet().stream().map(e -> restore(e.getKey(), e.getValue()));
  }

  @Override
  public int size() {
    return pods.size();
  }

  @Override
  public Pod get(String key) {
    return restore(key, pods.get(key));
  }

  /** Not every field is kept: the informer must not hand the previous object to handlers as if it were whole. */
  @Override
  public boolean isFullState() {
    return false;
  }

  private static Kept keep(Pod pod) {
    var meta = pod.getMetadata();
    Map<String, String> labels = new java.util.HashMap<>();
    if (meta.getLabels() != null) {
      // The API never serves a null label; a malformed object must still not stop the informer's thread.
      meta.getLabels().forEach((k, v) -> {
        if (k != null && v != null) {
          labels.put(k, v);
        }
      });
    }
    return new Kept(meta.getResourceVersion(), Map.copyOf(labels));
  }

  private static Pod restore(String key, Kept kept) {
    if (kept == null) {
      return null;
    }
    int slash = key.indexOf('/');
    return new PodBuilder().withNewMetadata()
        .withNamespace(slash < 0 ? null : key.substring(0, slash))
        .withName(key.substring(slash + 1))
        .withResourceVersion(kept.resourceVersion())
        .withLabels(kept.labels())
        .endMetadata().build();
  }
}
