package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.MockKubeApi;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

/**
 * The emulated API for the status tests: {@link MockKubeApi} (which answers a stale status write with 409 and
 * records every write), with the test CRDs (status subresource on) already created.
 */
final class StatusKubeApi implements AutoCloseable {
  final MockKubeApi mock = MockKubeApi.start();
  final KubernetesClient admin = mock.admin();

  private StatusKubeApi() {
    try (InputStream crds = StatusKubeApi.class.getResourceAsStream("/test-crds.yaml")) {
      List<HasMetadata> items = admin.load(crds).items();
      items.forEach(i -> admin.resource(i).create());
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static StatusKubeApi start() {
    return new StatusKubeApi();
  }

  int port() {
    return mock.port();
  }

  /**
   * Every status write the API received (to a {@code /status} subresource, or a Gloo object PUT by a replica), in the
   * order they took effect.
   */
  List<ApiWrite> statusWrites() {
    return mock.writes().stream().filter(ApiWrite::isStatus).toList();
  }

  /** The status writes received from clients with this user agent. */
  List<ApiWrite> statusWritesFrom(String userAgent) {
    return mock.writesFrom(userAgent).stream().filter(ApiWrite::isStatus).toList();
  }

  /**
   * Creates an object of one of the gateway kinds (Holdfast's, or a Gloo Edge kind whose CRD the test installed) with
   * a small spec.
   */
  GenericKubernetesResource create(ResourceKey key) {
    ResourceDefinitionContext kind = context(key);
    GenericKubernetesResource r = new GenericKubernetesResourceBuilder()
        .withApiVersion(kind.getGroup() + "/" + kind.getVersion())
        .withKind(key.kind())
        .withNewMetadata().withNamespace(key.namespace()).withName(key.name()).endMetadata()
        .build();
    r.setAdditionalProperty("spec", Map.of("note", "created by the test"));
    return resources(key).resource(r).create();
  }

  GenericKubernetesResource get(ResourceKey key) {
    return resources(key).withName(key.name()).get();
  }

  /** The object's status as the API has it, or null. */
  Object status(ResourceKey key) {
    GenericKubernetesResource r = get(key);
    return r == null ? null : r.getAdditionalProperties().get("status");
  }

  /** Writes a status by hand, as an operator with kubectl would (unconditional: no resourceVersion). */
  void overwriteStatus(ResourceKey key, Object status) {
    GenericKubernetesResource r = get(key);
    r.getMetadata().setResourceVersion(null);
    r.setAdditionalProperty("status", status);
    resources(key).resource(r).updateStatus();
  }

  private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<GenericKubernetesResource,
      io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
      io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>> resources(ResourceKey key) {
    return admin.genericKubernetesResources(context(key)).inNamespace(key.namespace());
  }

  private static ResourceDefinitionContext context(ResourceKey key) {
    return key.group().equals(HoldfastKinds.GROUP) ? GatewayCrds.context(key.kind())
        : GatewayCrds.context(key).orElseThrow(() -> new IllegalArgumentException("no kind for " + key));
  }

  @Override
  public void close() {
    mock.close();
  }
}
