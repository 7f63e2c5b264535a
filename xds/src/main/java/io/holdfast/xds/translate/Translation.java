package io.holdfast.xds.translate;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Origin;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The output of {@link Translator#translate(io.holdfast.ir.Ir)}.
 *
 * @param snapshot      every generated Envoy resource, versioned by content hash
 * @param origins       Envoy resource name to the object it was generated from (see {@code EnvoyNames}: a name
 *                      identifies its origin whatever its type), sorted by name; e.g. to attribute a NACK to a
 *                      resource
 * @param fieldOrigins  the same names to the IR element's full origin, with the field path inside the object
 *                      (e.g. the API listener of a domain: {@code VirtualService/demo/web:spec.domains[1]}); its
 *                      objects are those of {@code origins}
 */
public record Translation(XdsSnapshot snapshot, Map<String, ResourceKey> origins, Map<String, Origin> fieldOrigins) {

  public Translation {
    Objects.requireNonNull(snapshot, "snapshot");
    origins = Collections.unmodifiableSortedMap(new TreeMap<>(origins));
    fieldOrigins = Collections.unmodifiableSortedMap(new TreeMap<>(fieldOrigins));
    // Both sorted by name: usually the same names, walked side by side rather than looked up one by one.
    Iterator<Map.Entry<String, ResourceKey>> objects = origins.size() == fieldOrigins.size()
        ? origins.entrySet().iterator() : null;
    for (Map.Entry<String, Origin> entry : fieldOrigins.entrySet()) {
      Map.Entry<String, ResourceKey> object = objects != null ? objects.next() : null;
      ResourceKey key = object != null && object.getKey().equals(entry.getKey()) ? object.getValue()
          : origins.get(entry.getKey());
      if (!entry.getValue().object().equals(key)) {
        throw new IllegalArgumentException("origin of " + entry.getKey() + " is " + key
            + " but its field origin is " + entry.getValue());
      }
    }
  }

  /** Origins without field paths (each name's origin is its whole object). */
  public Translation(XdsSnapshot snapshot, Map<String, ResourceKey> origins) {
    this(snapshot, origins, wholeObjects(origins));
  }

  public Optional<ResourceKey> originOf(String envoyResourceName) {
    return Optional.ofNullable(origins.get(envoyResourceName));
  }

  /** The object and field an Envoy resource was generated from. */
  public Optional<Origin> fieldOriginOf(String envoyResourceName) {
    return Optional.ofNullable(fieldOrigins.get(envoyResourceName));
  }

  private static Map<String, Origin> wholeObjects(Map<String, ResourceKey> origins) {
    Map<String, Origin> whole = new TreeMap<>();
    origins.forEach((name, key) -> whole.put(name, Origin.of(key)));
    return whole;
  }
}
