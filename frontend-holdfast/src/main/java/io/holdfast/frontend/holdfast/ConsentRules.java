package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayResource;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SslConfig;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.VirtualService;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TLS material an object names must be in its own namespace, or granted to it by a ReferenceGrant in the
 * Secret's namespace ({@link Consent}); each refused reference is an error ({@code RefNotPermitted}) on the field
 * naming it. The material of a refused reference is then not looked at, so the status of an object in one namespace
 * never tells whether another namespace's Secret exists or what it holds.
 */
final class ConsentRules {

  private ConsentRules() {
  }

  /** Whether {@code vs} may use every Secret its sslConfig names; reports the refusals. */
  static boolean sslConfig(VirtualService vs, SslConfig ssl, Consent consent, Ledger.Sink sink) {
    String namespace = vs.metadata().namespace();
    Map<String, List<ResourceKey>> named = new LinkedHashMap<>();
    named.put(ssl.certificate() instanceof SslConfig.CertificateSource.SecretRef ? "spec.sslConfig.secretRef"
        : "spec.sslConfig.files", ssl.certificateKeys(namespace));
    named.put("spec.sslConfig.clientCa", ssl.clientCaKeys(namespace));
    return permitted(vs, named, consent, sink);
  }

  /**
   * Whether {@code gateway} may use every Secret the {@code sslConfig} of its host {@code index} names; reports the
   * refusals on that host's fields.
   */
  static boolean tcpHostSsl(io.holdfast.api.TcpGateway gateway, int index, SslConfig ssl, Consent consent,
      Ledger.Sink sink) {
    String namespace = gateway.metadata().namespace();
    String field = "spec.hosts[" + index + "].sslConfig";
    Map<String, List<ResourceKey>> named = new LinkedHashMap<>();
    named.put(field + (ssl.certificate() instanceof SslConfig.CertificateSource.SecretRef ? ".secretRef" : ".files"),
        ssl.certificateKeys(namespace));
    named.put(field + ".clientCa", ssl.clientCaKeys(namespace));
    return permitted(gateway, named, consent, sink);
  }

  /** Whether {@code upstream} may use every Secret its spec.tls names; reports the refusals. */
  static boolean upstreamTls(Upstream upstream, UpstreamOptions.Tls tls, Consent consent, Ledger.Sink sink) {
    String namespace = upstream.metadata().namespace();
    Map<String, List<ResourceKey>> named = new LinkedHashMap<>();
    tls.trustedCa().ifPresent(ca -> named.put("spec.tls.trustedCa", List.of(ca.key(namespace))));
    tls.clientCertificate().ifPresent(source -> named.put("spec.tls.clientCertificate."
        + (source instanceof SslConfig.CertificateSource.SecretRef ? "secretRef" : "files"), source.keys(namespace)));
    return permitted(upstream, named, consent, sink);
  }

  /** Reports {@code RefNotPermitted} if {@code referrer} may not name {@code target}; true if it may. */
  static boolean reference(ResourceKey referrer, ResourceKey target, String field, Consent consent, Ledger ledger) {
    Optional<String> refusal = consent.reference(referrer, target);
    refusal.ifPresent(message -> ledger.error(referrer, field, Reasons.REF_NOT_PERMITTED, message));
    return refusal.isEmpty();
  }

  private static boolean permitted(GatewayResource referrer, Map<String, List<ResourceKey>> named, Consent consent,
      Ledger.Sink sink) {
    boolean all = true;
    for (Map.Entry<String, List<ResourceKey>> entry : named.entrySet()) {
      for (ResourceKey key : entry.getValue()) {
        Optional<String> refusal = consent.secret(referrer.key(), key);
        if (refusal.isPresent()) {
          sink.error(entry.getKey(), Reasons.REF_NOT_PERMITTED, refusal.get());
          all = false;
        }
      }
    }
    return all;
  }
}
