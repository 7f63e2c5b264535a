package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.EDS;
import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.RDS;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Limits per client ({@link XdsLimits}) over real gRPC: a stream over a limit is closed with a gRPC status and
 * counted, while a well-behaved stream on the same server keeps receiving updates.
 */
class XdsLimitsServingTest {

  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final XdsLimits SMALL = XdsLimits.DEFAULTS.withMaxNamesPerStream(1_000).withMaxNodeIdLength(64)
      .withMaxStreamsPerConnection(2);

  private final ServerHarness harness = new ServerHarness(SMALL);
  private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
    harness.close();
  }

  private static XdsSnapshot config(int port) {
    return snapshot(listener("l1", port));
  }

  /** A well-behaved ADS stream that has received the first listener version. */
  private AdsTestClient healthy() {
    AdsTestClient client = track(AdsTestClient.ads(harness.port(), "envoy-good"));
    client.subscribe(LDS);
    await().atMost(WAIT).until(() -> client.versions(LDS).size() == 1);
    return client;
  }

  /** The healthy stream receives the next snapshot version, i.e. it kept working. */
  private void stillServed(AdsTestClient client) {
    XdsSnapshot next = config(10_002);
    harness.cache.setSnapshot(next);
    await().atMost(WAIT).until(() -> client.versions(LDS).contains(next.version()));
    assertThat(client.error()).isNull();
  }

  private double refused(Refusal reason) {
    return harness.registry.get(XdsMetrics.REFUSED).tag("reason", reason.label()).counter().count();
  }

  private <T extends AutoCloseable> T track(T closeable) {
    open.add(closeable);
    return closeable;
  }

  private static List<String> names(String prefix, int n) {
    return IntStream.range(0, n).mapToObj(i -> prefix + i).toList();
  }

  @Test
  void sotwSubscriptionOverTheNameLimitIsRefusedWhileAnotherStreamKeepsReceiving() {
    harness.cache.setSnapshot(config(10_001));
    AdsTestClient good = healthy();
    AdsTestClient hostile = track(AdsTestClient.ads(harness.port(), "envoy-greedy"));

    hostile.subscribe(EDS, names("c", 1_001).toArray(String[]::new));

    await().atMost(WAIT).until(() -> hostile.error() != null);
    assertThat(Status.fromThrowable(hostile.error()).getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(Status.fromThrowable(hostile.error()).getDescription()).contains("too_many_names", "1001");
    assertThat(refused(Refusal.TOO_MANY_NAMES)).isEqualTo(1);
    stillServed(good);
  }

  @Test
  void deltaSubscriptionsAcrossTypesAndRequestsAreCountedTogether() {
    harness.cache.setSnapshot(config(10_001));
    AdsTestClient good = healthy();
    DeltaTestClient hostile = track(new DeltaTestClient(harness.port(), "envoy-greedy"));

    hostile.subscribe(EDS, names("c", 600), Map.of());
    hostile.subscribe(RDS, names("r", 300), Map.of("r-held", "1"));
    // 900 names held; subscribing 99 of them again holds no more, and is within 1,000 in any case
    hostile.subscribe(EDS, names("c", 99), Map.of());
    await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> hostile.error() == null);
    hostile.subscribe(RDS, names("more", 101), Map.of());

    await().atMost(WAIT).until(() -> hostile.error() != null);
    assertThat(Status.fromThrowable(hostile.error()).getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(harness.server.connectedStreams()).containsOnlyKeys("envoy-good");
    stillServed(good);
  }

  @Test
  void overlongNodeIdIsRefusedAndNotKept() {
    harness.cache.setSnapshot(config(10_001));
    AdsTestClient good = healthy();
    String longId = "n".repeat(65);
    AdsTestClient hostile = track(AdsTestClient.ads(harness.port(), longId));

    hostile.subscribe(LDS);

    await().atMost(WAIT).until(() -> hostile.error() != null);
    assertThat(Status.fromThrowable(hostile.error()).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(Status.fromThrowable(hostile.error()).getDescription()).doesNotContain(longId);
    assertThat(hostile.responses()).isEmpty();
    assertThat(harness.server.connectedStreams()).containsOnlyKeys("envoy-good");
    assertThat(harness.registry.find(ProxyPresence.NAME).tag("node", longId).gauge()).isNull();
    assertThat(refused(Refusal.NODE_ID_TOO_LONG)).isEqualTo(1);
    stillServed(good);
  }

  @Test
  void nodeIdWithANewlineIsRefused() {
    harness.cache.setSnapshot(config(10_001));
    AdsTestClient hostile = track(AdsTestClient.ads(harness.port(), "envoy\nFORGED"));

    hostile.subscribe(LDS);

    await().atMost(WAIT).until(() -> hostile.error() != null);
    assertThat(Status.fromThrowable(hostile.error()).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(refused(Refusal.NODE_ID_INVALID)).isEqualTo(1);
  }

  @Test
  void aStreamBeyondTheLimitPerConnectionIsRefusedWithAStatusWhileTheOthersKeepWorking() {
    XdsSnapshot v1 = config(10_001);
    harness.cache.setSnapshot(v1);
    AdsTestClient otherConnection = healthy();
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", harness.port()).usePlaintext().build();
    track(() -> {
      channel.shutdownNow();
      channel.awaitTermination(5, TimeUnit.SECONDS);
    });
    RawStream first = new RawStream(channel);
    RawStream second = new RawStream(channel);
    await().atMost(WAIT).until(() -> first.responses.size() == 1 && second.responses.size() == 1);

    // The limit is 2: grpc-java would queue a third stream forever had the server announced 2 in HTTP/2's
    // SETTINGS; it announces more and refuses the third with a status the client sees.
    RawStream third = new RawStream(channel);
    await().atMost(WAIT).until(() -> third.error != null);
    assertThat(Status.fromThrowable(third.error).getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(Status.fromThrowable(third.error).getDescription()).contains("too_many_streams", "2");
    assertThat(third.responses).isEmpty();
    assertThat(refused(Refusal.TOO_MANY_STREAMS)).isEqualTo(1);
    assertThat(harness.server.connectedStreams()).containsEntry("raw", 2);

    // The admitted streams were not disturbed, and a closed one frees its place on the connection.
    assertThat(first.error).isNull();
    assertThat(second.error).isNull();
    first.requests.onCompleted();
    await().atMost(WAIT).until(() -> harness.server.connectedStreams().getOrDefault("raw", 0) == 1);
    RawStream fourth = new RawStream(channel);
    await().atMost(WAIT).until(() -> fourth.responses.size() == 1);
    assertThat(fourth.error).isNull();
    stillServed(otherConnection);
  }

  @Test
  void nackDetailIsStrippedOfControlCharactersAndCapped() {
    XdsSnapshot v1 = config(10_001);
    harness.cache.setSnapshot(v1);
    ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", harness.port()).usePlaintext().build();
    track(() -> {
      channel.shutdownNow();
      channel.awaitTermination(5, TimeUnit.SECONDS);
    });
    RawStream stream = new RawStream(channel);
    await().atMost(WAIT).until(() -> stream.responses.size() == 1);
    String detail = "bad listener\n2026-01-01 INFO forged line\r\u2028" + "x".repeat(10_000);

    stream.requests.onNext(DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId("raw")).setTypeUrl(LDS)
        .setResponseNonce(stream.responses.get(0).getNonce())
        .setErrorDetail(com.google.rpc.Status.newBuilder().setCode(3).setMessage(detail)).build());

    await().atMost(WAIT).until(() -> harness.nacks.size() == 1);
    String stored = harness.nacks.get(0).errorDetail();
    assertThat(stored).startsWith("bad listener 2026-01-01 INFO forged line  xxx")
        .doesNotContain("\n", "\r", "\u2028")
        .endsWith("...(" + detail.length() + " chars)")
        .hasSizeLessThan(ClientText.MAX_DETAIL_LENGTH + 32);
    assertThat(harness.server.proxies().get(0).lastNack().orElseThrow().errorDetail()).isEqualTo(stored);
  }

  @Test
  void requestOverTheMessageSizeIsRefusedWhileAnotherStreamKeepsReceiving() {
    try (ServerHarness strict = new ServerHarness(XdsLimits.DEFAULTS.withMaxInboundMessageBytes(64 * 1024))) {
      strict.cache.setSnapshot(config(10_001));
      AdsTestClient good = track(AdsTestClient.ads(strict.port(), "envoy-good"));
      good.subscribe(LDS);
      await().atMost(WAIT).until(() -> good.versions(LDS).size() == 1);
      AdsTestClient hostile = track(AdsTestClient.ads(strict.port(), "envoy-big"));

      hostile.subscribe(EDS, names("c".repeat(100), 1_000).toArray(String[]::new)); // about 100 KB

      await().atMost(WAIT).until(() -> hostile.error() != null);
      assertThat(Status.fromThrowable(hostile.error()).getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
      XdsSnapshot next = config(10_002);
      strict.cache.setSnapshot(next);
      await().atMost(WAIT).until(() -> good.versions(LDS).contains(next.version()));
    }
  }

  @Test
  void aClientResettingStreamsFasterThanAllowedLosesItsConnection() {
    try (ServerHarness strict = new ServerHarness(XdsLimits.DEFAULTS.withMaxResets(10, Duration.ofSeconds(10)))) {
      strict.cache.setSnapshot(config(10_001));
      AdsTestClient good = track(AdsTestClient.ads(strict.port(), "envoy-good"));
      good.subscribe(LDS);
      await().atMost(WAIT).until(() -> good.versions(LDS).size() == 1);
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", strict.port()).usePlaintext().build();
      track(() -> {
        channel.shutdownNow();
        channel.awaitTermination(5, TimeUnit.SECONDS);
      });
      RawStream victim = new RawStream(channel);
      await().atMost(WAIT).until(() -> victim.responses.size() == 1);

      // Open-and-reset: each stream is answered, then cancelled (an RST_STREAM frame), on the same connection.
      for (int i = 0; i < 20 && victim.error == null; i++) {
        RawStream reset = new RawStream(channel);
        await().atMost(WAIT).until(() -> !reset.responses.isEmpty() || reset.error != null);
        ((io.grpc.stub.ClientCallStreamObserver<DiscoveryRequest>) reset.requests).cancel("rapid reset", null);
      }

      await().atMost(WAIT).until(() -> victim.error != null);
      // The connection is closed with GOAWAY ENHANCE_YOUR_CALM, which grpc-java reports as RESOURCE_EXHAUSTED,
      // or as UNAVAILABLE when it sees the connection close first.
      assertThat(Status.fromThrowable(victim.error).getCode())
          .isIn(Status.Code.RESOURCE_EXHAUSTED, Status.Code.UNAVAILABLE);
      XdsSnapshot next = config(10_002);
      strict.cache.setSnapshot(next);
      await().atMost(WAIT).until(() -> good.versions(LDS).contains(next.version()));
    }
  }

  /** A bare ADS stream on a given channel asking for listeners, recording what it gets (no ACKs). */
  private static final class RawStream {
    final List<DiscoveryResponse> responses = new CopyOnWriteArrayList<>();
    final StreamObserver<DiscoveryRequest> requests;
    volatile Throwable error;

    RawStream(ManagedChannel channel) {
      requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(new StreamObserver<>() {
        @Override
        public void onNext(DiscoveryResponse response) {
          responses.add(response);
        }

        @Override
        public void onError(Throwable t) {
          error = t;
        }

        @Override
        public void onCompleted() {
        }
      });
      requests.onNext(DiscoveryRequest.newBuilder().setNode(Node.newBuilder().setId("raw")).setTypeUrl(LDS).build());
    }
  }

}
