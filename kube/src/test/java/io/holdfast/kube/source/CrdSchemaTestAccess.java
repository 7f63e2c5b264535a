package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;

/** The CRDs of deploy/crds for tests of other packages (the status writer's). */
public final class CrdSchemaTestAccess {

  private CrdSchemaTestAccess() {
  }

  /** The CRD of a Holdfast kind or policy kind, as deploy/crds has it. */
  public static CustomResourceDefinition load(String kind) {
    return CrdSchemaTest.load(kind);
  }
}
