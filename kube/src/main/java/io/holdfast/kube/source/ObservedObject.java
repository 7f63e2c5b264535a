package io.holdfast.kube.source;

import java.util.Objects;

/**
 * The Kubernetes metadata of one custom resource as the source last saw it, for writers that must address that
 * exact object: its {@code resourceVersion} (for conditional writes), {@code metadata.generation} (what a status
 * reports as observedGeneration) and {@code uid} (to tell a re-created object from the one that was read).
 *
 * @param resourceVersion never null; empty only if the API sent none
 * @param generation      0 if the API sent none
 * @param uid             never null; empty only if the API sent none
 */
public record ObservedObject(String resourceVersion, long generation, String uid) {

  public ObservedObject {
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    Objects.requireNonNull(uid, "uid");
    if (generation < 0) {
      throw new IllegalArgumentException("generation must not be negative: " + generation);
    }
  }
}
