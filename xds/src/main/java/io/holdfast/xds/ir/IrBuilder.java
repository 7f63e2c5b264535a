package io.holdfast.xds.ir;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects what the front ends lower for one build and produces the {@link Ir}. Not thread-safe: one pipeline
 * thread owns a builder for one build.
 */
public final class IrBuilder {

  private final List<Listener> listeners = new ArrayList<>();
  private final List<Cluster> clusters = new ArrayList<>();
  private final List<Secret> secrets = new ArrayList<>();

  public IrBuilder add(Cluster cluster) {
    clusters.add(cluster);
    return this;
  }

  public IrBuilder add(Listener listener) {
    listeners.add(listener);
    return this;
  }

  public IrBuilder add(Secret secret) {
    secrets.add(secret);
    return this;
  }

  public Ir build() {
    return new Ir(listeners, clusters, secrets);
  }
}
