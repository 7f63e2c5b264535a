package io.holdfast.frontend.holdfast;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SslConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Finding;
import io.holdfast.pki.Keys;
import io.holdfast.pki.Pem;
import io.holdfast.pki.PemException;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of a VirtualService's {@code sslConfig} and of the TLS material it, or an Upstream's {@code spec.tls},
 * names. The material must be there ({@code SecretNotFound}); parse as a certificate chain and one private key, or a
 * CA bundle, with nothing but CERTIFICATE blocks in a chain or bundle, and a key type Envoy serves with (RSA of 2048
 * bits or more, ECDSA on P-256, P-384 or P-521) for the key and the leaf, as pki's {@code Pem.servingChain},
 * {@code Pem.caBundle} and {@code Pem.servingKey} check ({@code InvalidCertificate}); and the key must belong to the leaf certificate
 * ({@code KeyMismatch}): each is an error. A certificate outside its validity period is only a warning
 * ({@code CertificateNotValidNow}): refusing it would turn an expiry into a config rejection on top of the expiry, and clients decide whether they accept it.
 * Messages name the Secret or file and the entry, never the content. Pure apart from reading {@code now}.
 */
final class TlsRules {

  /** What SNI can carry: a lower-case DNS name, optionally {@code *.} in front. */
  private static final Pattern SNI_NAME = Pattern.compile(
      "(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern PORT_SUFFIX = Pattern.compile(":[0-9]+$");

  private TlsRules() {
  }

  /** The parsed material of a certificate source, or the findings that stop it from serving. */
  record Material(Optional<X509Certificate> leaf, List<Finding> findings) {
    boolean usable() {
      return findings.stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR);
    }
  }

  static void check(VirtualService vs, SslConfig ssl, GatewayConfig config, Instant now, Ledger.Sink sink) {
    checkServerNames(ssl, sink);
    report(materialFindings(ssl, vs.metadata().namespace(), config, now), sink);
  }

  /** The sslConfig's own {@code sniDomains}, without the material it names. */
  static void checkServerNames(SslConfig ssl, Ledger.Sink sink) {
    if (ssl.sniDomains().isPresent()) {
      List<String> names = ssl.sniDomains().get();
      Set<String> seen = new LinkedHashSet<>();
      for (int i = 0; i < names.size(); i++) {
        String field = "spec.sslConfig.sniDomains[" + i + "]";
        String name = names.get(i);
        if (!SNI_NAME.matcher(name).matches() || name.length() > 253 || Syntax.isIpAddress(name)) {
          sink.error(field, Reasons.INVALID_SNI_DOMAIN, "\"" + name + "\" is not a TLS server name (a lower-case"
              + " host name, optionally starting with \"*.\"; no port, no IP address)");
        } else if (!seen.add(name)) {
          sink.error(field, Reasons.INVALID_SNI_DOMAIN, "server name \"" + name + "\" is listed twice");
        }
      }
    }
  }

  /** Everything wrong with the material {@code ssl} names, as found in {@code config}. */
  static List<Finding> materialFindings(SslConfig ssl, String namespace, GatewayConfig config, Instant now) {
    List<Finding> findings = new ArrayList<>(certificate(ssl, namespace, config, now).findings());
    ssl.clientCa().ifPresent(ca -> findings.addAll(trustedCa(ca.key(namespace), "spec.sslConfig.clientCa", config,
        now)));
    return findings;
  }

  /**
   * Everything wrong with the material the {@code sslConfig} of a TcpGateway's host {@code index} names: the same
   * checks and reasons as a VirtualService's, reported on {@code spec.hosts[index].sslConfig}.
   */
  static List<Finding> materialFindings(io.holdfast.api.TcpGateway gateway, int index, SslConfig ssl,
      GatewayConfig config, Instant now) {
    String field = "spec.hosts[" + index + "].sslConfig";
    return materialFindings(ssl, gateway.metadata().namespace(), config, now).stream()
        .map(f -> new Finding(f.severity(), f.field().startsWith("spec.sslConfig")
            ? field + f.field().substring("spec.sslConfig".length()) : f.field(), f.reason(), f.message()))
        .toList();
  }

  /** Everything wrong with the material every TLS-terminating host of {@code gateway} names. */
  static List<Finding> materialFindings(io.holdfast.api.TcpGateway gateway, GatewayConfig config, Instant now) {
    List<Finding> findings = new ArrayList<>();
    for (int i = 0; i < gateway.hosts().size(); i++) {
      int index = i;
      gateway.hosts().get(i).sslConfig().ifPresent(ssl ->
          findings.addAll(materialFindings(gateway, index, ssl, config, now)));
    }
    return findings;
  }

