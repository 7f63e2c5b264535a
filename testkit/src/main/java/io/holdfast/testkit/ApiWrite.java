package io.holdfast.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One write (any method but GET) as the emulated API received it, for auditing who wrote what and when.
 *
 * @param receivedNanos   {@link System#nanoTime()} when the API handled it; writes are handled one at a time, so
 *                        this order is the order in which they took effect
 * @param userAgent       the client's {@code User-Agent}, empty if it sent none
 * @param resourceVersion {@code metadata.resourceVersion} the body carried, or null
 * @param code            the HTTP status the API answered
 * @param body            the request body as sent
 */
public record ApiWrite(long receivedNanos, String userAgent, String method, String path, String resourceVersion,
    int code, String body) {

  private static final String LEASES = "/apis/coordination.k8s.io/v1/namespaces/";

  public boolean succeeded() {
    return code >= 200 && code < 300;
  }

  /**
   * A status write: to a {@code /status} subresource, or a PUT of a whole object of a kind that keeps its status in
   * the object ({@link #isStatusInObjectKind()}: Gloo Edge's) sent by any client but the test's
   * {@link MockKubeApi#admin()} (set-up edits of such objects are not status writes).
   */
  public boolean isStatus() {
    return isStatus(method, path, userAgent);
  }

  /** As {@link #isStatus()}, for a request before it is answered (to fail it on purpose). */
  static boolean isStatus(String method, String path, String userAgent) {
    return isStatusWrite(method, path) && (KubeApiDispatcher.isStatusPath(path)
        || !MockKubeApi.ADMIN_USER_AGENT.equals(userAgent));
  }

  /**
   * Whether a write sets a status, by its method and path (query allowed) alone, whoever sent it: a write to a
   * {@code /status} subresource, or a PUT of a whole Gloo Edge object ({@link #isStatusInObjectKind()}). For any
   * record of the API's writes, e.g. {@link MockKubeApiMain}'s; who may send it is the fencing audit's question.
   */
  public static boolean isStatusWrite(String method, String path) {
    return KubeApiDispatcher.isStatusPath(path)
        || (method.equalsIgnoreCase("PUT") && KubeApiDispatcher.isStatusInObjectPath(path));
  }

  /**
   * A write to an object of a Gloo Edge kind (groups {@code gateway.solo.io}, {@code gloo.solo.io},
   * {@code enterprise.gloo.solo.io}): their definitions have no {@code /status} subresource, so Holdfast writes
   * their statuses by a resourceVersion-guarded PUT of the whole object.
   */
  public boolean isStatusInObjectKind() {
    return KubeApiDispatcher.isStatusInObjectPath(path);
  }

  /** A write to a coordination.k8s.io Lease (create, update, patch or delete). */
  public boolean isLease() {
    String p = KubeApiDispatcher.withoutQuery(path);
    return p.startsWith(LEASES) && p.contains("/leases");
  }

  /**
   * The holder a Lease write sets: {@code spec.holderIdentity}, empty for a release (no or empty holder) and for a
   * delete. Empty for other writes.
   */
  public Optional<String> leaseHolder() {
    if (!isLease() || method.equalsIgnoreCase("DELETE") || body == null || body.isBlank()) {
      return Optional.empty();
    }
    GenericKubernetesResource lease = Serialization.unmarshal(body, GenericKubernetesResource.class);
    Object spec = lease.getAdditionalProperties().get("spec");
    Object holder = spec instanceof Map<?, ?> m ? m.get("holderIdentity") : null;
    return holder instanceof String s && !s.isEmpty() ? Optional.of(s) : Optional.empty();
  }

  /**
   * This write as an entry of a {@link FencingAudit}, classified by who sent it and what it is, not by its path's
   * suffix alone: a Lease write (from anyone: the holder it sets is read off its body) is a {@link
   * FencingAudit.Kind#LEASE LEASE} entry; every other write a replica sends is a leader-only ({@link
   * FencingAudit.Kind#STATUS STATUS}) entry, because a replica writes nothing else (a status through a
   * {@code /status} subresource, or through the whole object for Gloo Edge's kinds); writes by anyone else (test
   * set-up, an operator) are not audited.
   *
   * @param replicaOf the replica identity behind a user agent (the one it holds leases under), empty for a client
   *                  that is not a replica; e.g. {@link #replicasByPrefix}
   */
  public Optional<FencingAudit.Entry> auditEntry(Function<String, Optional<String>> replicaOf) {
    Optional<String> replica = replicaOf.apply(userAgent);
    if (isLease()) {
      return Optional.of(new FencingAudit.Entry(receivedNanos, replica.orElse(userAgent), FencingAudit.Kind.LEASE,
          leaseHolder().orElse(""), succeeded()));
    }
    return replica.map(writer -> new FencingAudit.Entry(receivedNanos, writer, FencingAudit.Kind.STATUS, "",
        succeeded()));
  }

  /**
   * Replicas named by their user agent: {@code <prefix><identity>} is replica {@code identity} (Holdfast sends
   * {@code holdfast/<identity>}); any other user agent is not a replica.
   */
  public static Function<String, Optional<String>> replicasByPrefix(String prefix) {
    return agent -> agent.startsWith(prefix) && agent.length() > prefix.length()
        ? Optional.of(agent.substring(prefix.length())) : Optional.empty();
  }
}
