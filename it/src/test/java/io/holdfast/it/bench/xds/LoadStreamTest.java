package io.holdfast.it.bench.xds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The load generator's stream subscribes like Envoy, ACKs or NACKs, and sees each change, against Holdfast. */
class LoadStreamTest {

  private final BenchSnapshots snapshots = new BenchSnapshots(100, 20);
  private final HoldfastTarget target = new HoldfastTarget(snapshots.revision(0));
  private final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", target.port()).usePlaintext()
      .directExecutor().build();
  private final Map<String, String> versions = new ConcurrentHashMap<>();
  private final List<String> seen = new CopyOnWriteArrayList<>();
  private final List<Throwable> errors = new CopyOnWriteArrayList<>();
  private final List<Integer> sizes = new CopyOnWriteArrayList<>();
  private final LoadStreams.Sink sink = new LoadStreams.Sink() {
    @Override
    public void onResponse(LoadStreams.Stream stream, String typeUrl, String version, int bytes, long arrivedNanos) {
      versions.put(typeUrl, version);
      seen.add(typeUrl);
      sizes.add(bytes);
    }

    @Override
    public void onError(LoadStreams.Stream stream, Throwable t) {
      errors.add(t);
    }
  };

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    target.close();
  }

  @Test
  void anAckingStreamGetsAllFourTypesAndThenEachChange() {
    LoadStream stream = new LoadStream(0, false, sink);
    stream.open(channel);
    String v0 = snapshots.revision(0).version();
    await().atMost(Duration.ofSeconds(10)).until(() -> versions.size() == 4 && versions.values().stream().allMatch(v0::equals));

    XdsSnapshot next = snapshots.revision(1);
    target.publish(next);
    await().atMost(Duration.ofSeconds(10)).until(() -> next.version().equals(versions.get(LoadStream.EDS))
        && next.version().equals(versions.get(LoadStream.RDS)));
    assertThat(versions.get(LoadStream.CDS)).as("unchanged clusters are not re-sent").isEqualTo(v0);
    assertThat(errors).isEmpty();
    stream.close();
  }

  @Test
  void aNackingStreamStillSubscribesToAllTypesAndHoldfastDoesNotResend() {
    LoadStream stream = new LoadStream(0, true, sink);
    stream.open(channel);
    await().atMost(Duration.ofSeconds(10)).until(() -> versions.size() == 4);
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> seen.size() == 4);
    assertThat(errors).isEmpty();
    stream.close();
  }

  @Test
  void aDeltaStreamGetsAllFourTypesThenOnlyWhatEachChangeAlters() {
    LoadDeltaStream stream = new LoadDeltaStream(0, false, sink, new java.util.HashMap<>());
    stream.open(channel);
    XdsSnapshot first = snapshots.revision(0);
    await().atMost(Duration.ofSeconds(10)).until(() -> LoadStream.TYPES.stream()
        .allMatch(t -> stream.state(t).startsWith(first.version() + " " + first.ofType(t).size() + " ")));
    int before = seen.size();
    int initialBytes = sizes.stream().mapToInt(Integer::intValue).sum();

    XdsSnapshot next = snapshots.revision(1);
    target.publish(next);
    await().atMost(Duration.ofSeconds(10)).until(() -> next.version().equals(versions.get(LoadStream.EDS))
        && next.version().equals(versions.get(LoadStream.RDS)));
    assertThat(seen.subList(before, seen.size())).containsExactlyInAnyOrder(LoadStream.EDS, LoadStream.RDS);
    int changeBytes = sizes.subList(before, sizes.size()).stream().mapToInt(Integer::intValue).sum();
    // Two of the 20 ClusterLoadAssignments and the route configurations change; the routes are most of the bytes.
    assertThat(changeBytes).as("only the changed resources are sent").isLessThan(initialBytes / 2);
    assertThat(stream.state(LoadStream.EDS)).startsWith(next.version() + " " + next.ofType(LoadStream.EDS).size() + " ");
    assertThat(errors).isEmpty();
    stream.close();
  }
}
