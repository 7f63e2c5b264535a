package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.PolicyKinds;
import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;

/**
 * Which routes name which Holdfast policy through an {@code ExtensionRef} filter (on a rule or on one of its
 * backendRefs), read from the routes as written, before they are lowered: the policies' statuses list those routes as
 * ancestors, and a policy without {@code targetRefs} is in use only through them. Whether the reference is honoured
 * (the route attaches, the filter is valid) is the route's status.
 *
 * <p>Bounded by the Gateway API schema's own limits: at most {@link #MAX_RULES} rules, {@link #MAX_FILTERS} filters
 * per list and {@link #MAX_BACKEND_REFS} backendRefs per rule are scanned. The API server refuses more; a file
 * source may hold more, whose references beyond the bounds still apply to their rules but do not list the route
 * among the policy's ancestors.
 */
final class ExtensionRefs {

  /** The policy kinds an ExtensionRef filter may name, all in {@link PolicyKinds#GROUP}. */
  static final Set<String> KINDS = Set.of(PolicyKinds.SECURITY_POLICY, PolicyKinds.TRAFFIC_POLICY);
  /** The HTTPRoute schema's maxItems for rules. */
  static final int MAX_RULES = 16;
  /** The schema's maxItems for filters. */
  static final int MAX_FILTERS = 16;
  /** The schema's maxItems for backendRefs. */
  static final int MAX_BACKEND_REFS = 16;
  static final String TYPE = "ExtensionRef";

  private ExtensionRefs() {
  }

  /** Each policy named by some route's ExtensionRef filter, with the routes that name it. */
  static Map<ResourceKey, SortedSet<ResourceKey>> users(List<ApiObject> objects) {
    Map<ResourceKey, SortedSet<ResourceKey>> users = new TreeMap<>();
    for (ApiObject route : objects) {
      String kind = route.key().kind();
      if (!kind.equals(GatewayApiKinds.HTTP_ROUTE.kind()) && !kind.equals(GatewayApiKinds.GRPC_ROUTE.kind())) {
        continue;
      }
      JsonNode rules = route.at("/spec/rules");
      for (int i = 0; rules.isArray() && i < rules.size() && i < MAX_RULES; i++) {
        JsonNode rule = rules.get(i);
        scan(rule.path("filters"), route.key(), users);
        JsonNode refs = rule.path("backendRefs");
        for (int j = 0; refs.isArray() && j < refs.size() && j < MAX_BACKEND_REFS; j++) {
          scan(refs.get(j).path("filters"), route.key(), users);
        }
      }
    }
    return users;
  }

  private static void scan(JsonNode filters, ResourceKey route, Map<ResourceKey, SortedSet<ResourceKey>> users) {
    for (int k = 0; filters.isArray() && k < filters.size() && k < MAX_FILTERS; k++) {
      JsonNode filter = filters.get(k);
      JsonNode ref = filter.path("extensionRef");
      String kind = ref.path("kind").asString("");
      String name = ref.path("name").asString("");
      if (filter.path("type").asString("").equals(TYPE) && ref.path("group").asString("").equals(PolicyKinds.GROUP)
          && KINDS.contains(kind) && !name.isEmpty()) {
        users.computeIfAbsent(new ResourceKey(PolicyKinds.GROUP, kind, route.namespace(), name),
            k2 -> new TreeSet<>()).add(route);
      }
    }
  }
}
