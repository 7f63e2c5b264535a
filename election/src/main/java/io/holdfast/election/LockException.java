package io.holdfast.election;

/** A lock operation failed; {@link #cause()} classifies it for decisions and metrics. */
public final class LockException extends Exception {

  /** Why a lock call failed. The elector treats every cause as "try again later"; none ends the loop. */
  public enum Cause {
    /** The record changed since it was read (HTTP 409 on update). */
    CONFLICT,
    /** Create found the record already there (HTTP 409 on create). */
    ALREADY_EXISTS,
    /** The record to update no longer exists (HTTP 404 on update): a race with a deletion. */
    NOT_FOUND,
    /**
     * Create answered 404: the lease's namespace does not exist. A configuration error (a typo in the lease
     * namespace), not a race: the elector reports it as an error instead of retrying quietly.
     */
    NAMESPACE_NOT_FOUND,
    /** The call did not answer within the lock timeout. */
    TIMEOUT,
    /** The API could not be reached (refused, reset, DNS, TLS). */
    UNREACHABLE,
    /** The API refused the call (401/403). */
    FORBIDDEN,
    /** Anything else (5xx, malformed answers). */
    OTHER;

    /** Metric tag value. */
    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Cause cause;

  public LockException(Cause cause, String message, Throwable source) {
    super(message, source);
    this.cause = java.util.Objects.requireNonNull(cause, "cause");
  }

  public LockException(Cause cause, String message) {
    this(cause, message, null);
  }

  public Cause cause() {
    return cause;
  }
}
