package io.holdfast.api;

import java.util.Comparator;
import java.util.Objects;

/**
 * Identity of one object a config API reads: its API group, kind, namespace and name. Statuses, cross-references
 * and IR origins are all keyed by it. The group keeps two APIs' kinds of the same name apart (Holdfast's
 * {@code Gateway} and the Gateway API's {@code Gateway}). Ordered by kind, namespace, name, then group, so the
 * order of Holdfast's objects is that of their kind, namespace and name.
 */
public record ResourceKey(String group, String kind, String namespace, String name)
    implements Comparable<ResourceKey> {

  /** The API group of Holdfast's own kinds. */
  public static final String HOLDFAST_GROUP = "gateway.holdfast.io";
  /** The Kubernetes core group ({@code Service}, {@code ConfigMap}, ...): the empty string, as in Kubernetes. */
  public static final String CORE_GROUP = "";

  public static final String UPSTREAM = "Upstream";
  public static final String VIRTUAL_SERVICE = "VirtualService";
  public static final String GATEWAY = "Gateway";
  public static final String TCP_GATEWAY = "TcpGateway";
  public static final String ROUTE_TABLE = "RouteTable";

  private static final Comparator<ResourceKey> ORDER = Comparator.comparing(ResourceKey::kind)
      .thenComparing(ResourceKey::namespace)
      .thenComparing(ResourceKey::name)
      .thenComparing(ResourceKey::group);

  public ResourceKey {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  /** A key in the Holdfast API group ({@link #HOLDFAST_GROUP}). */
  public ResourceKey(String kind, String namespace, String name) {
    this(HOLDFAST_GROUP, kind, namespace, name);
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

  public static ResourceKey tcpGateway(String namespace, String name) {
    return new ResourceKey(TCP_GATEWAY, namespace, name);
  }

  public static ResourceKey routeTable(String namespace, String name) {
    return new ResourceKey(ROUTE_TABLE, namespace, name);
  }

  /** A key in the Kubernetes core group, e.g. a {@code Service}. */
  public static ResourceKey core(String kind, String namespace, String name) {
    return new ResourceKey(CORE_GROUP, kind, namespace, name);
  }

  /** Whether this is one of Holdfast's own kinds named {@code holdfastKind}. */
  public boolean isHoldfast(String holdfastKind) {
    return group.equals(HOLDFAST_GROUP) && kind.equals(holdfastKind);
  }

  @Override
  public int compareTo(ResourceKey other) {
    return ORDER.compare(this, other);
  }

  /**
   * {@code Kind/namespace/name} for the Holdfast and core groups (e.g. {@code Upstream/default/echo}, the form
   * statuses, golden files and /state show), else {@code Kind.group/namespace/name} as kubectl spells a kind of
   * another group (e.g. {@code Gateway.gateway.networking.k8s.io/demo/edge}).
   */
  @Override
  public String toString() {
    String qualifiedKind = group.equals(HOLDFAST_GROUP) || group.equals(CORE_GROUP) ? kind : kind + "." + group;
    return qualifiedKind + "/" + namespace + "/" + name;
  }
}
