package io.holdfast.server.webhook;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import java.util.Arrays;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The webhook's TLS versions and suites: TLS 1.3 as the JDK offers it, and TLS 1.2 only with ECDHE and an AEAD
 * cipher (AES-GCM, ChaCha20-Poly1305), as the Kubernetes API server and Mozilla's "intermediate" profile use. The
 * JDK's defaults also offer CBC suites with SHA-1 MACs and static-RSA key exchange, which have no forward secrecy
 * and a history of padding-oracle attacks.
 */
final class WebhookCiphers extends HttpsConfigurator {
  static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  WebhookCiphers(SSLContext context) {
    super(context);
  }

  @Override
  public void configure(HttpsParameters params) {
    SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
    parameters.setProtocols(PROTOCOLS);
    parameters.setCipherSuites(aeadOnly(parameters.getCipherSuites()));
    params.setSSLParameters(parameters);
  }

  /** The suites of {@code offered} that are TLS 1.3 ones or TLS 1.2 ECDHE with an AEAD cipher, in their order. */
  static String[] aeadOnly(String[] offered) {
    return Arrays.stream(offered).filter(WebhookCiphers::isAead).toArray(String[]::new);
  }

  static boolean isAead(String suite) {
    if (suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_")) {
      return true; // TLS 1.3: every suite is AEAD
    }
    return suite.startsWith("TLS_ECDHE_")
        && (suite.contains("_WITH_AES_128_GCM_") || suite.contains("_WITH_AES_256_GCM_")
        || suite.endsWith("_WITH_CHACHA20_POLY1305_SHA256"));
  }
}
