package io.holdfast.api;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One object of a config API other than Holdfast's own kinds, as its source delivered it: today the Kubernetes
 * Gateway API's kinds (GatewayClass, Gateway, HTTPRoute, GRPCRoute, ReferenceGrant) and the Namespaces their
 * route selectors read. The front end of that API parses the tree; this module only carries it, so {@code api}
 * stays free of any Kubernetes model library.
 *
 * @param key        group, kind, namespace and name, read from the document's apiVersion and metadata
 * @param generation {@code metadata.generation} (1 when the source has none, as for files)
 * @param body       the whole object as the API server (or the file) has it; a private copy, never mutated
 */
public record ApiObject(ResourceKey key, long generation, ObjectNode body) {

  public ApiObject {
    Objects.requireNonNull(key, "key");
    body = Objects.requireNonNull(body, "body").deepCopy();
  }

  /** The field at {@code path} (e.g. {@code /spec/hostnames}); a missing node if there is none. */
  public JsonNode at(String path) {
    return body.at(path);
  }

  /** A copy of the body, for callers that convert it into a model (conversion may not mutate ours). */
  public ObjectNode bodyCopy() {
    return body.deepCopy();
  }
}
