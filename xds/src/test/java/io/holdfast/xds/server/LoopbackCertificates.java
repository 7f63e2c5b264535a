package io.holdfast.xds.server;

import java.nio.file.Path;
import java.security.cert.X509Certificate;

/**
 * For other modules' tests (through this module's test jar): a throwaway CA and a server certificate for
 * {@code localhost} and {@code 127.0.0.1} issued by it, made by {@link TestPki} at test time.
 */
public final class LoopbackCertificates {

  private LoopbackCertificates() {
  }

  /**
   * Writes a fresh server certificate to {@code certificate} and its PKCS#8 key to {@code key}.
   *
   * @return the CA that issued it, for clients to trust
   */
  public static X509Certificate writeServer(Path certificate, Path key) {
    TestPki.Issued ca = TestPki.ca("holdfast test CA");
    TestPki.leaf(ca, "holdfast test server").write(certificate, key);
    return ca.certificate();
  }
}
