package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A watch that goes away while the emulated API (process or in-process) is sending it events must not stall the
 * API. fabric8's mock closes a watch by waiting, on its only event loop, for the watch's sender thread, whose
 * write waits for that same event loop: up to 30 s in which the API answered nothing (seen as 30 s holes in the
 * outage suite's write records, whenever a replica was killed or cut off while events flowed).
 */
class WatchCloseTest {
  /** Enough event bytes to fill the socket buffers of a watch that does not read, so a send is in progress. */
  private static final int EVENTS = 800;
  private static final int EVENT_BYTES = 20_000;

  @TempDir
  Path dir;

  @Test
  void aWatchThatGoesAwayMidSendLeavesTheProcessApiAnswering() throws Exception {
    try (MockKubeApiMain api = MockKubeApiMain.start(0, dir.resolve("writes.jsonl"), List.of())) {
      dropAWatchMidSend(api.port(), i -> api.submit("POST", "/api/v1/namespaces/demo/configmaps", configMap(i)));
    }
  }

  @Test
  void aWatchThatGoesAwayMidSendLeavesTheInProcessApiAnswering() throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      dropAWatchMidSend(api.port(), i -> api.admin().configMaps().inNamespace("demo")
          .resource(api.admin().getKubernetesSerialization().unmarshal(configMap(i), ConfigMap.class)).create());
    }
  }

  private static String configMap(int i) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm-" + i + "\"},"
        + "\"data\":{\"k\":\"" + "x".repeat(EVENT_BYTES) + "\"}}";
  }

  /**
   * Opens a watch that asks for no messages (so it stops reading, its socket buffers fill and the API's sender
   * is left mid-write), makes events, drops the connection, then times a plain request.
   */
  private static void dropAWatchMidSend(int apiPort, IntConsumer write) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    WebSocket watch = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + apiPort
        + "/api/v1/namespaces/demo/configmaps?watch=true"), new WebSocket.Listener() {
          @Override
          public void onOpen(WebSocket webSocket) {
            // no request(n): nothing is read past what the buffers hold
          }
        }).get(10, TimeUnit.SECONDS);
    for (int i = 0; i < EVENTS; i++) {
      write.accept(i);
    }
    watch.abort(); // the connection goes, as a killed or cut-off client's does

    long started = System.nanoTime();
    HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort
        + "/api/v1/namespaces/demo/configmaps?limit=1")).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the API answers while the dropped watch closes")
        .isLessThan(Duration.ofSeconds(5));
  }
}
