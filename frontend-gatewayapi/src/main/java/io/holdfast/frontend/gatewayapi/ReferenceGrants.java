package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantFrom;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantSpec;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ReferenceGrantTo;
import io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.ReferenceGrant;
import io.holdfast.api.ApiObject;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The ReferenceGrants of a build: whether an object of one namespace may refer to an object of another. A
 * reference within one namespace needs no grant; across namespaces it needs a grant in the target's namespace
 * whose {@code from} names the referrer's group, kind and namespace and whose {@code to} names the target's
 * group and kind, and its name when the grant gives one. ReferenceGrants get no status (the specification gives
 * them none); one that does not parse grants nothing.
 */
final class ReferenceGrants {

  /** A reference: who refers, in which namespace, to what. */
  record Reference(String fromGroup, String fromKind, String fromNamespace, String toGroup, String toKind,
      String toNamespace, String toName) {
    Reference {
      Objects.requireNonNull(fromGroup, "fromGroup");
      Objects.requireNonNull(fromKind, "fromKind");
      Objects.requireNonNull(fromNamespace, "fromNamespace");
      Objects.requireNonNull(toGroup, "toGroup");
      Objects.requireNonNull(toKind, "toKind");
      Objects.requireNonNull(toNamespace, "toNamespace");
      Objects.requireNonNull(toName, "toName");
    }
  }

  private record Grant(String namespace, ReferenceGrantSpec spec) {
  }

  private final List<Grant> grants;

  private ReferenceGrants(List<Grant> grants) {
    this.grants = List.copyOf(grants);
  }

  static ReferenceGrants none() {
    return new ReferenceGrants(List.of());
  }

  /** The grants among {@code objects} (objects of other kinds are skipped). */
  static ReferenceGrants of(List<ApiObject> objects) {
    return new ReferenceGrants(objects.stream()
        .filter(o -> o.key().kind().equals(io.holdfast.api.GatewayApiKinds.REFERENCE_GRANT.kind()))
        .flatMap(o -> Models.parse(o, ReferenceGrant.class).parsed().stream())
        .filter(p -> p.model().getSpec() != null)
        .map(p -> new Grant(p.object().key().namespace(), p.model().getSpec()))
        .toList());
  }

  boolean permits(Reference reference) {
    if (reference.fromNamespace().equals(reference.toNamespace())) {
      return true;
    }
    return grants.stream().anyMatch(grant -> grant.namespace().equals(reference.toNamespace())
        && list(grant.spec().getFrom()).stream().anyMatch(from -> matches(from, reference))
        && list(grant.spec().getTo()).stream().anyMatch(to -> matches(to, reference)));
  }

  private static boolean matches(ReferenceGrantFrom from, Reference reference) {
    return text(from.getGroup()).equals(reference.fromGroup())
        && text(from.getKind()).equals(reference.fromKind())
        && text(from.getNamespace()).equals(reference.fromNamespace());
  }

  private static boolean matches(ReferenceGrantTo to, Reference reference) {
    return text(to.getGroup()).equals(reference.toGroup())
        && text(to.getKind()).equals(reference.toKind())
        && Optional.ofNullable(to.getName()).filter(n -> !n.isEmpty()).map(reference.toName()::equals).orElse(true);
  }

  /** The core group is written as "" (or omitted); "core" is not a group name in a grant. */
  private static String text(String value) {
    return value == null ? "" : value;
  }

  private static <T> List<T> list(List<T> values) {
    return values == null ? List.of() : values;
  }
}
