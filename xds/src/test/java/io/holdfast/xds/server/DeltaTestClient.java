package io.holdfast.xds.server;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A tiny delta ADS client: records responses in arrival order, ACKs each, or NACKs per {@link #nackWhen}. */
final class DeltaTestClient implements AutoCloseable {

  private final ManagedChannel channel;
  private final StreamObserver<DeltaDiscoveryRequest> requests;
  private final String nodeId;
  private final List<DeltaDiscoveryResponse> received = new ArrayList<>();
  private volatile Predicate<DeltaDiscoveryResponse> nackWhen = response -> false;
  private volatile Throwable error;
  private volatile boolean closed;

  DeltaTestClient(int port, String nodeId) {
    this.nodeId = nodeId;
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    this.requests = AggregatedDiscoveryServiceGrpc.newStub(channel).deltaAggregatedResources(
        new StreamObserver<>() {
          @Override
          public void onNext(DeltaDiscoveryResponse response) {
            answer(response);
          }

          @Override
          public void onError(Throwable t) {
            error = t;
          }

          @Override
          public void onCompleted() {
          }
        });
  }

  /** Subscribes to names of {@code typeUrl} (none: wildcard for LDS/CDS), stating versions already held. */
  void subscribe(String typeUrl, List<String> names, Map<String, String> initialVersions) {
    send(DeltaDiscoveryRequest.newBuilder()
        .setNode(Node.newBuilder().setId(nodeId))
        .setTypeUrl(typeUrl)
        .addAllResourceNamesSubscribe(names)
        .putAllInitialResourceVersions(initialVersions)
        .build());
  }

  /** Sends {@code request} as is (for protocol-error tests). */
  void sendRaw(DeltaDiscoveryRequest request) {
    send(request);
  }

  void nackWhen(Predicate<DeltaDiscoveryResponse> predicate) {
    nackWhen = predicate;
  }

  List<DeltaDiscoveryResponse> responses(String typeUrl) {
    synchronized (received) {
      return received.stream().filter(r -> r.getTypeUrl().equals(typeUrl)).toList();
    }
  }

  static List<String> names(DeltaDiscoveryResponse response) {
    return response.getResourcesList().stream().map(Resource::getName).toList();
  }

  Throwable error() {
    return error;
  }

  private void answer(DeltaDiscoveryResponse response) {
    synchronized (received) {
      received.add(response);
    }
    var reply = DeltaDiscoveryRequest.newBuilder().setTypeUrl(response.getTypeUrl()).setResponseNonce(response.getNonce());
    if (nackWhen.test(response)) {
      reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage("rejected " + response.getSystemVersionInfo()));
    }
    send(reply.build());
  }

  private void send(DeltaDiscoveryRequest request) {
    synchronized (requests) {
      if (!closed && error == null) {
        requests.onNext(request);
      }
    }
  }

  @Override
  public void close() {
    synchronized (requests) {
      if (!closed && error == null) {
        requests.onCompleted();
      }
      closed = true;
    }
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
