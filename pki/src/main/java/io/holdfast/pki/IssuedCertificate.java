package io.holdfast.pki;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.Objects;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * A key pair and the certificate {@link CertificateIssuer} made for it, with the PEM forms Holdfast's own TLS
 * files take: the certificate as {@code CERTIFICATE}, the key as unencrypted PKCS#8 ({@code PRIVATE KEY}).
 */
public record IssuedCertificate(KeyPair keys, X509Certificate certificate) {

  public IssuedCertificate {
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(certificate, "certificate");
  }

  public String certificatePem() {
    return pem(certificate);
  }

  /** The private key as unencrypted PKCS#8: callers write it to a file only they can read. */
  public String privateKeyPem() {
    try {
      return pem(new JcaPKCS8Generator(keys.getPrivate(), null).generate());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String pem(Object object) {
    StringWriter out = new StringWriter();
    try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
