package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.util.Objects;

/**
 * Where an IR element came from: the object (kind, namespace, name) and the field path inside it, e.g.
 * {@code VirtualService/demo/web} at {@code spec.routes[2]}. Statuses and NACKs are attributed through it.
 *
 * @param field JSON path inside the object; empty for the whole object
 */
public record Origin(ResourceKey object, String field) implements Comparable<Origin> {

  public Origin {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(field, "field");
  }

  /** The whole object. */
  public static Origin of(ResourceKey object) {
    return new Origin(object, "");
  }

  /** A field of the same object, e.g. {@code of(key).at("spec.routes[2]")}. */
  public Origin at(String path) {
    return new Origin(object, field.isEmpty() ? path : field + "." + path);
  }

  @Override
  public int compareTo(Origin other) {
    int byObject = object.compareTo(other.object);
    return byObject != 0 ? byObject : field.compareTo(other.field);
  }

  /** {@code Kind/namespace/name} followed by {@code :field} when there is one. */
  @Override
  public String toString() {
    return field.isEmpty() ? object.toString() : object + ":" + field;
  }
}
