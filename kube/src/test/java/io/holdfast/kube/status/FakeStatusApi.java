package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.ResourceKey;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory API with resourceVersion checks on status writes, call counters, and hooks; {@code onUpdate} runs
 * before a status write is applied (e.g. to hold it, as a slow network would).
 */
final class FakeStatusApi implements StatusApi {
  final Map<ResourceKey, GenericKubernetesResource> objects = new ConcurrentHashMap<>();
  final AtomicInteger gets = new AtomicInteger();
  final AtomicInteger updates = new AtomicInteger();
  volatile Runnable onGet = () -> { };
  volatile Runnable onUpdate = () -> { };
  volatile int failUpdatesWith;
  private final AtomicInteger versions = new AtomicInteger(1);

  void create(ResourceKey key) {
    objects.put(key, new GenericKubernetesResourceBuilder().withApiVersion(HoldfastKinds.API_VERSION)
        .withKind(key.kind()).withNewMetadata().withNamespace(key.namespace()).withName(key.name())
        .withResourceVersion(String.valueOf(versions.getAndIncrement())).endMetadata().build());
  }

  @Override
  public Optional<GenericKubernetesResource> get(ResourceKey key) {
    gets.incrementAndGet();
    onGet.run();
    return Optional.ofNullable(objects.get(key));
  }

  @Override
  public GenericKubernetesResource updateStatus(ResourceKey key, GenericKubernetesResource object) {
    updates.incrementAndGet();
    onUpdate.run();
    return apply(key, object);
  }

  private synchronized GenericKubernetesResource apply(ResourceKey key, GenericKubernetesResource object) {
    if (failUpdatesWith != 0) {
      throw new KubernetesClientException("injected", failUpdatesWith, null);
    }
    GenericKubernetesResource current = objects.get(key);
    if (current == null) {
      throw new KubernetesClientException("not found", 404, null);
    }
    if (!current.getMetadata().getResourceVersion().equals(object.getMetadata().getResourceVersion())) {
      throw new KubernetesClientException("conflict", 409, null);
    }
    GenericKubernetesResource next = StatusReconciler.withStatus(current,
        castStatus(object.getAdditionalProperties().get("status")));
    next.getMetadata().setResourceVersion(String.valueOf(versions.getAndIncrement()));
    objects.put(key, next);
    return next;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castStatus(Object status) {
    return (Map<String, Object>) status;
  }
}
