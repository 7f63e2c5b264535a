package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.holdfast.xds.server.ReloadingTls;
import io.holdfast.xds.server.XdsTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files {@code holdfast certs} writes work together as serve's {@code --xds-tls-cert}, {@code --xds-tls-key}
 * and {@code --xds-tls-client-ca} (the xDS server's own {@link ReloadingTls}) on 127.0.0.1 with real gRPC over
 * Netty: a proxy certificate is accepted and its SPIFFE ID reaches the server; a certificate from another run's CA,
 * or none, fails the handshake. A health service stands in for xDS, so what is proven is the TLS layer alone.
 */
class CertsHandshakeTest {
  private static final long WAIT_SECONDS = 10;

  @TempDir
  Path tmp;

  private ReloadingTls tls;
  private Server server;
  private final List<ManagedChannel> channels = new CopyOnWriteArrayList<>();
  private final List<String> peerUris = new CopyOnWriteArrayList<>();

  private Path ours() {
    return tmp.resolve("ours");
  }

  @BeforeEach
  void serveWithTheGeneratedFiles() throws IOException {
    assertThat(new CertsFixture().run(ours(), "--loopback", "--proxy", "gateway-proxy", "--proxy", "apps/public"))
        .isZero();
    tls = ReloadingTls.builder(XdsTls.mutual(ours().resolve("server.crt"), ours().resolve("server.key"),
        ours().resolve("ca.crt")).withReloadInterval(Duration.ofHours(1))).start();
    HealthStatusManager health = new HealthStatusManager();
    server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0), tls.credentials())
        .addService(ServerInterceptors.intercept(health.getHealthService(), new PeerRecorder()))
        .build().start();
  }

  @AfterEach
  void stop() throws Exception {
    channels.forEach(ManagedChannel::shutdownNow);
    server.shutdownNow().awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS);
    tls.close();
  }

  /** Records the URI SANs of each caller's certificate, as the server sees them after the handshake. */
  private final class PeerRecorder implements ServerInterceptor {
    @Override
    public <Q, A> ServerCall.Listener<Q> interceptCall(ServerCall<Q, A> call, Metadata headers,
        ServerCallHandler<Q, A> next) {
      SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
      try {
        X509Certificate peer = (X509Certificate) session.getPeerCertificates()[0];
        for (List<?> san : peer.getSubjectAlternativeNames()) {
          if (Integer.valueOf(6).equals(san.get(0))) {
            peerUris.add((String) san.get(1));
          }
        }
      } catch (Exception e) {
        peerUris.add("unreadable: " + e);
      }
      return next.startCall(call, headers);
    }
  }

  private HealthCheckResponse.ServingStatus check(Path dir, String proxyFile, String authority) throws IOException {
    TlsChannelCredentials.Builder credentials = TlsChannelCredentials.newBuilder()
        .trustManager(ours().resolve("ca.crt").toFile());
    if (proxyFile != null) {
      credentials.keyManager(dir.resolve(proxyFile + ".crt").toFile(), dir.resolve(proxyFile + ".key").toFile());
    }
    ChannelCredentials built = credentials.build();
    var builder = Grpc.newChannelBuilderForAddress("127.0.0.1", server.getPort(), built);
    if (authority != null) {
      builder.overrideAuthority(authority);
    }
    ManagedChannel channel = builder.build();
    channels.add(channel);
    return HealthGrpc.newBlockingStub(channel).withDeadlineAfter(WAIT_SECONDS, TimeUnit.SECONDS)
        .check(HealthCheckRequest.getDefaultInstance()).getStatus();
  }

  @Test
  void aGeneratedProxyCertificateCompletesTheHandshakeAndTheServerSeesItsSpiffeId() throws IOException {
    assertThat(check(ours(), "proxy-gateway-proxy", null)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    assertThat(check(ours(), "proxy-apps-public", null)).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);

    assertThat(peerUris).containsExactly("spiffe://holdfast.local/proxy/gateway-proxy",
        "spiffe://holdfast.local/proxy/apps/public");
  }

  @Test
  void theServerCertificateVerifiesUnderTheServiceNameProxiesDial() throws IOException {
    assertThat(check(ours(), "proxy-gateway-proxy", "holdfast-xds.holdfast-system.svc"))
        .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    assertThatThrownBy(() -> check(ours(), "proxy-gateway-proxy", "xds.elsewhere.example"))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  @Test
  void aProxyCertificateFromAnotherRunsCaFailsTheHandshake() {
    Path theirs = tmp.resolve("theirs");
    assertThat(new CertsFixture().run(theirs, "--loopback")).isZero();

    assertThatThrownBy(() -> check(theirs, "proxy-gateway-proxy", null))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(peerUris).isEmpty();
  }

  @Test
  void noClientCertificateFailsTheHandshake() {
    assertThatThrownBy(() -> check(ours(), null, null))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(peerUris).isEmpty();
  }

  @Test
  void theServerCertificateIsNoClientCertificate() {
    // Extended key usage server auth only: the server's own key pair cannot pose as a proxy.
    assertThatThrownBy(() -> check(ours(), "server", null))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    assertThat(peerUris).isEmpty();
  }
}
