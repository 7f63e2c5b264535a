package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.ListenerTLSConfig;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.SecretObjectReference;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TlsSecretData;
import io.holdfast.frontend.gatewayapi.ListenerState.Problem;
import io.holdfast.ir.Listener.DownstreamTls;
import io.holdfast.ir.Listener.TlsVersion;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Secret;
import io.holdfast.pki.Keys;
import io.holdfast.pki.Pem;
import io.holdfast.pki.PemException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The TLS of an HTTPS listener in Terminate mode: its {@code certificateRefs} name core-group Secrets (kind
 * {@code Secret}); one in another namespace needs a ReferenceGrant to the Gateway's namespace. Each Secret must
 * exist and hold a {@code tls.crt} chain and the {@code tls.key} of its first certificate (checked with the pki
 * module, as the Holdfast front end checks sslConfigs). The first reference is served (the IR holds one
 * certificate per listener); every reference is checked. Problems give the listener ResolvedRefs=False with
 * the specification's reasons: {@code InvalidCertificateRef}, {@code RefNotPermitted}.
 *
 * <p>Bad input never discards the last good certificate: when a Secret a listener served from turns invalid (no
 * {@code tls.crt} or {@code tls.key}, unreadable PEM, a key of another certificate), the listener keeps serving
 * the material it last served from that Secret ({@link LastGood}) and stays programmed, its ResolvedRefs=False
 * {@code InvalidCertificateRef} saying what is wrong and that the last good certificate is still served. A Secret
 * that is missing or not permitted is a reference problem, not bad material: the specification's outcome (the
 * listener is not served) applies, and its material is forgotten once the Secret is gone.
 */
final class CertificateRefs {

  static final String INVALID_CERTIFICATE_REF = "InvalidCertificateRef";
  static final String REF_NOT_PERMITTED = "RefNotPermitted";

  private CertificateRefs() {
  }

  /** The IR name of the certificate from Secret {@code key}: apart from the Holdfast front end's names. */
  static String secretName(ResourceKey key) {
    return "gateway-api/secret/" + key.namespace() + "/" + key.name();
  }

  /**
   * Fills {@code listener}'s TLS (and adds the IR secret to {@code secrets}) or records why it cannot serve.
   */
  static void resolve(ListenerState listener, ResourceKey gateway, GatewayConfig config, ReferenceGrants grants,
      LastGood memory, Map<String, Secret> secrets) {
    ListenerTLSConfig tls = listener.spec.getTls();
    String mode = tls == null || tls.getMode() == null ? "Terminate" : tls.getMode();
    if (!mode.equals("Terminate")) {
      listener.notAccepted = Optional.of(new Problem("UnsupportedValue",
          "an HTTPS listener terminates TLS; tls.mode " + mode + " needs protocol TLS", "tls.mode",
          mode.equals("Passthrough") ? "UnsupportedValue" : Findings.INVALID_ENUM));
      return;
    }
    List<SecretObjectReference> refs = tls == null || tls.getCertificateRefs() == null
        ? List.of() : tls.getCertificateRefs();
    if (refs.isEmpty()) {
      unusable(listener, new Problem(INVALID_CERTIFICATE_REF, "an HTTPS listener needs tls.certificateRefs",
          "tls.certificateRefs", Findings.MISSING_FIELD));
      return;
    }
    Optional<Secret> served = Optional.empty();
    for (int i = 0; i < refs.size(); i++) {
      Optional<Secret> secret = check(listener, i, refs.get(i), gateway, config, grants, memory);
      if (secret.isEmpty()) {
        return;
      }
      if (served.isEmpty()) {
        served = secret;
      }
    }
    Secret secret = served.orElseThrow();
    secrets.putIfAbsent(secret.name(), secret);
    listener.tls = Optional.of(new DownstreamTls(secret.name(), TlsVersion.TLS_1_2, Optional.empty(),
        List.of("h2", "http/1.1")));
  }

