package io.holdfast.api;

import java.util.Objects;
import java.util.Optional;

/** A reference by name to another resource; without a namespace it means the referring resource's own. */
public record ObjectRef(String name, Optional<String> namespace) {

  public ObjectRef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
  }

  public static ObjectRef of(String name) {
    return new ObjectRef(name, Optional.empty());
  }

  public static ObjectRef of(String namespace, String name) {
    return new ObjectRef(name, Optional.of(namespace));
  }

  /** The key this reference points at, given the referring resource's namespace. */
  public ResourceKey resolve(String kind, String referrerNamespace) {
    return new ResourceKey(kind, namespace.orElse(referrerNamespace), name);
  }
}
