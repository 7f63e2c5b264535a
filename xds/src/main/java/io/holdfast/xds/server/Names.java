package io.holdfast.xds.server;

import com.google.common.collect.Interner;
import com.google.common.collect.Interners;

/**
 * One shared instance per resource name a proxy subscribes to: every proxy names the same resources, and each
 * request parses its own copy of every name, which per-stream state would otherwise keep. Weakly held: a name
 * stays interned only while some stream's state (or a snapshot) still refers to it, so names no proxy asks for
 * any more are collected, and the table never stops sharing because it once filled up.
 */
final class Names {

  private static final Interner<String> SHARED = Interners.newWeakInterner();

  private Names() {
  }

  static String shared(String name) {
    return SHARED.intern(name);
  }
}
