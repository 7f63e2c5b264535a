package io.holdfast.xds.server;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.secret.v3.SecretDiscoveryServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.TlsChannelCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.util.AdvancedTlsX509KeyManager;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;

/**
 * A proxy's ADS streams over mutual TLS, SotW and delta on one channel: it asks what it is told to, ACKs
 * everything, and records every response and the stream's failure. {@link #secretsOnly} opens the standalone
 * SDS service's streams ({@code StreamSecrets}, {@code DeltaSecrets}) instead of ADS.
 */
final class MtlsAdsClient implements AutoCloseable {

  private final ManagedChannel channel;
  private final StreamObserver<DiscoveryRequest> sotw;
  private final StreamObserver<DeltaDiscoveryRequest> delta;
  private final List<DiscoveryResponse> sotwResponses = new CopyOnWriteArrayList<>();
  private final List<DeltaDiscoveryResponse> deltaResponses = new CopyOnWriteArrayList<>();
  private volatile Throwable sotwError;
  private volatile Throwable deltaError;

  MtlsAdsClient(int port, X509Certificate serverCa, TestPki.Issued identity) {
    this(port, serverCa, identity, false);
  }

  /** A client of the SecretDiscoveryService (not ADS): a proxy whose SDS config names its own gRPC service. */
  static MtlsAdsClient secretsOnly(int port, X509Certificate serverCa, TestPki.Issued identity) {
    return new MtlsAdsClient(port, serverCa, identity, true);
  }

  private MtlsAdsClient(int port, X509Certificate serverCa, TestPki.Issued identity, boolean secretsOnly) {
    var credentials = TlsChannelCredentials.newBuilder().trustManager(trust(serverCa));
    var keys = new AdvancedTlsX509KeyManager();
    keys.updateIdentityCredentials(new X509Certificate[] {identity.certificate()}, identity.keys().getPrivate());
    credentials.keyManager(keys);
    channel = NettyChannelBuilder.forAddress("127.0.0.1", port, credentials.build()).build();
    StreamObserver<DiscoveryResponse> sotwObserver = new StreamObserver<>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        sotwResponses.add(response);
      }

      @Override
      public void onError(Throwable t) {
        sotwError = t;
      }

      @Override
      public void onCompleted() {
      }
    };
    StreamObserver<DeltaDiscoveryResponse> deltaObserver = new StreamObserver<>() {
      @Override
      public void onNext(DeltaDiscoveryResponse response) {
        deltaResponses.add(response);
        synchronized (MtlsAdsClient.this) {
          if (deltaError == null) {
            delta.onNext(DeltaDiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl())
                .setResponseNonce(response.getNonce()).build());
          }
        }
      }

      @Override
      public void onError(Throwable t) {
        deltaError = t;
      }

      @Override
      public void onCompleted() {
      }
    };
    if (secretsOnly) {
      var stub = SecretDiscoveryServiceGrpc.newStub(channel);
      sotw = stub.streamSecrets(sotwObserver);
      delta = stub.deltaSecrets(deltaObserver);
    } else {
      var stub = AggregatedDiscoveryServiceGrpc.newStub(channel);
      sotw = stub.streamAggregatedResources(sotwObserver);
      delta = stub.deltaAggregatedResources(deltaObserver);
    }
  }

  /** A SotW request for {@code names} of {@code typeUrl} (none: wildcard where the type allows it). */
  synchronized void ask(String typeUrl, String... names) {
    sotw.onNext(DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId("proxy"))
        .setTypeUrl(typeUrl).addAllResourceNames(List.of(names)).build());
  }

  /**
   * A SotW request that ACKs {@code previous} (its version and nonce) and asks for {@code names} of its type:
   * how a proxy changes what it asks for once a response is out.
   */
  synchronized void askAfter(DiscoveryResponse previous, String... names) {
    sotw.onNext(DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId("proxy"))
        .setTypeUrl(previous.getTypeUrl()).setVersionInfo(previous.getVersionInfo())
        .setResponseNonce(previous.getNonce()).addAllResourceNames(List.of(names)).build());
  }

  /** Rejects {@code response}: a request with its nonce, the previous version and an error detail. */
  synchronized void nack(DiscoveryResponse response) {
    sotw.onNext(DiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl())
        .setResponseNonce(response.getNonce())
        .setErrorDetail(com.google.rpc.Status.newBuilder().setMessage("rejected by test")).build());
  }

  /** A delta subscription to {@code names} of {@code typeUrl} (none: wildcard for LDS/CDS). */
  synchronized void subscribe(String typeUrl, String... names) {
    delta.onNext(DeltaDiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId("proxy-delta"))
        .setTypeUrl(typeUrl).addAllResourceNamesSubscribe(List.of(names)).build());
  }

  List<DiscoveryResponse> sotwResponses(String typeUrl) {
    return sotwResponses.stream().filter(r -> r.getTypeUrl().equals(typeUrl)).toList();
  }

  List<DeltaDiscoveryResponse> deltaResponses(String typeUrl) {
    return deltaResponses.stream().filter(r -> r.getTypeUrl().equals(typeUrl)).toList();
  }

  Optional<Status> sotwFailure() {
    return Optional.ofNullable(sotwError).map(Status::fromThrowable);
  }

  Optional<Status> deltaFailure() {
    return Optional.ofNullable(deltaError).map(Status::fromThrowable);
  }

  private static javax.net.ssl.TrustManager trust(X509Certificate ca) {
    try {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      store.setCertificateEntry("ca", ca);
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers()[0];
    } catch (java.security.GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException(e);
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
}
