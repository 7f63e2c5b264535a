package io.holdfast.xds.server;

import io.holdfast.pki.TestCertificates;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Client certificates of proxies, made at test time with BouncyCastle: a subject of our choosing and URI SANs
 * (SPIFFE ids), issued by a {@link TestPki} CA.
 */
final class ProxyCertificates {

  private static final AtomicLong SERIALS = new AtomicLong(0x5000);

  private ProxyCertificates() {
  }

  /** A client certificate with subject {@code subject} (e.g. {@code CN=shop/web} or {@code O=acme}) and URIs. */
  static TestPki.Issued client(TestPki.Issued ca, String subject, String... uris) {
    KeyPair keys = TestPki.ec();
    Instant now = Instant.now();
    try {
      var builder = new JcaX509v3CertificateBuilder(ca.issued().subject(),
          BigInteger.valueOf(SERIALS.incrementAndGet()), Date.from(now.minusSeconds(60)),
          Date.from(now.plus(TestCertificates.LIFETIME)), new X500Name(subject), keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      if (uris.length > 0) {
        List<GeneralName> names = new ArrayList<>();
        for (String uri : uris) {
          names.add(new GeneralName(GeneralName.uniformResourceIdentifier, uri));
        }
        builder.addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(names.toArray(GeneralName[]::new)));
      }
      X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(ca.keys().getPrivate())));
      return new TestPki.Issued(new TestCertificates.Issued(keys, certificate));
    } catch (GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException
        | org.bouncycastle.cert.CertIOException e) {
      throw new IllegalStateException(e);
    }
  }
}
