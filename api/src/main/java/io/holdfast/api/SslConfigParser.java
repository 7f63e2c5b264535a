package io.holdfast.api;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The {@code spec.sslConfig} of a VirtualService ({@link SslConfig}). */
final class SslConfigParser {

  private static final Set<String> SSL = Set.of("secretRef", "files", "sniDomains", "minTlsVersion", "clientCa");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> FILES = Set.of("certChain", "privateKey");
  static final Set<String> CLIENT_CA = Set.of("secretRef", "file");
  static final Set<String> CERTIFICATE = Set.of("secretRef", "files");

  private SslConfigParser() {
  }

  static Optional<SslConfig> parse(Fields spec) {
    return spec.object("sslConfig", SSL).flatMap(fields -> {
      Optional<SslConfig.CertificateSource> certificate = certificate(fields);
      Optional<List<String>> sni = Optional.empty();
      boolean ok = true;
      if (fields.has("sniDomains")) {
        sni = fields.stringList("sniDomains", true);
        ok = sni.isPresent();
      }
      Optional<SslConfig.TlsVersion> version = Optional.of(SslConfig.TlsVersion.TLSv1_2);
      if (fields.has("minTlsVersion")) {
        version = fields.string("minTlsVersion").flatMap(text -> tlsVersion(fields, text));
      }
      Optional<SslConfig.CaSource> clientCa = Optional.empty();
      if (fields.has("clientCa")) {
        clientCa = fields.object("clientCa", CLIENT_CA).flatMap(SslConfigParser::clientCa);
        ok &= clientCa.isPresent();
      }
      if (!ok || certificate.isEmpty() || version.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new SslConfig(certificate.get(), sni, version.get(), clientCa));
    });
  }

  /** A certificate source: the object holding exactly one of {@code secretRef} or {@code files}. */
  static Optional<SslConfig.CertificateSource> certificate(Fields fields) {
    boolean secret = fields.has("secretRef");
    boolean files = fields.has("files");
    if (secret == files) {
      fields.problem(fields.path(), secret ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "give exactly one of secretRef (a kubernetes.io/tls Secret) or files (PEM files)");
      return Optional.empty();
    }
    if (secret) {
      return fields.object("secretRef", REF).flatMap(ref -> ObjectRefs.read(ref, "name"))
          .map(SslConfig.CertificateSource.SecretRef::new);
    }
    return fields.object("files", FILES).flatMap(f -> {
      Optional<String> chain = f.requiredString("certChain");
      Optional<String> key = f.requiredString("privateKey");
      return chain.flatMap(c -> key.map(k -> new SslConfig.CertificateSource.Files(c, k)));
    });
  }

  /** A CA source: the object holding exactly one of {@code secretRef} or {@code file}. */
  static Optional<SslConfig.CaSource> clientCa(Fields fields) {
    boolean secret = fields.has("secretRef");
    boolean file = fields.has("file");
    if (secret == file) {
      fields.problem(fields.path(), secret ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "give exactly one of secretRef (a Secret's ca.crt) or file (a PEM file)");
      return Optional.empty();
    }
    if (secret) {
      return fields.object("secretRef", REF).flatMap(ref -> ObjectRefs.read(ref, "name"))
          .map(SslConfig.CaSource.SecretRef::new);
    }
    return fields.string("file").map(SslConfig.CaSource.File::new);
  }

  private static Optional<SslConfig.TlsVersion> tlsVersion(Fields fields, String text) {
    try {
      return Optional.of(SslConfig.TlsVersion.valueOf(text));
    } catch (IllegalArgumentException e) {
      fields.problem(fields.path("minTlsVersion"), Reasons.INVALID_VALUE, "\"" + text + "\" is not a TLS version "
          + "(expected one of " + Arrays.toString(SslConfig.TlsVersion.values()) + ")");
      return Optional.empty();
    }
  }
}
