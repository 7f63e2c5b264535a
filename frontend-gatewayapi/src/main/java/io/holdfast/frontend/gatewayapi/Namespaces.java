package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.holdfast.api.ApiObject;
import io.holdfast.api.ResourceKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The labels of the Namespaces a source delivered, for listeners whose allowedRoutes select namespaces by label.
 * A namespace the source did not deliver has no labels (file mode declares Namespaces only when selectors need
 * them).
 */
final class Namespaces {

  private final Map<String, Map<String, String>> labels;

  private Namespaces(Map<String, Map<String, String>> labels) {
    this.labels = Map.copyOf(labels);
  }

  static Namespaces of(List<ApiObject> objects) {
    Map<String, Map<String, String>> labels = new HashMap<>();
    for (ApiObject object : objects) {
      if (object.key().group().equals(ResourceKey.CORE_GROUP) && object.key().kind().equals("Namespace")) {
        Map<String, String> these = new HashMap<>();
        JsonNode node = object.at("/metadata/labels");
        node.properties().forEach(e -> these.put(e.getKey(), e.getValue().asString()));
        labels.put(object.key().name(), Map.copyOf(these));
      }
    }
    return new Namespaces(labels);
  }

  /** Whether {@code namespace}'s labels satisfy {@code selector} (Kubernetes' label selector semantics). */
  boolean selects(LabelSelector selector, String namespace) {
    Map<String, String> these = labels.getOrDefault(namespace, Map.of());
    Map<String, String> required = Optional.ofNullable(selector.getMatchLabels()).orElse(Map.of());
    if (!required.entrySet().stream().allMatch(e -> e.getValue().equals(these.get(e.getKey())))) {
      return false;
    }
    for (LabelSelectorRequirement requirement : Optional.ofNullable(selector.getMatchExpressions())
        .orElse(List.of())) {
      String value = these.get(requirement.getKey());
      List<String> values = Optional.ofNullable(requirement.getValues()).orElse(List.of());
      boolean ok = switch (String.valueOf(requirement.getOperator())) {
        case "In" -> value != null && values.contains(value);
        case "NotIn" -> value == null || !values.contains(value);
        case "Exists" -> value != null;
        case "DoesNotExist" -> value == null;
        default -> false; // an unknown operator selects nothing, as the API server would refuse it
      };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
