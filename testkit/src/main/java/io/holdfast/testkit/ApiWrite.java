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

  /** A write to a {@code /status} subresource. */
  public boolean isStatus() {
    return KubeApiDispatcher.isStatusPath(path);
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
   * This write as an entry of a {@link FencingAudit}: Lease writes and status writes only.
   *
   * @param writerOf maps a user agent to the replica identity that holds leases under that name
   */
  public Optional<FencingAudit.Entry> auditEntry(Function<String, String> writerOf) {
    if (isLease()) {
      return Optional.of(new FencingAudit.Entry(receivedNanos, writerOf.apply(userAgent), FencingAudit.Kind.LEASE,
          leaseHolder().orElse(""), succeeded()));
    }
    if (isStatus()) {
      return Optional.of(new FencingAudit.Entry(receivedNanos, writerOf.apply(userAgent), FencingAudit.Kind.STATUS,
          "", succeeded()));
    }
    return Optional.empty();
  }
}
