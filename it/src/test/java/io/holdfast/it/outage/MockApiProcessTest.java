package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The emulated API process: CRDs installed, stdin writes, the write record with User-Agents, pause and stop. */
@ExtendWith(ProcessCleanup.class)
class MockApiProcessTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void recordsWritesWithTheirWriterAndServesTheStatusSubresource() throws Exception {
    try (MockApi api = MockApi.start(Launcher.freshDir("mock-api-test"))) {
      GatewayResources.Resource vs = GatewayResources.virtualService("echo", "echo.test", "a");
      assertThat(api.create(vs)).isEqualTo(201);
      assertThat(api.create(vs)).as("a duplicate create").isEqualTo(409);
      assertThat(api.get(vs).path("spec").path("domains").get(0).asString()).isEqualTo("echo.test");

      ObjectNode object = (ObjectNode) api.get(vs);
      object.set("status", JsonMapper.builder().build()
          .readTree("{\"conditions\":[{\"type\":\"Accepted\",\"status\":\"True\"}]}"));
      String status = object.toString();
      HttpResponse<String> put = http.send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + api.port() + vs.path() + "/status"))
          .header("User-Agent", "holdfast/r7").header("Content-Type", "application/json")
          .PUT(HttpRequest.BodyPublishers.ofString(status)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
      assertThat(api.get(vs).path("status").path("conditions").get(0).path("status").asString()).isEqualTo("True");

      assertThat(api.writes()).extracting(WriteRecord::userAgent, WriteRecord::method, WriteRecord::code)
          .contains(org.assertj.core.groups.Tuple.tuple("stdin", "POST", 201),
              org.assertj.core.groups.Tuple.tuple("stdin", "POST", 409),
              org.assertj.core.groups.Tuple.tuple("holdfast/r7", "PUT", 200));
      WriteRecord statusWrite = api.writes().stream().filter(WriteRecord::isStatusWrite).findFirst().orElseThrow();
      assertThat(statusWrite.writer()).isEqualTo("r7");
      assertThat(statusWrite.startMillis()).isBetween(System.currentTimeMillis() - 60_000, System.currentTimeMillis());
    }
  }

  @Test
  void aPausedApiAnswersNothingUntilResumedAndStopEndsTheProcess() throws Exception {
    MockApi api = MockApi.start(Launcher.freshDir("mock-api-pause"));
    ManagedProcess p = api.process();
    HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port()
        + "/apis/gateway.holdfast.io/v1/namespaces/demo/upstreams")).timeout(Duration.ofMillis(700)).build();
    assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    p.pause();
    assertThatThrownBy(() -> http.send(get, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    p.resume();
    assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    api.close();
    assertThat(p.isAlive()).isFalse();
    assertThat(ManagedProcess.live()).isZero();
  }
}
