package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One informed kind. It owns the current fabric8 informer and can replace it with a fresh one seeded with the
 * old one's cache ({@link #restart()}), which re-lists and re-watches without ever showing an empty cache.
 * Events only call {@code onChange}; readers use the store. Thread-safe.
 */
final class InformerSlot<T extends HasMetadata> implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(InformerSlot.class);

  /** Told about every cache change and every failed list or watch, on fabric8's informer threads. */
  interface Listener {
    void changed(String kind);

    void failed(String kind, Throwable error);
  }

  private final String kind;
  private final Supplier<SharedIndexInformer<T>> factory;
  private final Listener listener;
  private final ResourceEventHandler<T> handler;
  private volatile SharedIndexInformer<T> current;
  private volatile boolean synced;
  private volatile boolean closed;

  /** @param factory makes a new, unstarted informer (from {@code runnableInformer}) with any indexers */
  InformerSlot(String kind, Supplier<SharedIndexInformer<T>> factory, Listener listener) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.factory = Objects.requireNonNull(factory, "factory");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.handler = new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        listener.changed(kind);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        listener.changed(kind);
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
    if (current == null && !closed) {
      current = launch(Optional.empty());
    }
  }

  /**
   * Replaces the informer with a new one that starts from the current cache and lists again. Used after an
   * outage: a watch whose connection died silently would otherwise wait for its server-side timeout.
   */
  synchronized void restart() {
    SharedIndexInformer<T> old = current;
    if (old == null || closed) {
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
      return !closed;
    });
    seed.ifPresent(items -> informer.initialState(items.stream()));
    informer.addEventHandler(handler);
    informer.start().whenComplete((ignored, error) -> {
      if (error == null) {
        synced = true;
        log.debug("informer listed and watching kind={}", kind);
        listener.changed(kind);
      }
    });
    return informer;
  }

  /** True once any informer of this slot has listed; stays true through restarts and outages. */
  boolean hasSynced() {
    SharedIndexInformer<T> informer = current;
    if (!synced && informer != null && informer.hasSynced()) {
      synced = true;
    }
    return synced;
  }

  boolean isWatching() {
    SharedIndexInformer<T> informer = current;
    return informer != null && informer.isWatching();
  }

  List<T> items() {
    SharedIndexInformer<T> informer = current;
    return informer == null ? List.of() : informer.getStore().list();
  }

  Optional<T> byKey(String key) {
    SharedIndexInformer<T> informer = current;
    return informer == null ? Optional.empty() : Optional.ofNullable(informer.getStore().getByKey(key));
  }

  List<T> byIndex(String index, String key) {
    SharedIndexInformer<T> informer = current;
    return informer == null ? List.of() : informer.getIndexer().byIndex(index, key);
  }

  @Override
  public synchronized void close() {
    closed = true;
    SharedIndexInformer<T> informer = current;
    if (informer != null) {
      informer.stop();
    }
  }
}
