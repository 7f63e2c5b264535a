package io.holdfast.api;

import java.util.Comparator;
import java.util.Objects;

/**
 * Identity of one gateway resource: its kind, namespace and name. Statuses, cross-references and translation
 * origins are all keyed by it. Ordered by kind, namespace, name.
 */
public record ResourceKey(String kind, String namespace, String name) implements Comparable<ResourceKey> {

  public static final String UPSTREAM = "Upstream";
  public static final String VIRTUAL_SERVICE = "VirtualService";
  public static final String GATEWAY = "Gateway";

  private static final Comparator<ResourceKey> ORDER = Comparator.comparing(ResourceKey::kind)
      .thenComparing(ResourceKey::namespace)
      .thenComparing(ResourceKey::name);

  public ResourceKey {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  public static ResourceKey upstream(String namespace, String name) {
    return new ResourceKey(UPSTREAM, namespace, name);
  }

  public static ResourceKey virtualService(String namespace, String name) {
    return new ResourceKey(VIRTUAL_SERVICE, namespace, name);
  }

  public static ResourceKey gateway(String namespace, String name) {
    return new ResourceKey(GATEWAY, namespace, name);
  }

  @Override
  public int compareTo(ResourceKey other) {
    return ORDER.compare(this, other);
  }

  /** {@code Kind/namespace/name}, e.g. {@code Upstream/default/echo}. */
  @Override
  public String toString() {
    return kind + "/" + namespace + "/" + name;
  }
}
