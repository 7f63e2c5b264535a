package io.holdfast.kube.status;

import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.Condition;
import io.holdfast.ir.NackEvent;
import io.holdfast.ir.ObjectStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one resource's status should say after a build: the validation verdict and, if a proxy rejected the
 * configuration built from it, the latest NACK. A Gateway API object's status is written from its full
 * {@link ObjectStatus} (conditions, listeners, route parents: see {@link GatewayApiStatusDocument}); Holdfast's own
 * kinds keep their one-condition document ({@link StatusDocument}) and have none.
 *
 * @param full      the complete status, for Gateway API objects only
 * @param addresses a Gateway API Gateway's {@code status.addresses} ({@link GatewayAddresses}); empty for others,
 *                  and for a Gateway when none are known (its addresses are then left as they are)
 */
public record DesiredStatus(ResourceStatus verdict, Optional<NackEvent> nack, Optional<ObjectStatus> full,
    List<GatewayAddresses.Address> addresses) {

  /** Reason of a Gateway's Programmed=False while a proxy rejects its config (the specification's reason). */
  public static final String NACKED_REASON = "Invalid";

  public DesiredStatus {
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(nack, "nack");
    Objects.requireNonNull(full, "full");
    addresses = List.copyOf(addresses);
  }

  public DesiredStatus(ResourceStatus verdict, Optional<NackEvent> nack, Optional<ObjectStatus> full) {
    this(verdict, nack, full, List.of());
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

  /** A Gateway API object's status; a Gateway's with {@code addresses} (others ignore them). */
  public static DesiredStatus gatewayApi(ObjectStatus status, List<GatewayAddresses.Address> addresses) {
    return gatewayApi(status, addresses, Optional.empty());
  }

  /**
   * As above, with the latest NACK of what the object generated: a Gateway a proxy rejects is not programmed (the
   * specification: Programmed means its config is in the data plane; the proxy keeps the last version it accepted),
   * so its Programmed condition is False with reason {@value #NACKED_REASON} until a build the proxies accept.
   */
  public static DesiredStatus gatewayApi(ObjectStatus status, List<GatewayAddresses.Address> addresses,
      Optional<NackEvent> nack) {
    boolean gateway = status.key().kind().equals("Gateway");
    ObjectStatus full = status;
    if (gateway && nack.isPresent() && status.conditions().stream()
        .anyMatch(c -> c.type().equals(Condition.PROGRAMMED) && c.status() != Condition.Status.FALSE)) {
      NackEvent n = nack.get();
      full = status.withCondition(new Condition(Condition.PROGRAMMED, Condition.Status.FALSE, NACKED_REASON,
          "proxy " + (n.nodeId().isEmpty() ? "(no node id)" : n.nodeId()) + " rejected version "
              + n.rejectedVersion() + " and keeps serving the last version it accepted: " + n.errorDetail(),
          status.observedGeneration()));
    }
    return new DesiredStatus(ResourceStatus.of(status), Optional.empty(), Optional.of(full),
        gateway ? addresses : List.of());
  }
}