  private static Optional<Secret> check(ListenerState listener, int index, SecretObjectReference ref,
      ResourceKey gateway, GatewayConfig config, ReferenceGrants grants, LastGood memory) {
    String field = "tls.certificateRefs[" + index + "]";
    String group = ref.getGroup() == null ? "" : ref.getGroup();
    String kind = ref.getKind() == null ? TlsSecretData.SECRET_KIND : ref.getKind();
    if (!group.isEmpty() || !kind.equals(TlsSecretData.SECRET_KIND)) {
      unusable(listener, field, INVALID_CERTIFICATE_REF, field + " names a " + (group.isEmpty() ? "" : group + "/")
          + kind + "; only core Secrets hold certificates");
      return Optional.empty();
    }
    if (ref.getName() == null || ref.getName().isEmpty()) {
      unusable(listener, new Problem(INVALID_CERTIFICATE_REF, field + " needs the name of a Secret", field + ".name",
          Findings.MISSING_FIELD));
      return Optional.empty();
    }
    String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty()
        ? gateway.namespace() : ref.getNamespace();
    ResourceKey key = TlsSecretData.secretKey(namespace, ref.getName());
    if (!grants.permits(new ReferenceGrants.Reference(GatewayApiFrontEnd.GROUP, "Gateway", gateway.namespace(),
        "", TlsSecretData.SECRET_KIND, namespace, key.name()))) {
      unusable(listener, field, REF_NOT_PERMITTED, field + ": no ReferenceGrant in namespace " + namespace
          + " lets Gateways of namespace " + gateway.namespace() + " refer to Secret " + key.name());
      return Optional.empty();
    }
    Optional<TlsSecretData> data = config.secretOf(key);
    if (data.isEmpty()) {
      unusable(listener, field, INVALID_CERTIFICATE_REF, field + ": " + TlsSecretData.describe(key)
          + " does not exist");
      return Optional.empty();
    }
    Optional<String> bad = materialProblem(data.get(), TlsSecretData.describe(key));
    String origin = listener.field() + "." + field;
    if (bad.isEmpty()) {
      memory.servedMaterial(gateway, key, data.get());
      return Optional.of(secret(gateway, origin, key, data.get()));
    }
    Optional<TlsSecretData> lastGood = memory.material(gateway, key);
    if (lastGood.isEmpty()) {
      unusable(listener, field, INVALID_CERTIFICATE_REF, field + ": " + bad.get());
      return Optional.empty();
    }
    listener.unresolvedRefs = Optional.of(new Problem(INVALID_CERTIFICATE_REF, field + ": " + bad.get()
        + "; still serving the certificate last served from " + TlsSecretData.describe(key)
        + " until it is fixed", field));
    return Optional.of(secret(gateway, origin, key, lastGood.get()));
  }

  private static Secret secret(ResourceKey gateway, String field, ResourceKey key, TlsSecretData data) {
    return new Secret(Origin.of(gateway).at(field), secretName(key), new Secret.Content.CertificateAndKey(
        data.entries().get(TlsSecretData.TLS_CRT), data.entries().get(TlsSecretData.TLS_KEY)));
  }

  /** What is wrong with a Secret's material ({@code described} names it), if anything. */
  private static Optional<String> materialProblem(TlsSecretData data, String described) {
    String chainText = data.entries().getOrDefault(TlsSecretData.TLS_CRT, "");
    String keyText = data.entries().getOrDefault(TlsSecretData.TLS_KEY, "");
    if (chainText.isBlank() || keyText.isBlank()) {
      return Optional.of(described + " has no " + (chainText.isBlank() ? TlsSecretData.TLS_CRT
          : TlsSecretData.TLS_KEY) + " entry");
    }
    try {
      List<X509Certificate> chain = Pem.servingChain(chainText);
      PrivateKey privateKey = Pem.servingKey(keyText);
      if (!Keys.matches(privateKey, chain.get(0).getPublicKey())) {
        return Optional.of("the tls.key of " + described + " does not belong to its first certificate");
      }
    } catch (PemException e) {
      return Optional.of(described + ": " + e.getMessage());
    }
    return Optional.empty();
  }

  private static void unusable(ListenerState listener, String field, String reason, String message) {
    unusable(listener, new Problem(reason, message, field));
  }

  private static void unusable(ListenerState listener, Problem problem) {
    listener.certificateUnusable = true;
    listener.unresolvedRefs = Optional.of(problem);
  }
}
