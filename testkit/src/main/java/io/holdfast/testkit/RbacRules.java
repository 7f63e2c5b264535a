package io.holdfast.testkit;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Kubernetes RBAC as the API server's authorizer applies it, for one ServiceAccount and a set of manifests: which
 * of a client's {@link ApiRequest}s its Roles and ClusterRoles allow. A test runs the client against the emulated
 * API and checks every recorded request here, so the RBAC files are derived from what the client really asks for.
 *
 * <p>Request attributes follow the API server's RequestInfo: the verb from the method (GET on a name is
 * {@code get}, without one {@code list}, with {@code watch=true} {@code watch}; POST {@code create}, PUT
 * {@code update}, PATCH {@code patch}, DELETE {@code delete}); a list or watch with the field selector
 * {@code metadata.name=N} names {@code N} (so {@code resourceNames} can grant it). A RoleBinding grants only
 * in its own namespace, and only for namespaced requests; a ClusterRoleBinding everywhere. Discovery paths
 * ({@code /api}, {@code /apis}, {@code /version}, group and version roots) are allowed, as the default
 * {@code system:discovery} role does for every authenticated client. Aggregated ClusterRoles are not expanded.
 */
public final class RbacRules {

  /** What the authorizer sees of a resource request; {@code namespace} and {@code name} empty if none. */
  public record Attributes(String verb, String group, String resource, String subresource, String namespace,
      String name) {
    /** {@code resource} or {@code resource/subresource}, as a rule names it. */
    public String qualifiedResource() {
      return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    @Override
    public String toString() {
      return verb + " " + (group.isEmpty() ? "core" : group) + "/" + qualifiedResource()
          + (namespace.isEmpty() ? " (cluster)" : " in " + namespace) + (name.isEmpty() ? "" : " name " + name);
    }
  }

  private record Grant(Optional<String> namespace, PolicyRule rule) {
  }

  private final List<Grant> grants;

  private RbacRules(List<Grant> grants) {
    this.grants = List.copyOf(grants);
  }

  /** The rules {@code manifests}' bindings grant to ServiceAccount {@code namespace/name}. */
  public static RbacRules forServiceAccount(List<? extends HasMetadata> manifests, String namespace, String name) {
    List<Grant> grants = new ArrayList<>();
    for (HasMetadata m : manifests) {
      if (m instanceof ClusterRoleBinding binding && bound(binding.getSubjects(), namespace, name, "")) {
        clusterRole(manifests, binding.getRoleRef().getName())
            .ifPresent(role -> role.getRules().forEach(r -> grants.add(new Grant(Optional.empty(), r))));
      }
      if (m instanceof RoleBinding binding
          && bound(binding.getSubjects(), namespace, name, binding.getMetadata().getNamespace())) {
        String where = binding.getMetadata().getNamespace();
        List<PolicyRule> rules = "ClusterRole".equals(binding.getRoleRef().getKind())
            ? clusterRole(manifests, binding.getRoleRef().getName()).map(ClusterRole::getRules).orElse(List.of())
            : manifests.stream().filter(Role.class::isInstance).map(Role.class::cast)
                .filter(r -> r.getMetadata().getName().equals(binding.getRoleRef().getName())
                    && where.equals(r.getMetadata().getNamespace()))
                .findFirst().map(Role::getRules).orElse(List.of());
        rules.forEach(r -> grants.add(new Grant(Optional.of(where), r)));
      }
    }
    return new RbacRules(grants);
  }

  private static Optional<ClusterRole> clusterRole(List<? extends HasMetadata> manifests, String name) {
    return manifests.stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .filter(r -> r.getMetadata().getName().equals(name)).findFirst();
  }

  private static boolean bound(List<Subject> subjects, String namespace, String name, String bindingNamespace) {
    return subjects != null && subjects.stream().anyMatch(s -> "ServiceAccount".equals(s.getKind())
        && name.equals(s.getName())
        && namespace.equals(s.getNamespace() == null ? bindingNamespace : s.getNamespace()));
  }

  /** Whether the request is allowed (discovery paths always are). */
  public boolean allows(ApiRequest request) {
    return attributes(request).map(this::allows).orElse(true);
  }

  public boolean allows(Attributes a) {
    return grants.stream().anyMatch(g -> (g.namespace().isEmpty()
        || !a.namespace().isEmpty() && g.namespace().get().equals(a.namespace())) && matches(g.rule(), a));
  }

  private static boolean matches(PolicyRule rule, Attributes a) {
    return has(rule.getVerbs(), a.verb()) && has(rule.getApiGroups(), a.group())
        && (has(rule.getResources(), a.qualifiedResource()) || has(rule.getResources(), "*")
            || !a.subresource().isEmpty() && (has(rule.getResources(), a.resource() + "/*")
                || has(rule.getResources(), "*/" + a.subresource())))
        && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
            || !a.name().isEmpty() && rule.getResourceNames().contains(a.name()));
  }

  private static boolean has(List<String> values, String value) {
    return values != null && (values.contains(value) || values.contains("*"));
  }

  /** The request's resource attributes; empty for a discovery (non-resource) path. */
  public static Optional<Attributes> attributes(ApiRequest request) {
    String[] parts = request.resourcePath().replaceAll("^/+|/+$", "").split("/");
    int at;
    String group;
    if (parts.length >= 2 && parts[0].equals("api")) {
      group = "";
      at = 2; // api/v1/...
    } else if (parts.length >= 3 && parts[0].equals("apis")) {
      group = parts[1];
      at = 3; // apis/group/version/...
    } else {
      return Optional.empty();
    }
    List<String> rest = List.of(parts).subList(at, parts.length);
    String namespace = "";
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      namespace = rest.get(1);
      rest = rest.subList(2, rest.size());
    }
    if (rest.isEmpty()) {
      return Optional.empty();
    }
    String resource = rest.get(0);
    String name = rest.size() > 1 ? rest.get(1) : "";
    String subresource = rest.size() > 2 ? rest.get(2) : "";
    if (resource.equals("namespaces") && namespace.isEmpty() && rest.size() == 2) {
      name = rest.get(1); // GET /api/v1/namespaces/NAME: the Namespace itself
    }
    String verb = verb(request, name);
    if (name.isEmpty() && (verb.equals("list") || verb.equals("watch"))) {
      name = request.query("fieldSelector").flatMap(RbacRules::nameSelected).orElse("");
    }
    return Optional.of(new Attributes(verb, group, resource, subresource, namespace, name));
  }

  private static Optional<String> nameSelected(String fieldSelector) {
    for (String requirement : fieldSelector.split(",")) {
      String r = requirement.trim();
      for (String prefix : List.of("metadata.name==", "metadata.name=")) {
        if (r.startsWith(prefix)) {
          return Optional.of(r.substring(prefix.length()));
        }
      }
    }
    return Optional.empty();
  }

  private static String verb(ApiRequest request, String name) {
    return switch (request.method().toUpperCase(java.util.Locale.ROOT)) {
      case "GET", "HEAD" -> request.isWatch() ? "watch" : name.isEmpty() ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
      default -> Objects.requireNonNull(request.method()).toLowerCase(java.util.Locale.ROOT);
    };
  }
}
