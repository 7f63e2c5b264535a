package io.holdfast.frontend.gloo;

import io.holdfast.api.ResourceKey;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Replaces the object keys inside IR values (origins, cluster references, status keys) by a fixed mapping: the
 * Gloo front end lowers Gloo objects as the Holdfast kinds they read as, then gives every IR element and status
 * back to the Gloo object it came from. It walks records generically, component by component, so IR records
 * added later (other front ends' policies) are re-keyed too without this class knowing them; values that are not
 * records, collections, optionals or keys are kept as they are (strings, numbers, enums, durations, bytes).
 *
 * <p>Bounded by the value's own depth (IR values are trees of records, without cycles).
 */
final class Rekey {

  private final Map<ResourceKey, ResourceKey> keys;

  Rekey(Map<ResourceKey, ResourceKey> keys) {
    this.keys = Map.copyOf(keys);
  }

  @SuppressWarnings("unchecked")
  <T> T apply(T value) {
    return (T) walk(value);
  }

  private Object walk(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof ResourceKey key) {
      return keys.getOrDefault(key, key);
    }
    if (value instanceof Optional<?> optional) {
      return optional.map(this::walk);
    }
    if (value instanceof SortedMap<?, ?> map) {
      SortedMap<Object, Object> out = new TreeMap<>();
      map.forEach((k, v) -> out.put(walk(k), walk(v)));
      return java.util.Collections.unmodifiableSortedMap(out);
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(walk(k), walk(v)));
      return java.util.Collections.unmodifiableMap(out);
    }
    if (value instanceof SortedSet<?> set) {
      SortedSet<Object> out = new TreeSet<>();
      set.forEach(v -> out.add(walk(v)));
      return java.util.Collections.unmodifiableSortedSet(out);
    }
    if (value instanceof Set<?> set) {
      return java.util.Collections.unmodifiableSet(new java.util.LinkedHashSet<>(mapAll(set)));
    }
    if (value instanceof List<?> list) {
      return java.util.Collections.unmodifiableList(mapAll(list));
    }
    if (value instanceof Record record) {
      return record(record);
    }
    return value;
  }

  private List<Object> mapAll(Collection<?> values) {
    List<Object> out = new ArrayList<>(values.size());
    values.forEach(v -> out.add(walk(v)));
    return out;
  }

  private Object record(Record record) {
    RecordComponent[] components = record.getClass().getRecordComponents();
    Object[] args = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    boolean changed = false;
    try {
      for (int i = 0; i < components.length; i++) {
        java.lang.reflect.Method accessor = components[i].getAccessor();
        accessor.setAccessible(true);
        Object before = accessor.invoke(record);
        Object after = walk(before);
        changed |= before != after && !java.util.Objects.equals(before, after);
        args[i] = after;
        types[i] = components[i].getType();
      }
      if (!changed) {
        return record; // the same instance: the translator may reuse what it built for it
      }
      Constructor<?> canonical = record.getClass().getDeclaredConstructor(types);
      canonical.setAccessible(true);
      return canonical.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot re-key " + record.getClass().getName(), e);
    }
  }
}
