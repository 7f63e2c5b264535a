package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.LDS;
import static io.holdfast.xds.server.Fixtures.listener;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Snapshots set from two threads while streams ACK: every stream converges and never gets a version twice. */
class ConcurrentPublishTest {

  @Test
  void streamsConvergeOnTheLastSnapshotWithoutDuplicatePushes() throws Exception {
    try (ServerHarness harness = new ServerHarness()) {
      harness.cache.setSnapshot(snapshot(listener("l1", 1)));
      List<AdsTestClient> clients = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        AdsTestClient client = AdsTestClient.ads(harness.port(), "node-" + i);
        client.subscribe(LDS);
        clients.add(client);
      }
      ExecutorService publishers = Executors.newFixedThreadPool(2);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
          int offset = t * 1000;
          done.add(publishers.submit(() -> {
            for (int i = 2; i < 27; i++) {
              harness.cache.setSnapshot(snapshot(listener("l1", offset + i)));
            }
          }));
        }
        for (Future<?> future : done) {
          future.get();
        }
      } finally {
        publishers.shutdownNow();
      }
      String last = harness.cache.currentSnapshot().orElseThrow().version();
      for (AdsTestClient client : clients) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
          List<String> versions = client.versions(LDS);
          return !versions.isEmpty() && versions.get(versions.size() - 1).equals(last);
        });
        assertThat(client.versions(LDS)).doesNotHaveDuplicates();
        client.close();
      }
    }
  }
}
