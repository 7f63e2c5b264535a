package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The CRDs of Gloo Edge's kinds that deploy/crds-gloo ships, installed on the emulated API as a user would, and
 * their printer columns evaluated the way {@code kubectl get} does for the simple field paths they use.
 */
final class GlooCrdFiles {
  static final Path DIR = Path.of("..", "deploy", "crds-gloo");

  private GlooCrdFiles() {
  }

  /** The shipped definition of {@code kind} ({@code <group>_<plural>.yaml}). */
  static CustomResourceDefinition load(KubernetesClient client, ResourceDefinitionContext kind) {
    try (InputStream in = Files.newInputStream(DIR.resolve(kind.getGroup() + "_" + kind.getPlural() + ".yaml"))) {
      return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void install(KubernetesClient admin, ResourceDefinitionContext kind) {
    admin.apiextensions().v1().customResourceDefinitions().resource(load(admin, kind)).create();
  }

  /**
   * Each printer column's value on {@code object}, by column name (null where the path finds nothing, an empty cell
   * in kubectl). Only dotted field paths are supported; any other syntax fails the test rather than reading wrong.
   */
  static Map<String, Object> columns(CustomResourceDefinition crd, GenericKubernetesResource object) {
    Map<String, Object> root = new LinkedHashMap<>(object.getAdditionalProperties());
    root.put("metadata", Map.of("creationTimestamp", String.valueOf(object.getMetadata().getCreationTimestamp())));
    Map<String, Object> out = new LinkedHashMap<>();
    for (CustomResourceColumnDefinition column : crd.getSpec().getVersions().get(0).getAdditionalPrinterColumns()) {
      String path = column.getJsonPath();
      if (!path.matches("(\\.[A-Za-z0-9_-]+)+")) {
        throw new AssertionError(column.getName() + ": not a dotted field path: " + path);
      }
      Object at = root;
      for (String field : path.substring(1).split("\\.")) {
        at = at instanceof Map<?, ?> map ? map.get(field) : null;
      }
      out.put(column.getName(), at);
    }
    return out;
  }
}
