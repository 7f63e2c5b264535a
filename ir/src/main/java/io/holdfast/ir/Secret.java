package io.holdfast.ir;

import java.util.Objects;

/**
 * TLS material that listeners and clusters refer to by {@code name}, or a generic secret (a credential an HTTP filter
 * names, such as the OAuth2 client secret); translated to an SDS {@code Secret}, so a rotated certificate or
 * credential is a new secret version and the listener or cluster that names it is unchanged. Its {@code toString}
 * never shows a private key or a generic secret's value.
 *
 * @param name unique in the IR; the Envoy secret name
 */
public record Secret(Origin origin, String name, Content content) {

  public Secret {
    Objects.requireNonNull(origin, "origin");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(content, "content");
    if (name.isEmpty()) {
      throw new IllegalArgumentException(origin + ": a secret needs a name");
    }
  }

  /** What a secret holds, already checked by the front end (parses, key matches certificate). */
  public sealed interface Content {

    /** A certificate chain (PEM, leaf first) and its private key (PEM, any form Envoy reads). */
    record CertificateAndKey(String certificateChainPem, String privateKeyPem) implements Content {
      public CertificateAndKey {
        Objects.requireNonNull(certificateChainPem, "certificateChainPem");
        Objects.requireNonNull(privateKeyPem, "privateKeyPem");
      }

      @Override
      public String toString() {
        return "CertificateAndKey[certificateChainPem=" + certificateChainPem.length() + " chars, privateKeyPem=<redacted>]";
      }
    }

    /** Certificates trusted to sign peers' certificates (PEM). */
    record TrustedCa(String caPem) implements Content {
      public TrustedCa {
        Objects.requireNonNull(caPem, "caPem");
      }

      @Override
      public String toString() {
        return "TrustedCa[caPem=" + caPem.length() + " chars]";
      }
    }

    /** An opaque value (Envoy's {@code generic_secret}): a password, a client secret, an HMAC key. */
    record Generic(String value) implements Content {
      public Generic {
        Objects.requireNonNull(value, "value");
        if (value.isEmpty()) {
          throw new IllegalArgumentException("a generic secret is not empty");
        }
      }

      @Override
      public String toString() {
        return "Generic[value=<redacted>]";
      }
    }
  }
}
