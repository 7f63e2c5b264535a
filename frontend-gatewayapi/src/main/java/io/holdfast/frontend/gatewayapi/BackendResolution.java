package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Origin;
import java.util.Objects;

/** The outcome of {@link Backends#resolve}: a cluster to send to, or why there is none. */
public sealed interface BackendResolution {

  /** The IR cluster (by its identity) that serves the reference. */
  record Resolved(ResourceKey cluster) implements BackendResolution {
    public Resolved {
      Objects.requireNonNull(cluster, "cluster");
    }
  }

  /**
   * The reference cannot be used; the route gets ResolvedRefs=False with {@code reason}, and its share of the
   * traffic is answered with 500.
   */
  record Unresolved(Reason reason, String message, String finding) implements BackendResolution {
    public Unresolved {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
      Objects.requireNonNull(finding, "finding");
    }

    /** Reported under the condition's reason. */
    public Unresolved(Reason reason, String message) {
      this(reason, message, reason.reason());
    }

    /** The route's finding for it, at {@code origin}. */
    ResolvedRefsProblem problem(Origin origin) {
      return new ResolvedRefsProblem(reason.reason(), message, origin, finding);
    }
  }

  /** The specification's ResolvedRefs reasons for a backend, spelled as in the status. */
  enum Reason {
    BACKEND_NOT_FOUND("BackendNotFound"),
    REF_NOT_PERMITTED("RefNotPermitted"),
    INVALID_KIND("InvalidKind"),
    UNSUPPORTED_PROTOCOL("UnsupportedProtocol");

    private final String reason;

    Reason(String reason) {
      this.reason = reason;
    }

    /** The condition reason. */
    public String reason() {
      return reason;
    }
  }
}
