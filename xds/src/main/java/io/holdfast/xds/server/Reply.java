package io.holdfast.xds.server;

import java.util.List;

/**
 * How a proxy's request relates to what this stream sent before.
 *
 * @param kind            what the request was
 * @param rejectedVersion for {@link Kind#NACK}: the version of the rejected response, empty if unknown
 * @param rejectedNames   for {@link Kind#NACK}: the resources in the rejected response
 */
record Reply(Kind kind, String rejectedVersion, List<String> rejectedNames) {

  enum Kind {
    /** A first request, a subscription change or an ACK: nothing to report. */
    OK,
    /** A rejection not reported before: count, log and tell the listener. */
    NACK,
    /** The same rejection again (same nonce): already reported. */
    REPEATED_NACK,
    /** A delta ACK of a nonce never sent or already answered: a protocol error. */
    UNKNOWN_NONCE
  }

  static final Reply OK = new Reply(Kind.OK, "", List.of());
  static final Reply REPEATED_NACK = new Reply(Kind.REPEATED_NACK, "", List.of());
  static final Reply UNKNOWN_NONCE = new Reply(Kind.UNKNOWN_NONCE, "", List.of());

  static Reply nack(String rejectedVersion, List<String> rejectedNames) {
    return new Reply(Kind.NACK, rejectedVersion, List.copyOf(rejectedNames));
  }
}
