package io.holdfast.xds.server;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a SotW request asks: a type and the resource names (in request order). A watch keeps only this (not the
 * request, whose parsed names are a copy per stream) and it is interned, so thousands of proxies asking the same
 * question share one instance and the per-snapshot answer memo is found by identity. Immutable.
 */
final class SotwQuestion {

  /** Distinct questions interned; beyond this new ones are used uninterned (correct, just not shared). */
  private static final int MAX_INTERNED = 4096;
  private static final Map<SotwQuestion, SotwQuestion> INTERNED = new ConcurrentHashMap<>();

  private final String typeUrl;
  private final List<String> names;
  private final int hash;

  private SotwQuestion(String typeUrl, List<String> names) {
    this.typeUrl = typeUrl;
    this.names = names;
    this.hash = 31 * typeUrl.hashCode() + names.hashCode();
  }

  /** The shared instance for {@code typeUrl} and {@code names}. */
  static SotwQuestion of(String typeUrl, List<String> names) {
    SotwQuestion probe = new SotwQuestion(typeUrl, names);
    SotwQuestion known = INTERNED.get(probe);
    if (known != null) {
      return known;
    }
    SotwQuestion copy = new SotwQuestion(typeUrl.intern(), List.copyOf(names));
    if (INTERNED.size() >= MAX_INTERNED) {
      return copy;
    }
    known = INTERNED.putIfAbsent(copy, copy);
    return known == null ? copy : known;
  }

  String typeUrl() {
    return typeUrl;
  }

  List<String> names() {
    return names;
  }

  @Override
  public boolean equals(Object o) {
    return this == o || (o instanceof SotwQuestion q && hash == q.hash && typeUrl.equals(q.typeUrl)
        && names.equals(q.names));
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return TypeUrls.shortName(typeUrl) + Objects.toString(names);
  }
}
