package io.holdfast.kube.status;

import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import java.util.Objects;
import java.util.Optional;

/**
 * What one resource's status should say after a build: the validation verdict and, if a proxy rejected the
 * configuration built from it, the latest NACK.
 */
public record DesiredStatus(ResourceStatus verdict, Optional<NackEvent> nack) {

  public DesiredStatus {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(nack, "nack");
  }

  /** A verdict with no NACK. */
  public static DesiredStatus of(ResourceStatus verdict) {
    return new DesiredStatus(verdict, Optional.empty());
  }
}
