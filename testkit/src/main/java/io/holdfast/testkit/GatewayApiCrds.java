package io.holdfast.testkit;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.GatewayApiKinds.Kind;
import java.util.List;

/**
 * Minimal CustomResourceDefinitions for the Kubernetes Gateway API kinds Holdfast reads, for tests on the emulated
 * API: names, scope, served versions and a status subresource, with an open schema. Users install the upstream
 * project's CRDs; these only make the emulated API serve the kinds.
 */
public final class GatewayApiCrds {

  private static final List<Kind> KINDS = GatewayApiKinds.ALL;

  private GatewayApiCrds() {
  }

  /** The definitions, one per kind. */
  public static List<CustomResourceDefinition> all() {
    return KINDS.stream().map(GatewayApiCrds::crd).toList();
  }

  /** Creates every definition on the API {@code admin} talks to. */
  public static void install(KubernetesClient admin) {
    all().forEach(crd -> admin.apiextensions().v1().customResourceDefinitions().resource(crd).create());
  }

  private static CustomResourceDefinition crd(Kind kind) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName(kind.plural() + "." + GatewayApiKinds.GROUP).endMetadata()
        .withNewSpec()
        .withGroup(GatewayApiKinds.GROUP)
        .withScope(kind.namespaced() ? "Namespaced" : "Cluster")
        .withNewNames().withKind(kind.kind()).withPlural(kind.plural())
        .withSingular(kind.kind().toLowerCase(java.util.Locale.ROOT)).withListKind(kind.kind() + "List").endNames()
        .addNewVersion().withName(kind.version()).withServed(true).withStorage(true)
        .withNewSubresources().withNewStatus().endStatus().endSubresources()
        .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
        .endOpenAPIV3Schema().endSchema()
        .endVersion()
        .endSpec()
        .build();
  }
}
