package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ResourceKey;
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
  record Unresolved(Reason reason, String message) implements BackendResolution {
    public Unresolved {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
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
