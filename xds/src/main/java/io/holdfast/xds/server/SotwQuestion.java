package io.holdfast.xds.server;

import com.google.common.collect.Interner;
import com.google.common.collect.Interners;
import java.util.List;
import java.util.Objects;

/**
 * What a SotW request asks: a type and the resource names (in request order). A watch keeps only this (not the
 * request, whose parsed names are a copy per stream) and it is interned, so thousands of proxies asking the same
 * question share one instance and the per-snapshot answer memo is found by identity. Interned weakly: a question
 * stays in the table only while a watch, a stream's state or the answer memo of a live snapshot refers to it, so
 * questions no proxy asks any more are collected (they used to stay forever, and past 4,096 of them nothing was
 * shared again). Immutable.
 */
final class SotwQuestion {

  private static final Interner<SotwQuestion> INTERNED = Interners.newWeakInterner();

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
    // The request's own list is copied (and its names shared) only for a question not asked before.
    return INTERNED.intern(new SotwQuestion(typeUrl.intern(), List.copyOf(names)));
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
