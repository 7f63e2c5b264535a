package io.holdfast.xds.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One shared instance per resource name a proxy subscribes to: every proxy names the same resources, and each
 * request parses its own copy of every name, which per-stream state would otherwise keep. Bounded: past
 * {@link #MAX} names, new ones are kept as given (correct, just not shared).
 */
final class Names {

  private static final int MAX = 1 << 16;
  private static final Map<String, String> SHARED = new ConcurrentHashMap<>();

  private Names() {
  }

  static String shared(String name) {
    String known = SHARED.get(name);
    if (known != null) {
      return known;
    }
    if (SHARED.size() >= MAX) {
      return name;
    }
    known = SHARED.putIfAbsent(name, name);
    return known == null ? name : known;
  }
}
