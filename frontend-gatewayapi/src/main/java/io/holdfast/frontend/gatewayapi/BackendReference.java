package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.BackendObjectReference;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCBackendRef;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPBackendRef;
import java.util.Objects;
import java.util.Optional;

/**
 * A backendRef of an HTTPRoute, a GRPCRoute or a mirror filter, with the specification's defaults applied (the
 * fabric8 model classes share no type for it).
 *
 * @param group     "" is the core group
 * @param kind      "Service" unless written
 * @param namespace absent: the route's own namespace
 * @param port      required for a Service (the reference is invalid without it)
 */
public record BackendReference(String group, String kind, String name, Optional<String> namespace,
    Optional<Integer> port) {

  public static final String SERVICE = "Service";

  public BackendReference {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(port, "port");
  }

  /** Whether this names a core-group Service, the only kind Holdfast resolves. */
  public boolean isService() {
    return group.isEmpty() && kind.equals(SERVICE);
  }

  /** The namespace the reference points into. */
  public String namespaceOr(String routeNamespace) {
    return namespace.orElse(routeNamespace);
  }

  static BackendReference of(HTTPBackendRef ref) {
    return of(ref.getGroup(), ref.getKind(), ref.getName(), ref.getNamespace(), ref.getPort());
  }

  static BackendReference of(GRPCBackendRef ref) {
    return of(ref.getGroup(), ref.getKind(), ref.getName(), ref.getNamespace(), ref.getPort());
  }

  static BackendReference of(BackendObjectReference ref) {
    return of(ref.getGroup(), ref.getKind(), ref.getName(), ref.getNamespace(), ref.getPort());
  }

  static BackendReference of(String group, String kind, String name, String namespace, Integer port) {
    return new BackendReference(group == null ? "" : group, kind == null ? SERVICE : kind,
        name == null ? "" : name, Optional.ofNullable(namespace).filter(ns -> !ns.isEmpty()),
        Optional.ofNullable(port));
  }
}
