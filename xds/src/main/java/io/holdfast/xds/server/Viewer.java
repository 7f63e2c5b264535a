package io.holdfast.xds.server;

import java.util.Objects;

/**
 * Whose view of the snapshot a stream is served: everything (authorisation {@code none}) or one proxy's scope.
 *
 * @param everything true for the whole snapshot; then {@code proxyName} is empty
 * @param proxyName  the authenticated proxy name (see {@link ProxyIdentity}); non-empty unless {@code everything}
 */
record Viewer(boolean everything, String proxyName) {

  static final Viewer EVERYTHING = new Viewer(true, "");

  Viewer {
    Objects.requireNonNull(proxyName, "proxyName");
    if (everything != proxyName.isEmpty()) {
      throw new IllegalArgumentException("a viewer is everything or one named proxy");
    }
  }

  static Viewer proxy(String proxyName) {
    return new Viewer(false, proxyName);
  }

  /**
   * What this viewer is served of {@code snapshot}: the snapshot itself, or the proxy's view; null when the
   * snapshot has no scopes (built without them), which is served to no proxy.
   */
  IndexedSnapshot select(IndexedSnapshot snapshot) {
    return everything ? snapshot : snapshot.view(proxyName);
  }

  @Override
  public String toString() {
    return everything ? "*" : proxyName;
  }
}