  /**
   * Everything wrong with the material an Upstream's {@code spec.tls} names ({@code trustedCa},
   * {@code clientCertificate}), as found in {@code config}: the same checks and reasons as a listener's.
   */
  static List<Finding> materialFindings(UpstreamOptions.Tls tls, String namespace, GatewayConfig config,
      Instant now) {
    List<Finding> findings = new ArrayList<>();
    tls.trustedCa().ifPresent(ca -> findings.addAll(trustedCa(ca.key(namespace), "spec.tls.trustedCa", config,
        now)));
    tls.clientCertificate().ifPresent(source -> findings.addAll(certificate(source.keys(namespace),
        "spec.tls.clientCertificate." + (source instanceof SslConfig.CertificateSource.SecretRef ? "secretRef"
            : "files"), config, now).findings()));
    return findings;
  }

  /** Reports each finding to {@code sink} with its own severity. */
  static void report(List<Finding> findings, Ledger.Sink sink) {
    findings.forEach(f -> {
      if (f.severity() == Finding.Severity.ERROR) {
        sink.error(f.field(), f.reason(), f.message());
      } else {
        sink.warn(f.field(), f.reason(), f.message());
      }
    });
  }

  static Material certificate(SslConfig ssl, String namespace, GatewayConfig config, Instant now) {
    String field = ssl.certificate() instanceof SslConfig.CertificateSource.SecretRef
        ? "spec.sslConfig.secretRef" : "spec.sslConfig.files";
    return certificate(ssl.certificateKeys(namespace), field, config, now);
  }

  /**
   * A certificate chain and its private key: under one Secret's key, or the chain file's and the key file's keys
   * ({@link SslConfig.CertificateSource#keys}).
   */
  static Material certificate(List<ResourceKey> keys, String field, GatewayConfig config, Instant now) {
    List<Finding> findings = new ArrayList<>();
    Optional<String> chainText = entry(config, keys.get(0), TlsSecretData.TLS_CRT, field, findings);
    if (keys.size() == 1 && config.secretOf(keys.get(0)).isEmpty()) {
      return new Material(Optional.empty(), findings); // one Secret missing is one finding
    }
    Optional<String> keyText = entry(config, keys.get(keys.size() - 1), TlsSecretData.TLS_KEY, field, findings);
    if (chainText.isEmpty() || keyText.isEmpty()) {
      return new Material(Optional.empty(), findings);
    }
    String chainWhere = where(keys.get(0), TlsSecretData.TLS_CRT);
    String keyWhere = where(keys.get(keys.size() - 1), TlsSecretData.TLS_KEY);
    List<X509Certificate> chain;
    PrivateKey key;
    try {
      chain = Pem.servingChain(chainText.get());
    } catch (PemException e) {
      findings.add(error(field, Reasons.INVALID_CERTIFICATE, chainWhere + ": " + e.getMessage()));
      return new Material(Optional.empty(), findings);
    }
    try {
      key = Pem.servingKey(keyText.get());
    } catch (PemException e) {
      findings.add(error(field, Reasons.INVALID_CERTIFICATE, keyWhere + ": " + e.getMessage()));
      return new Material(Optional.empty(), findings);
    }
    X509Certificate leaf = chain.get(0);
    if (!Keys.matches(key, leaf.getPublicKey())) {
      findings.add(error(field, Reasons.KEY_MISMATCH, "the private key in " + keyWhere
          + " does not belong to the first certificate in " + chainWhere + " (" + leaf.getSubjectX500Principal()
          + ")"));
    }
    validity(chain, chainWhere, field, now, findings);
    return new Material(Optional.of(leaf), findings);
  }

  /** A CA bundle: a Secret's {@code ca.crt} or a PEM file. */
  private static List<Finding> trustedCa(ResourceKey key, String field, GatewayConfig config, Instant now) {
    List<Finding> findings = new ArrayList<>();
    entry(config, key, TlsSecretData.CA_CRT, field, findings).ifPresent(text -> {
      try {
        validity(Pem.caBundle(text), where(key, TlsSecretData.CA_CRT), field, now, findings);
      } catch (PemException e) {
        findings.add(error(field, Reasons.INVALID_CERTIFICATE, where(key, TlsSecretData.CA_CRT) + ": "
            + e.getMessage()));
      }
    });
    return findings;
  }

