package io.holdfast.frontend.holdfast;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Whether a Holdfast object may use an object of another namespace, by the Gateway API's ReferenceGrants
 * ({@code gateway.networking.k8s.io}, read from the config's {@link ApiObject}s as the Gateway API front end reads
 * them): a grant in the target's namespace whose {@code from} names the referrer's group
 * ({@code gateway.holdfast.io}), kind and namespace, and whose {@code to} names the target's group and kind, and
 * its name when the entry gives one. A Secret always needs one; Upstreams and RouteTables only under
 * {@link AccessPolicy.CrossNamespaceRefs#GRANT}. A reference within one namespace, and a PEM file of the config
 * directory (which has no namespace), needs none. An entry of a grant that is not an object of strings grants
 * nothing. Equal inputs give equal values, so lowering can tell whether consent changed between revisions.
 * Immutable.
 */
record Consent(AccessPolicy.CrossNamespaceRefs mode, Map<String, List<Grant>> grantsByNamespace) {

  /** One ReferenceGrant: who may refer ({@code from}) to what ({@code to}) in its namespace. */
  record Grant(String name, List<From> from, List<To> to) {
  }

  record From(String group, String kind, String namespace) {
  }

  /** @param name empty: every object of the kind */
  record To(String group, String kind, String name) {
  }

  Consent {
    Objects.requireNonNull(mode, "mode");
    grantsByNamespace = Map.copyOf(grantsByNamespace);
  }

  /**
   * The grants of {@code config}. Bounded by the config: each ReferenceGrant's entries are read once.
   */
  static Consent of(AccessPolicy.CrossNamespaceRefs mode, GatewayConfig config) {
    Map<String, List<Grant>> grants = new HashMap<>();
    for (ApiObject object : config.apiObjectsOf(GatewayApiKinds.GROUP)) {
      if (object.key().kind().equals(GatewayApiKinds.REFERENCE_GRANT.kind())) {
        grants.computeIfAbsent(object.key().namespace(), ns -> new ArrayList<>()).add(parse(object));
      }
    }
    grants.replaceAll((ns, list) -> List.copyOf(list));
    return new Consent(mode, grants);
  }

  /** The ReferenceGrants among {@code objects}, to carry them in an accepted config for lowering. */
  static List<ApiObject> grantObjects(GatewayConfig config) {
    return config.apiObjectsOf(GatewayApiKinds.GROUP).stream()
        .filter(o -> o.key().kind().equals(GatewayApiKinds.REFERENCE_GRANT.kind())).toList();
  }

  /**
   * Why {@code referrer} may not use the TLS material under {@code secret}, or empty if it may.
   */
  Optional<String> secret(ResourceKey referrer, ResourceKey secret) {
    if (TlsSecretData.isFileKey(secret) || secret.namespace().equals(referrer.namespace())
        || permits(referrer, secret)) {
      return Optional.empty();
    }
    return Optional.of(refusal(referrer, secret));
  }

  /** Why {@code referrer} may not name the Upstream or RouteTable {@code target}, or empty if it may. */
  Optional<String> reference(ResourceKey referrer, ResourceKey target) {
    if (mode == AccessPolicy.CrossNamespaceRefs.ALLOW || target.namespace().equals(referrer.namespace())
        || permits(referrer, target)) {
      return Optional.empty();
    }
    return Optional.of(refusal(referrer, target) + " (--cross-namespace-refs=grant)");
  }

  /** Whether {@code referrer} may take the RouteTable {@code table} by a delegate selector. */
  boolean delegationPermitted(ResourceKey referrer, ResourceKey table) {
    return reference(referrer, table).isEmpty();
  }

  private boolean permits(ResourceKey referrer, ResourceKey target) {
    for (Grant grant : grantsByNamespace.getOrDefault(target.namespace(), List.of())) {
      boolean from = grant.from().stream().anyMatch(f -> f.group().equals(referrer.group())
          && f.kind().equals(referrer.kind()) && f.namespace().equals(referrer.namespace()));
      boolean to = grant.to().stream().anyMatch(t -> t.group().equals(target.group())
          && t.kind().equals(target.kind()) && (t.name().isEmpty() || t.name().equals(target.name())));
      if (from && to) {
        return true;
      }
    }
    return false;
  }

  private static String refusal(ResourceKey referrer, ResourceKey target) {
    String what = target.kind().equals(TlsSecretData.SECRET_KIND) ? "Secret " + target.namespace() + "/"
        + target.name() : target.toString();
    return what + " is in another namespace and no ReferenceGrant in namespace " + target.namespace() + " lets "
        + referrer.kind() + "s of namespace " + referrer.namespace() + " use it; one with from {group: "
        + referrer.group() + ", kind: " + referrer.kind() + ", namespace: " + referrer.namespace() + "} and to"
        + " {group: \"" + target.group() + "\", kind: " + target.kind() + ", name: " + target.name() + "} would";
  }

  private static Grant parse(ApiObject object) {
    List<From> from = new ArrayList<>();
    List<To> to = new ArrayList<>();
    for (JsonNode entry : entries(object.at("/spec/from"))) {
      text(entry, "kind", null).ifPresent(kind -> text(entry, "namespace", null).ifPresent(ns ->
          text(entry, "group", "").ifPresent(group -> from.add(new From(group, kind, ns)))));
    }
    for (JsonNode entry : entries(object.at("/spec/to"))) {
      text(entry, "kind", null).ifPresent(kind -> text(entry, "group", "").ifPresent(group ->
          text(entry, "name", "").ifPresent(name -> to.add(new To(group, kind, name)))));
    }
    return new Grant(object.key().name(), List.copyOf(from), List.copyOf(to));
  }

  private static List<JsonNode> entries(JsonNode list) {
    return list != null && list.isArray() ? list.valueStream().filter(JsonNode::isObject).toList() : List.of();
  }

  /** The string field {@code name}; {@code absent} when it is missing or null (null: required); empty if not text. */
  private static Optional<String> text(JsonNode entry, String name, String absent) {
    JsonNode value = entry.get(name);
    if (value == null || value.isNull()) {
      return Optional.ofNullable(absent);
    }
    return value.isString() ? Optional.of(value.asString()) : Optional.empty();
  }
}
