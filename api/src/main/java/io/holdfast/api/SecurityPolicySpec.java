package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The spec of Holdfast's Gateway API policy kind {@code SecurityPolicy} ({@code gateway.holdfast.io/v1}): the
 * objects it attaches to ({@code targetRefs}, GEP-713 policy attachment, same namespace only) and the security it
 * gives their routes, written as a VirtualService's {@code spec.options.security} ({@link SecurityOptions}). Its
 * objects travel as {@link ApiObject}s to the Gateway API front end, which resolves the targets.
 *
 * @param targetRefs none when route rules name the policy in ExtensionRef filters instead
 */
public record SecurityPolicySpec(List<TargetRef> targetRefs, SecurityOptions security) {

  public static final String KIND = "SecurityPolicy";
  public static final String PLURAL = "securitypolicies";
  /** The references this kind's spec may hold, as Envoy Gateway's SecurityPolicy bounds them. */
  public static final int MAX_TARGET_REFS = 16;

  private static final Set<String> SPEC = Set.of("targetRefs", "jwtProviders", "jwt", "rbac", "extAuthz",
      "basicAuth", "oauth2", "jwtAfterAuthz");
  private static final Set<String> TARGET = Set.of("group", "kind", "name", "sectionName");

  public SecurityPolicySpec {
    targetRefs = List.copyOf(targetRefs);
    Objects.requireNonNull(security, "security");
  }

  /** A Gateway, one of its listeners ({@code sectionName}) or a route, in the policy's namespace. */
  public record TargetRef(String group, String kind, String name, Optional<String> sectionName) {
    public TargetRef {
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(sectionName, "sectionName");
    }
  }

  /** Whether a document of {@code apiVersion} and {@code kind} is a SecurityPolicy. */
  public static boolean is(String apiVersion, String kind) {
    return apiVersion.equals(HoldfastKinds.API_VERSION) && kind.equals(KIND);
  }

  /** The spec, or empty with every problem found (each with its path under {@code spec}). */
  public static Optional<SecurityPolicySpec> parse(JsonNode spec, List<Problem> problems) {
    return Fields.of(spec, "spec", problems, SPEC).flatMap(fields -> {
      int before = problems.size();
      List<TargetRef> refs = new ArrayList<>();
      fields.list("targetRefs", false).ifPresent(elements -> {
        if (elements.size() > MAX_TARGET_REFS) {
          fields.problem(fields.path("targetRefs"), Reasons.INVALID_VALUE, "give at most " + MAX_TARGET_REFS
              + " targetRefs, got " + elements.size());
          return;
        }
        for (Fields.Element element : elements) {
          Fields.of(element.node(), element.path(), problems, TARGET).ifPresent(ref -> {
            Optional<String> name = ref.requiredString("name");
            Optional<String> kind = ref.requiredString("kind");
            String group = ref.string("group").orElse(ConfigLoader.GATEWAY_API_GROUP);
            Optional<String> section = ref.string("sectionName");
            name.ifPresent(n -> kind.ifPresent(k -> refs.add(new TargetRef(group, k, n, section))));
          });
        }
      });
      Optional<SecurityOptions> options = SecurityOptionsParser.read(fields);
      if (problems.size() != before || options.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new SecurityPolicySpec(refs, options.get()));
    });
  }
}
