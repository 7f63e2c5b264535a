package io.holdfast.xds.server;

import io.holdfast.ir.NackEvent;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * An xDS server on 127.0.0.1 over mutual TLS with authorisation {@code proxy-identity}: its certificate, and the
 * proxies' client certificates, issued by {@code ca}. For tests that check what one proxy may be served.
 */
final class ProxyIdentityServer implements AutoCloseable {

  private final ReloadingTls tls;
  private final XdsServer server;

  private ProxyIdentityServer(ReloadingTls tls, XdsServer server) {
    this.tls = tls;
    this.server = server;
  }

  /** Serves {@code cache}, with its TLS files written under {@code dir}; NACKs go to {@code nacks}. */
  static ProxyIdentityServer start(TestPki.Issued ca, XdsCache cache, Path dir, MeterRegistry meters,
      Consumer<NackEvent> nacks) {
    TestPki.Issued serverCert = TestPki.leaf(ca, "localhost");
    serverCert.write(dir.resolve("tls.crt"), dir.resolve("tls.key"));
    TestPki.writeString(dir.resolve("ca.crt"), ca.certificatePem());
    ReloadingTls tls = ReloadingTls.builder(XdsTls.mutual(dir.resolve("tls.crt"), dir.resolve("tls.key"),
        dir.resolve("ca.crt")).withReloadInterval(Duration.ofHours(1))).start();
    try {
      XdsServer server = XdsServer.builder(cache, XdsServerSettings.on("127.0.0.1", 0)
              .withDrainTimeout(Duration.ofSeconds(1)).withAuthorisation(XdsAuthorisation.PROXY_IDENTITY), meters)
          .credentials(tls.credentials())
          .nackListener(nacks::accept)
          .start();
      return new ProxyIdentityServer(tls, server);
    } catch (RuntimeException e) {
      tls.close();
      throw e;
    }
  }

  XdsServer server() {
    return server;
  }

  @Override
  public void close() {
    server.close();
    tls.close();
  }
}
