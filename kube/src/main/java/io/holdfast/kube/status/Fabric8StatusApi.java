package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.ResourceKey;
import io.holdfast.kube.source.GatewayCrds;
import java.util.Objects;
import java.util.Optional;

/** {@link StatusApi} on fabric8 generic resources. */
final class Fabric8StatusApi implements StatusApi {
  private final KubernetesClient client;

  Fabric8StatusApi(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public Optional<GenericKubernetesResource> get(ResourceKey key) {
    return Optional.ofNullable(resources(key).withName(key.name()).get());
  }

  /** The key's kind (Holdfast's or the Gateway API's, by group), in its namespace unless cluster-scoped. */
  private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList,
      Resource<GenericKubernetesResource>> resources(ResourceKey key) {
    ResourceDefinitionContext kind = GatewayCrds.context(key)
        .orElseThrow(() -> new IllegalArgumentException("no status is written for " + key));
    var all = client.genericKubernetesResources(kind);
    return Boolean.TRUE.equals(kind.isNamespaceScoped()) ? all.inNamespace(key.namespace()) : all;
  }

  @Override
  public GenericKubernetesResource updateStatus(ResourceKey key, GenericKubernetesResource object) {
    if (object.getMetadata() == null || object.getMetadata().getResourceVersion() == null) {
      // Without one the PUT would be unconditional and could overwrite a newer status.
      throw new IllegalArgumentException(key + ": refusing a status write without a resourceVersion");
    }
    // update*() (not replace*()) keeps the given resourceVersion: a stale one gets 409 rather than a retry on top.
    var resource = resources(key).resource(object);
    return GlooStatusDocument.isGloo(key) ? resource.update() : resource.updateStatus();
  }
}
