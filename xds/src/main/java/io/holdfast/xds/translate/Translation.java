package io.holdfast.xds.translate;

import io.holdfast.xds.model.ResourceKey;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The output of {@link Translator#translate}.
 *
 * @param snapshot every generated Envoy resource, versioned by content hash
 * @param origins  Envoy resource name to the Holdfast resource it was generated from (see {@link EnvoyNames}:
 *                 a name identifies its origin whatever its type), sorted by name; e.g. to attribute a NACK to a resource
 */
public record Translation(XdsSnapshot snapshot, Map<String, ResourceKey> origins) {

  public Translation {
    Objects.requireNonNull(snapshot, "snapshot");
    origins = Collections.unmodifiableSortedMap(new TreeMap<>(origins));
  }

  public Optional<ResourceKey> originOf(String envoyResourceName) {
    return Optional.ofNullable(origins.get(envoyResourceName));
  }
}
