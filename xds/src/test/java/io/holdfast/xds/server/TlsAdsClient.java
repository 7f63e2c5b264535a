package io.holdfast.xds.server;

import com.google.common.base.Throwables;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.util.AdvancedTlsX509KeyManager;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * An ADS client over TLS on its own channel (so its own TLS session): trusts the given CAs, optionally presents
 * a client certificate, subscribes to every listener, ACKs what it gets, and records the certificate the server
 * presented.
 */
final class TlsAdsClient implements AutoCloseable {

  private final ManagedChannel channel;
  private final StreamObserver<DiscoveryRequest> requests;
  private final RecordingTrustManager trust;
  private final List<DiscoveryResponse> received = new CopyOnWriteArrayList<>();
  private volatile Throwable error;

  private TlsAdsClient(int port, List<X509Certificate> trusted, Optional<TestPki.Issued> identity) {
    trust = new RecordingTrustManager(pkix(trusted));
    var credentials = TlsChannelCredentials.newBuilder().trustManager(trust);
    identity.ifPresent(id -> {
      // grpc's key manager offers its one certificate whatever CAs the server asks for, so a certificate from
      // the wrong CA really is sent (the JDK's would withhold it) and the server's refusal is what is tested.
      var keys = new AdvancedTlsX509KeyManager();
      keys.updateIdentityCredentials(new X509Certificate[] {id.certificate()}, id.keys().getPrivate());
      credentials.keyManager(keys);
    });
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port, credentials.build()).build();
    requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        received.add(response);
        send(request().setVersionInfo(response.getVersionInfo()).setResponseNonce(response.getNonce()).build());
      }

      @Override
      public void onError(Throwable t) {
        error = t;
      }

      @Override
      public void onCompleted() {
      }
    });
    send(request().build());
  }

  static TlsAdsClient connect(int port, List<X509Certificate> trusted) {
    return new TlsAdsClient(port, trusted, Optional.empty());
  }

  static TlsAdsClient connect(int port, List<X509Certificate> trusted, TestPki.Issued identity) {
    return new TlsAdsClient(port, trusted, Optional.of(identity));
  }

  List<DiscoveryResponse> responses() {
    return List.copyOf(received);
  }

  /** The stream's failure status, or empty while it is open. */
  Optional<Status> failure() {
    return Optional.ofNullable(error).map(Status::fromThrowable);
  }

  /** Whether the failure came from TLS (a handshake error or alert), not from the RPC itself. */
  boolean failedInTls() {
    Throwable failure = error;
    return failure != null && Throwables.getCausalChain(failure).stream()
        .anyMatch(t -> t instanceof SSLException || String.valueOf(t.getMessage()).contains("SSL routines"));
  }

  /** The certificate the server presented in the last handshake, if one got that far. */
  Optional<X509Certificate> serverCertificate() {
    return Optional.ofNullable(trust.lastPeer);
  }

  private DiscoveryRequest.Builder request() {
    return DiscoveryRequest.newBuilder()
        .setNode(Node.newBuilder().setId("tls-client"))
        .setTypeUrl(TypeUrls.LISTENER);
  }

  private synchronized void send(DiscoveryRequest request) {
    if (error == null) {
      requests.onNext(request);
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static X509ExtendedTrustManager pkix(List<X509Certificate> trusted) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      for (int i = 0; i < trusted.size(); i++) {
        store.setCertificateEntry("ca-" + i, trusted.get(i));
      }
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      factory.init(store);
      return (X509ExtendedTrustManager) factory.getTrustManagers()[0];
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The JDK's PKIX checks (chain and host name), noting the server's certificate before judging it. */
  private static final class RecordingTrustManager extends X509ExtendedTrustManager {

    private final X509ExtendedTrustManager delegate;
    private volatile X509Certificate lastPeer;

    RecordingTrustManager(X509ExtendedTrustManager delegate) {
      this.delegate = delegate;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      lastPeer = chain[0];
      delegate.checkServerTrusted(chain, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      lastPeer = chain[0];
      delegate.checkServerTrusted(chain, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      lastPeer = chain[0];
      delegate.checkServerTrusted(chain, authType);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      throw new CertificateException("client side only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      throw new CertificateException("client side only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
      throw new CertificateException("client side only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return delegate.getAcceptedIssuers();
    }
  }
}
