package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.holdfast.api.ResourceKey;
import java.util.Optional;

/** The two API calls the writer makes. Failures surface as fabric8 {@code KubernetesClientException}s. */
interface StatusApi {

  /** The object as the API has it now; empty if it does not exist. */
  Optional<GenericKubernetesResource> get(ResourceKey key);

  /**
   * PUT to the object's {@code /status} subresource, carrying {@code object}'s resourceVersion, so a write based
   * on a stale read fails with 409 instead of overwriting. Returns the object as written. Gloo Edge's kinds have no
   * status subresource (their CRDs, Gloo's or deploy/crds-gloo's, define none: solo-kit writes statuses through the
   * object), so theirs is a PUT of the object itself, with the same resourceVersion guard: a spec edited since the
   * read is never overwritten, the write gets 409.
   */
  GenericKubernetesResource updateStatus(ResourceKey key, GenericKubernetesResource object);
}