  /** The text of one entry: a Secret's named entry, or a file's content. */
  static Optional<String> entry(GatewayConfig config, ResourceKey key, String secretEntry) {
    return config.secretOf(key).map(data -> data.entries().get(
        TlsSecretData.isFileKey(key) ? TlsSecretData.FILE_CONTENT : secretEntry));
  }

  private static Optional<String> entry(GatewayConfig config, ResourceKey key, String secretEntry, String field,
      List<Finding> findings) {
    Optional<TlsSecretData> data = config.secretOf(key);
    if (data.isEmpty()) {
      findings.add(error(field, Reasons.SECRET_NOT_FOUND, TlsSecretData.describe(key) + " does not exist"
          + (TlsSecretData.isFileKey(key) ? " (paths are relative to the config directory)" : "")));
      return Optional.empty();
    }
    Optional<String> text = entry(config, key, secretEntry);
    if (text.isEmpty() || text.get().isBlank()) {
      findings.add(error(field, Reasons.INVALID_CERTIFICATE, TlsSecretData.describe(key)
          + (TlsSecretData.isFileKey(key) ? " is empty" : " has no " + secretEntry + " entry")));
      return Optional.empty();
    }
    return text;
  }

  private static void validity(List<X509Certificate> chain, String where, String field, Instant now,
      List<Finding> findings) {
    for (int i = 0; i < chain.size(); i++) {
      X509Certificate certificate = chain.get(i);
      int index = i + 1;
      Keys.validityProblem(certificate, now).ifPresent(problem -> findings.add(new Finding(
          Finding.Severity.WARNING, field, Reasons.CERTIFICATE_NOT_VALID_NOW, where + ": certificate " + index
          + " (" + certificate.getSubjectX500Principal() + ") " + problem + "; served anyway")));
    }
  }

  private static String where(ResourceKey key, String secretEntry) {
    return TlsSecretData.isFileKey(key) ? TlsSecretData.describe(key)
        : TlsSecretData.describe(key) + " entry " + secretEntry;
  }

  private static Finding error(String field, String reason, String message) {
    return new Finding(Finding.Severity.ERROR, field, reason, message);
  }

  /**
   * SNI claims on each HTTPS gateway: a server name (or the default chain, which a VirtualService without server
   * names takes) belongs to one VirtualService per gateway, the oldest; a later claimant is rejected naming the
   * holder, the rest are still served.
   *
   * @param selected per served HTTPS gateway, the served VirtualServices with an sslConfig it selects
   */
  static void sniConflicts(java.util.Map<io.holdfast.api.Gateway, List<VirtualService>> selected, Ledger ledger) {
    selected.forEach((gateway, virtualServices) -> {
      List<io.holdfast.ir.Claims.Claim<String>> claims = virtualServices.stream()
          .filter(vs -> !ledger.isRejected(vs.key()))
          .map(vs -> {
            List<String> names = serverNames(vs, vs.sslConfig().orElseThrow());
            return new io.holdfast.ir.Claims.Claim<>(Conflicts.claimant(vs), names.isEmpty() ? List.of("") : names);
          })
          .toList();
      for (io.holdfast.ir.Claims.Loss<String> loss : io.holdfast.ir.Claims.settleEqual(claims)) {
        if (ledger.isRejected(loss.loser().key())) {
          continue; // one reason per loser is enough
        }
        String what = loss.value().isEmpty() ? "the default filter chain (no server names)"
            : "server name \"" + loss.value() + "\"";
        ledger.error(loss.loser().key(), loss.value().isEmpty() ? "spec.sslConfig" : "spec.sslConfig.sniDomains",
            Reasons.DUPLICATE_SNI_DOMAIN, what + " on HTTPS " + gateway.key() + " is already taken by "
            + loss.winner().key() + ", which is older");
      }
    });
  }

  /**
   * The TLS server names that select a VirtualService's certificate: its {@code sniDomains}, else its domains
   * without ports, without {@code *} and without suffix wildcards ({@code api.*}), which SNI cannot express. Empty:
   * the gateway's default filter chain.
   */
  static List<String> serverNames(VirtualService vs, SslConfig ssl) {
    if (ssl.sniDomains().isPresent()) {
      return ssl.sniDomains().get();
    }
    Set<String> names = new LinkedHashSet<>();
    for (String domain : vs.domains()) {
      String host = PORT_SUFFIX.matcher(domain).replaceFirst("");
      if (!host.endsWith("*") && SNI_NAME.matcher(host).matches()) {
        names.add(host);
      }
    }
    return List.copyOf(names);
  }
}
