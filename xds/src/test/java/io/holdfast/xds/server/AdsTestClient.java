package io.holdfast.xds.server;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.listener.v3.ListenerDiscoveryServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A tiny SotW xDS client over real gRPC: records every response in arrival order and answers each one as Envoy
 * would, with an ACK, or with a NACK (version_info = last accepted, error_detail set) when {@link #nackWhen}
 * says so.
 */
final class AdsTestClient implements AutoCloseable {

  private final ManagedChannel channel;
  private final StreamObserver<DiscoveryRequest> requests;
  private final String nodeId;
  private final List<DiscoveryResponse> received = new ArrayList<>();
  private final Map<String, List<String>> names = new ConcurrentHashMap<>();
  private final Map<String, String> accepted = new ConcurrentHashMap<>();
  private final Map<String, String> lastNonce = new ConcurrentHashMap<>();
  private volatile Predicate<DiscoveryResponse> nackWhen = response -> false;
  private volatile Throwable error;
  private volatile boolean closed;

  private AdsTestClient(int port, String nodeId, boolean listenersOnly) {
    this.nodeId = nodeId;
    this.channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
    var observer = new StreamObserver<DiscoveryResponse>() {
      @Override
      public void onNext(DiscoveryResponse response) {
        answer(response);
      }

      @Override
      public void onError(Throwable t) {
        error = t;
      }

      @Override
      public void onCompleted() {
      }
    };
    this.requests = listenersOnly
        ? ListenerDiscoveryServiceGrpc.newStub(channel).streamListeners(observer)
        : AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(observer);
  }

  /** An ADS stream. */
  static AdsTestClient ads(int port, String nodeId) {
    return new AdsTestClient(port, nodeId, false);
  }

  /** A per-type LDS stream. */
  static AdsTestClient listeners(int port, String nodeId) {
    return new AdsTestClient(port, nodeId, true);
  }

  /** Subscribes to (or changes the names of) {@code typeUrl}; no names means wildcard for LDS/CDS. */
  void subscribe(String typeUrl, String... resourceNames) {
    names.put(typeUrl, List.of(resourceNames));
    send(request(typeUrl).build());
  }

  /** NACK every response matching {@code predicate} instead of ACKing it. */
  void nackWhen(Predicate<DiscoveryResponse> predicate) {
    nackWhen = predicate;
  }

  /** Every response so far, in arrival order. */
  List<DiscoveryResponse> responses() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  List<DiscoveryResponse> responses(String typeUrl) {
    return responses().stream().filter(r -> r.getTypeUrl().equals(typeUrl)).toList();
  }

  /** version_info of each response of {@code typeUrl}, in arrival order. */
  List<String> versions(String typeUrl) {
    return responses(typeUrl).stream().map(DiscoveryResponse::getVersionInfo).toList();
  }

  Throwable error() {
    return error;
  }

  private void answer(DiscoveryResponse response) {
    synchronized (received) {
      received.add(response);
    }
    String type = response.getTypeUrl();
    lastNonce.put(type, response.getNonce());
    DiscoveryRequest.Builder reply = request(type);
    if (nackWhen.test(response)) {
      reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage("rejected " + response.getVersionInfo()));
    } else {
      accepted.put(type, response.getVersionInfo());
      reply.setVersionInfo(response.getVersionInfo());
    }
    send(reply.build());
  }

  private DiscoveryRequest.Builder request(String typeUrl) {
    return DiscoveryRequest.newBuilder()
        .setNode(Node.newBuilder().setId(nodeId))
        .setTypeUrl(typeUrl)
        .setVersionInfo(accepted.getOrDefault(typeUrl, ""))
        .setResponseNonce(lastNonce.getOrDefault(typeUrl, ""))
        .addAllResourceNames(names.getOrDefault(typeUrl, List.of()));
  }

  private void send(DiscoveryRequest request) {
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
