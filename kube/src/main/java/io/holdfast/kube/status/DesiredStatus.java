package io.holdfast.kube.status;

import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import io.holdfast.ir.ObjectStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * What one resource's status should say after a build: the validation verdict and, if a proxy rejected the
 * configuration built from it, the latest NACK. A Gateway API object's status is written from its full
 * {@link ObjectStatus} (conditions, listeners, route parents: see {@link GatewayApiStatusDocument}); Holdfast's own
 * kinds keep their one-condition document ({@link StatusDocument}) and have none.
 *
 * @param full the complete status, for Gateway API objects only
 */
public record DesiredStatus(ResourceStatus verdict, Optional<NackEvent> nack, Optional<ObjectStatus> full) {

  public DesiredStatus {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(nack, "nack");
    Objects.requireNonNull(full, "full");
  }

  /** A Holdfast kind's verdict and NACK. */
  public DesiredStatus(ResourceStatus verdict, Optional<NackEvent> nack) {
    this(verdict, nack, Optional.empty());
  }

  /** A verdict with no NACK. */
  public static DesiredStatus of(ResourceStatus verdict) {
    return new DesiredStatus(verdict, Optional.empty());
  }

  /** A Gateway API object's status, written as the Gateway API specifies. */
  public static DesiredStatus gatewayApi(ObjectStatus status) {
    return new DesiredStatus(ResourceStatus.of(status), Optional.empty(), Optional.of(status));
  }
}
