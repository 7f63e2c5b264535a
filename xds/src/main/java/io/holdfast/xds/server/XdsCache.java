package io.holdfast.xds.server;

import io.holdfast.xds.snapshot.XdsSnapshot;
import java.util.Objects;
import java.util.Optional;

/**
 * The snapshot proxies are served, and the open xDS watches waiting for it to change. Thread-safe. A stream sees
 * the whole snapshot under authorisation {@code none}, or its proxy's view of it (the resources of its
 * {@link io.holdfast.xds.snapshot.ProxyScopes scope}, versioned by their own content hash) under
 * {@code proxy-identity}; a snapshot without scopes is served to no proxy.
 *
 * <p>Until the first {@link #setSnapshot} nothing is answered (an empty answer would delete a reconnecting
 * proxy's config); watches opened meanwhile are answered when it arrives. A snapshot stays served until
 * another with a different version replaces it. Serve it with {@link XdsServer}.
 */
public final class XdsCache {

  private final WatchRegistry watches = new WatchRegistry();

  /**
   * Makes {@code snapshot} the served one and pushes to streams whose answer changes.
   *
   * @return false, having done nothing, if the current snapshot has the same version
   */
  public boolean setSnapshot(XdsSnapshot snapshot) {
    return watches.publish(Objects.requireNonNull(snapshot, "snapshot"));
  }

  /** The snapshot being served; empty before the first {@link #setSnapshot}. */
  public Optional<XdsSnapshot> currentSnapshot() {
    return watches.current().map(IndexedSnapshot::snapshot);
  }

  /** The snapshot and open watches {@link DiscoveryService}'s streams use. */
  WatchRegistry registry() {
    return watches;
  }
}
