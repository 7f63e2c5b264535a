package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One informed kind, read through one or more informers: one per watched namespace, and for Secrets one per
 * Secret type read (a field selector takes one value). Each <em>shard</em> owns its current fabric8 informer and
 * can replace it with a fresh one seeded with the old one's cache ({@link #restart()}), which re-lists and
 * re-watches without ever showing an empty cache. Readers see the union of the shards' stores. Events only call
 * the listener; readers use the stores. Thread-safe.
 *
 * <p>An <em>optional</em> slot is for a kind a cluster may not serve yet: a kind added in a later release whose CRD
 * an upgrade has not applied (404), or Secrets before the RBAC rule that grants them (403). Until its first list
 * succeeds, such an answer makes a shard count as listed and empty (the API answered: there is nothing this
 * replica can see there), so the other kinds and namespaces are served; it keeps retrying and fills in once the
 * API serves it. Required kinds never do this: a 403 on VirtualServices must not look like "no VirtualServices".
 */
final class InformerSlot<T extends HasMetadata> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(InformerSlot.class);

  /** Told about every cache change and every failed list or watch, on fabric8's informer threads. */
  interface Listener {
    void changed(String kind);

    void failed(String kind, Throwable error);
  }

  private final String kind;
  private final boolean optional;
  private final Listener listener;
  private final ResourceEventHandler<T> handler;
  private final List<Shard> shards;
  private volatile boolean closed;

  /** A required slot of one informer: it counts as listed only once a list succeeded. */
  InformerSlot(String kind, Supplier<SharedIndexInformer<T>> factory, Listener listener) {
    this(kind, false, List.of(factory), listener);
  }

  /** A slot of one informer. */
  InformerSlot(String kind, boolean optional, Supplier<SharedIndexInformer<T>> factory, Listener listener) {
    this(kind, optional, List.of(factory), listener);
  }

  /**
   * @param optional  whether a 404 or 403 before a shard's first successful list counts as an empty, listed shard
   * @param factories one per shard; each makes a new, unstarted informer (from {@code runnableInformer}) with any
   *                  indexers. Shards hold disjoint objects (other namespaces, other Secret types).
   */
  InformerSlot(String kind, boolean optional, List<Supplier<SharedIndexInformer<T>>> factories, Listener listener) {
    this(kind, optional, factories, listener, (before, after) -> true);
  }

  /**
   * @param updateMatters whether an update (previous, current) can change the config; others are not passed to the
   *                      listener (Pods: only a label change matters, not the status writes that make most updates)
   */
  InformerSlot(String kind, boolean optional, List<Supplier<SharedIndexInformer<T>>> factories, Listener listener,
      java.util.function.BiPredicate<T, T> updateMatters) {
    Objects.requireNonNull(updateMatters, "updateMatters");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.optional = optional;
    this.listener = Objects.requireNonNull(listener, "listener");
    if (factories.isEmpty()) {
      throw new IllegalArgumentException("a slot needs at least one informer: " + kind);
    }
    this.shards = factories.stream().map(Shard::new).toList();
    this.handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        listener.changed(kind);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        if (oldObj == null || newObj == null || updateMatters.test(oldObj, newObj)) {
          listener.changed(kind);
        }
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        listener.changed(kind);
      }
    };
  }

  String kind() {
    return kind;
  }

  synchronized void start() {
    if (!closed) {
      shards.forEach(Shard::start);
    }
  }

  /**
   * Replaces each informer with a new one that starts from its current cache and lists again. Used after an
   * outage: a watch whose connection died silently would otherwise wait for its server-side timeout.
   */
  synchronized void restart() {
    if (!closed) {
      shards.forEach(Shard::restart);
    }
  }

  /**
   * True once every shard has listed (or, optional slots, the API said it does not serve it there); stays true
   * through restarts and outages.
   */
  boolean hasSynced() {
    return shards.stream().allMatch(Shard::hasSynced);
  }

  /** Every shard watching, or (optional slots) known not to be served: nothing to watch is not a stale view. */
  boolean isWatching() {
    return shards.stream().allMatch(Shard::isWatching);
  }

  /** True while some shard of this optional kind is treated as empty because the API does not serve it there. */
  boolean isPartlyAbsent() {
    return shards.stream().anyMatch(shard -> shard.absent);
  }

  /** True while this optional kind is treated as empty everywhere because the API does not serve it. */
  boolean isAbsent() {
    return shards.stream().allMatch(shard -> shard.absent);
  }

  private static boolean notServed(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof KubernetesClientException e) {
        return e.getCode() == 404 || e.getCode() == 403;
      }
    }
    return false;
  }

  List<T> items() {
    if (shards.size() == 1) {
      return shards.get(0).store().map(Store::list).orElse(List.of());
    }
    List<T> out = new ArrayList<>();
    shards.forEach(shard -> shard.store().ifPresent(store -> out.addAll(store.list())));
    return out;
  }

  Optional<T> byKey(String key) {
    for (Shard shard : shards) {
      Optional<T> found = shard.store().map(store -> store.getByKey(key));
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  List<T> byIndex(String index, String key) {
    List<T> out = new ArrayList<>();
    for (Shard shard : shards) {
      SharedIndexInformer<T> informer = shard.current;
      if (informer != null) {
        out.addAll(informer.getIndexer().byIndex(index, key));
      }
    }
    return out;
  }

  @Override
  public synchronized void close() {
    closed = true;
    shards.forEach(Shard::stop);
  }

  /** One informer's worth of the kind: a namespace, or a Secret type in a namespace. */
  private final class Shard {
    private final Supplier<SharedIndexInformer<T>> factory;
    private volatile SharedIndexInformer<T> current;
    private volatile boolean synced;
    private volatile boolean absent; // optional slots only: the API said 404/403 and has never listed it

    Shard(Supplier<SharedIndexInformer<T>> factory) {
      this.factory = Objects.requireNonNull(factory, "factory");
    }

    void start() {
      if (current == null) {
        current = launch(Optional.empty());
      }
    }

    void restart() {
      SharedIndexInformer<T> old = current;
      if (old == null) {
        return;
      }
      current = launch(Optional.of(old.getStore().list()));
      old.stop();
    }

    private SharedIndexInformer<T> launch(Optional<List<T>> seed) {
      SharedIndexInformer<T> informer = factory.get();
      // Keep retrying whatever fails, including the first list: the API may come later than this process.
      informer.exceptionHandler((started, error) -> {
        listener.failed(kind, error);
        if (optional && !synced && !absent && notServed(error)) {
          absent = true;
          log.warn("kind not served to this replica, treating it as empty and retrying kind={} error={} hint={}",
              kind, error.getMessage(),
              "apply the CRDs and RBAC in deploy/ (a 404 is a missing CRD, a 403 a missing RBAC rule)");
          listener.changed(kind);
        }
        return !closed;
      });
      seed.ifPresent(items -> informer.initialState(items.stream()));
      informer.addEventHandler(handler);
      informer.start().whenComplete((ignored, error) -> {
        if (error == null) {
          synced = true;
          if (absent) {
            absent = false;
            log.info("kind is served now kind={}", kind);
          }
          log.debug("informer listed and watching kind={}", kind);
          listener.changed(kind);
        }
      });
      return informer;
    }

    boolean hasSynced() {
      SharedIndexInformer<T> informer = current;
      if (!synced && informer != null && informer.hasSynced()) {
        synced = true;
      }
      return synced || absent;
    }

    boolean isWatching() {
      SharedIndexInformer<T> informer = current;
      return absent || informer != null && informer.isWatching();
    }

    Optional<Store<T>> store() {
      SharedIndexInformer<T> informer = current;
      return informer == null ? Optional.empty() : Optional.of(informer.getStore());
    }

    void stop() {
      SharedIndexInformer<T> informer = current;
      if (informer != null) {
        informer.stop();
      }
    }
  }
}
