package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.CDS;
import static io.holdfast.xds.server.Fixtures.EDS;
import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.cluster.v3.ClusterDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.envoyproxy.envoy.service.endpoint.v3.EndpointDiscoveryServiceGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The gRPC surface of {@link DiscoveryService}: which methods exist and how a stream treats raw requests. */
class DiscoveryServiceTest {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Node NODE = Node.newBuilder().setId("raw-1").build();

  private final ServerHarness harness = new ServerHarness();
  private final ManagedChannel channel =
      NettyChannelBuilder.forAddress("127.0.0.1", harness.port()).usePlaintext().build();

  /** Records what one stream receives. */
  private static final class Recorder<T> implements StreamObserver<T> {
    final List<T> received = new CopyOnWriteArrayList<>();
    volatile Throwable error;

    @Override
    public void onNext(T value) {
      received.add(value);
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onCompleted() {
    }
  }

  @AfterEach
  void tearDown() throws InterruptedException {
    channel.shutdownNow();
    channel.awaitTermination(5, TimeUnit.SECONDS);
    harness.close();
  }

  @Test
  void perTypeServicesTakeAnEmptyTypeUrlAsTheirOwnTypeForBothProtocols() {
    harness.cache.setSnapshot(snapshot(edsCluster("c1"), endpoints("c1", 8080)));
    var sotw = new Recorder<DiscoveryResponse>();
    EndpointDiscoveryServiceGrpc.newStub(channel).streamEndpoints(sotw)
        .onNext(DiscoveryRequest.newBuilder().setNode(NODE).addResourceNames("c1").build());
    var delta = new Recorder<DeltaDiscoveryResponse>();
    ClusterDiscoveryServiceGrpc.newStub(channel).deltaClusters(delta)
        .onNext(DeltaDiscoveryRequest.newBuilder().setNode(NODE).build());

    await().atMost(WAIT).until(() -> sotw.received.size() == 1 && delta.received.size() == 1);
    assertThat(sotw.received.get(0).getTypeUrl()).isEqualTo(EDS);
    assertThat(sotw.received.get(0).getResourcesList()).singleElement()
        .satisfies(any -> assertThat(any.getTypeUrl()).isEqualTo(EDS));
    assertThat(delta.received.get(0).getTypeUrl()).isEqualTo(CDS);
    assertThat(delta.received.get(0).getResourcesList()).singleElement()
        .satisfies(r -> assertThat(r.getName()).isEqualTo("c1"));
  }

  @Test
  void anAdsRequestWithoutATypeClosesThatStreamWithUnknown() {
    harness.cache.setSnapshot(snapshot(listener("l1", 10001)));
    var sotw = new Recorder<DiscoveryResponse>();
    AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(sotw)
        .onNext(DiscoveryRequest.newBuilder().setNode(NODE).build());
    var delta = new Recorder<DeltaDiscoveryResponse>();
    AggregatedDiscoveryServiceGrpc.newStub(channel).deltaAggregatedResources(delta)
        .onNext(DeltaDiscoveryRequest.newBuilder().setNode(NODE).build());

    await().atMost(WAIT).until(() -> sotw.error != null && delta.error != null);
    assertThat(Status.fromThrowable(sotw.error).getCode()).isEqualTo(Status.Code.UNKNOWN);
    assertThat(Status.fromThrowable(delta.error).getCode()).isEqualTo(Status.Code.UNKNOWN);
    await().atMost(WAIT).until(() -> harness.server.connectedStreams().isEmpty());
  }

  @Test
  void fetchIsUnimplemented() {
    var stub = ClusterDiscoveryServiceGrpc.newBlockingStub(channel);
    assertThatThrownBy(() -> stub.fetchClusters(DiscoveryRequest.getDefaultInstance()))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
  }

  @Test
  void aSotwRequestReplyingToAnOlderNonceThanTheLatestIsIgnored() {
    harness.cache.setSnapshot(snapshot(listener("l1", 10001), edsCluster("c1"), edsCluster("c2")));
    var sotw = new Recorder<DiscoveryResponse>();
    StreamObserver<DiscoveryRequest> requests =
        AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(sotw);
    requests.onNext(DiscoveryRequest.newBuilder().setNode(NODE).setTypeUrl(CDS).build());
    await().atMost(WAIT).until(() -> sotw.received.size() == 1);
    String first = sotw.received.get(0).getNonce();
    requests.onNext(DiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce(first)
        .setVersionInfo(sotw.received.get(0).getVersionInfo()).build());
    harness.cache.setSnapshot(snapshot(listener("l1", 10001), edsCluster("c1", 5), edsCluster("c2")));
    await().atMost(WAIT).until(() -> sotw.received.size() == 2);
    String latest = sotw.received.get(1).getNonce();
    assertThat(latest).isNotEqualTo(first);

    // Stale: asks for one cluster by name, replying to the superseded response. Then LDS as a marker (the
    // stream handles requests in order, so once LDS is answered the stale request was handled).
    requests.onNext(DiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce(first)
        .addResourceNames("c1").build());
    requests.onNext(DiscoveryRequest.newBuilder().setTypeUrl(LDS).build());
    await().atMost(WAIT).until(() -> sotw.received.size() == 3);
    assertThat(sotw.received.get(2).getTypeUrl()).isEqualTo(LDS);

    // The same question replying to the latest response is answered.
    requests.onNext(DiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce(latest)
        .addResourceNames("c1").build());
    await().atMost(WAIT).until(() -> sotw.received.size() == 4);
    assertThat(sotw.received.get(3).getTypeUrl()).isEqualTo(CDS);
    assertThat(sotw.received.get(3).getResourcesCount()).isEqualTo(1);
    requests.onCompleted();
  }
}
