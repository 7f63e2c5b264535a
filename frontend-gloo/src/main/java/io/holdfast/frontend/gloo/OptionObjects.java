package io.holdfast.frontend.gloo;

import io.holdfast.api.ResourceKey;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code VirtualHostOption} and {@code RouteOption} objects a config holds, for {@code optionsConfigRefs}:
 * Gloo merges each referenced object's {@code options} into the referring virtual host's or route's, shallowly,
 * field by field: a field set on the object itself wins, then the references in their order (the first one
 * setting a field wins). A missing reference is a warning in Gloo (so objects can be applied in any order); a
 * reference to an option object this front end rejected is an error on the referrer (its options would be
 * incomplete).
 */
final class OptionObjects {

  /** Each option object's {@code spec.options}, or empty when the object was rejected. */
  private final Map<ResourceKey, Optional<JsonNode>> options = new TreeMap<>();

  void put(ResourceKey key, Optional<JsonNode> value) {
    options.put(key, value);
  }

  /**
   * Merges the options of {@code owner}'s {@code optionsConfigRefs.delegateOptions} (objects of {@code kind}) into
   * {@code owner}'s {@code options}, reporting missing and rejected references at the reference.
   */
  void merge(Node owner, String kind, String defaultNamespace) {
    if (!owner.has("optionsConfigRefs") || !(owner.json instanceof ObjectNode target)) {
      return;
    }
    Node refs = owner.child("optionsConfigRefs").only("optionsConfigRefs", java.util.Set.of("delegateOptions"));
    for (Node ref : refs.list("delegateOptions")) {
      ref.only("options reference", java.util.Set.of("name", "namespace"));
      Optional<String> name = ref.requiredString("name");
      if (name.isEmpty()) {
        continue;
      }
      ResourceKey key = new ResourceKey(GlooKinds.GATEWAY_GROUP, kind, ref.string("namespace").orElse(defaultNamespace),
          name.get());
      Optional<JsonNode> found = options.get(key);
      if (found == null) {
        ref.warn(ref.path, "OptionsNotFound", kind + " " + key.namespace() + "/" + key.name()
            + " does not exist; served without its options until it does (as Gloo)");
        continue;
      }
      if (found.isEmpty()) {
        ref.error(ref.path, "OptionsRejected", kind + " " + key.namespace() + "/" + key.name()
            + " is rejected; see its status");
        continue;
      }
      ObjectNode merged = target.get("options") instanceof ObjectNode own ? own : target.putObject("options");
      for (String field : found.get().propertyNames()) {
        if (!merged.has(field)) {
          merged.set(field, found.get().get(field).deepCopy());
        }
      }
    }
  }
}
