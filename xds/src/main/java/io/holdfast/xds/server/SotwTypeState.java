package io.holdfast.xds.server;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one SotW stream knows about one resource type: what was sent under which nonce, what the proxy accepted,
 * and which response it rejected. Thread-safe (every method synchronises on this object and calls out to
 * nothing), so it can be used from request threads, the snapshot publisher and response callbacks.
 *
 * <p>A NACK makes the proxy's state for the type unknown: gRPC clients (gRFC A46) and Envoy apply the valid
 * resources of a response they reject. So after a NACK the next answer is sent whatever it equals (a revert to
 * what the proxy ACKed before included), and the rejected response itself is not sent again until the snapshot
 * moves on.
 */
final class SotwTypeState {

  /** Nonces remembered; the server only honours replies to the latest one, a few spare cover races. */
  private static final int REMEMBERED_NONCES = 8;

  /**
   * One response: its version (the served view's), its {@link SotwPlan#key()} and resource names, and the
   * version of the whole snapshot it was served from ({@code sourceVersion}; the same as {@code version} when the
   * stream sees everything), which is what a NACK of it reports, so statuses attribute it to the build.
   */
  record Sent(String version, String key, List<String> names, String sourceVersion) {

    Sent(String version, String key, List<String> names) {
      this(version, key, names, version);
    }
  }

  private static final class Tracked {
    final Sent sent;
    boolean nacked;

    Tracked(Sent sent) {
      this.sent = sent;
    }
  }

  private final Map<String, Tracked> byNonce = new LinkedHashMap<>(16, 0.75f, false) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Tracked> eldest) {
      return size() > REMEMBERED_NONCES;
    }
  };
  /** The last answer the proxy ACKed; null when unknown (fresh subscription, or since a NACK). */
  private Sent accepted;
  /** The response the proxy NACKed, held back while the snapshot is still the version it came from. */
  private Sent rejected;
  /** The version of the last response the proxy ACKed, kept through NACKs (for display; null before one). */
  private String ackedVersion;
  /** The version of the last response sent (for display; null before one). */
  private String sentVersion;

  /** Classifies a request from the proxy and updates what it has accepted or rejected. */
  synchronized Reply onRequest(DiscoveryRequest request) {
    String nonce = request.getResponseNonce();
    Tracked tracked = nonce.isEmpty() ? null : byNonce.get(nonce);
    if (nonce.isEmpty()) {
      // A fresh subscription: whatever it had is unknown to us, so it gets a full answer.
      accepted = null;
    }
    if (!request.hasErrorDetail()) {
      // An ACK carries the version it accepts; a later request after a NACK carries the older version and
      // the same nonce (Envoy sends error_detail once), which accepts nothing.
      if (tracked != null && request.getVersionInfo().equals(tracked.sent.version())) {
        accepted = tracked.sent;
        ackedVersion = tracked.sent.version();
      }
      return Reply.OK;
    }
    if (tracked == null) {
      accepted = null; // it rejected something we cannot identify: what it holds is unknown
      return Reply.nack("", request.getResourceNamesList());
    }
    if (tracked.nacked) {
      return Reply.REPEATED_NACK;
    }
    tracked.nacked = true;
    accepted = null;
    rejected = tracked.sent;
    return Reply.nack(tracked.sent.sourceVersion(), tracked.sent.names());
  }

  /** The snapshot version of the last response the proxy ACKed; null if it has ACKed none on this stream. */
  synchronized String ackedVersion() {
    return ackedVersion;
  }

  /**
   * Whether {@code plan}, the answer from the current snapshot, should be sent now. Never while it is the
   * response this stream rejected and the snapshot is still that version; otherwise when the proxy has not
   * accepted exactly this answer (after a NACK nothing counts as accepted), or when {@code forceEndpoints}
   * (Envoy re-requests EDS after a CDS push and a re-created cluster stays warming until it gets an answer).
   * Callers pass the current snapshot, so a different version means the snapshot moved on since the NACK and
   * the rejected response is no longer held back, even if the snapshot later returns to its version.
   */
  synchronized boolean shouldSend(SotwPlan plan, String snapshotVersion, boolean forceEndpoints) {
    if (rejected != null) {
      if (!snapshotVersion.equals(rejected.version())) {
        rejected = null;
      } else if (rejected.key() == null || plan.key().equals(rejected.key())) {
        return false;
      }
      // Same version, other question (the proxy asked for other names): not the rejected response.
    }
    if (forceEndpoints) {
      return true;
    }
    return accepted == null || !plan.key().equals(accepted.key());
  }

  /** Records that {@code sent} went out under {@code nonce}. */
  synchronized void sent(Sent sent, String nonce) {
    byNonce.put(nonce, new Tracked(sent));
    sentVersion = sent.version();
  }

  /**
   * The version of the last response sent on this stream; null before one. A type whose content did not change is
   * not sent again, so this, not the snapshot's version, is what an in-sync proxy has ACKed.
   */
  synchronized String sentVersion() {
    return sentVersion;
  }
}
