package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Read access to the cached cluster objects a rebuild needs (the informer stores, or fixtures in tests). */
interface ClusterView {

  List<GenericKubernetesResource> customResources(ResourceDefinitionContext kind);

  Optional<Service> service(String namespace, String name);

  /** The slices labelled {@code kubernetes.io/service-name=<service>} in {@code namespace}. */
  List<EndpointSlice> slicesOf(String namespace, String service);

  Optional<Secret> secret(String namespace, String name);

  /** The labels of the Pod {@code namespace/name}; empty if the view does not have it. */
  default Optional<Map<String, String>> podLabels(String namespace, String name) {
    return Optional.empty();
  }

  /**
   * Whether the view can read pods' labels at all (in Kubernetes mode: RBAC grants list and watch on pods in every
   * watched namespace). If not, narrowed references ({@code selector}) get no endpoints at all: the unnarrowed set
   * would be wider than asked.
   */
  default boolean podsReadable() {
    return false;
  }

  /** Every Namespace (for Gateway listeners' allowedRoutes selectors); empty where they cannot be read. */
  default List<io.fabric8.kubernetes.api.model.Namespace> namespaces() {
    return List.of();
  }
}
