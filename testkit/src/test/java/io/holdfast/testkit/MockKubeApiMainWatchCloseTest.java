package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watch cut off while the emulated API is sending it events must not stall the API. fabric8's mock closes a
 * watch by waiting, on its only event loop, for the watch's sender, whose write waits for that event loop: up
 * to 30 s in which the API answers nothing (seen as 30 s holes in the outage suite's write records).
 */
class MockKubeApiMainWatchCloseTest {
  @TempDir
  Path dir;

  @Test
  void aWatchCutMidStreamLeavesTheApiAnswering() throws Exception {
    try (MockKubeApiMain api = MockKubeApiMain.start(0, dir.resolve("writes.jsonl"), List.of());
         FaultProxy link = FaultProxy.start("watch", api.port());
         KubernetesClient watcher = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(link.port())).build()) {
      AtomicInteger events = new AtomicInteger();
      Watch watch = watcher.configMaps().inNamespace("demo").watch(new Watcher<>() {
        @Override
        public void eventReceived(Action action, ConfigMap resource) {
          events.incrementAndGet();
        }

        @Override
        public void onClose(WatcherException cause) {
          // cut below
        }
      });
      // A steady stream of events on the watch, then the connection is cut while they are being sent.
      Thread writer = new Thread(() -> {
        for (int i = 0; i < 3_000 && !Thread.currentThread().isInterrupted(); i++) {
          api.submit("POST", "/api/v1/namespaces/demo/configmaps",
              "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + i + "\"},"
                  + "\"data\":{\"k\":\"" + "x".repeat(2_000) + "\"}}");
        }
      }, "event-writer");
      writer.start();
      await().atMost(Duration.ofSeconds(30)).until(() -> events.get() > 50);
      link.reset();
      writer.interrupt();
      writer.join(10_000);
      watch.close();

      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
      long started = System.nanoTime();
      HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port()
          + "/api/v1/namespaces/demo/configmaps?limit=1")).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the API answers while the cut watch closes")
          .isLessThan(Duration.ofSeconds(5));
    }
  }
}
