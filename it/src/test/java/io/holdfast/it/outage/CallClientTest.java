package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CallClientTest {
  @TempDir
  Path dir;

  @Test
  void failuresBeforeTheFirstAnswerAreStartUpNotLossOfService() throws Exception {
    Files.writeString(dir.resolve("c.calls.jsonl"), """
        {"t":1,"seq":0,"ok":false,"error":"UNAVAILABLE: xDS server unreachable"}
        {"t":2,"seq":1,"ok":false,"error":"UNAVAILABLE: xDS server unreachable"}
        {"t":3,"seq":2,"ok":true,"backend":"a"}
        {"t":4,"seq":3,"ok":false,"error":"DEADLINE_EXCEEDED: x"}
        {"t":5,"seq":4,"ok":true,"backend":"a"}
        {"t":6,"seq":5,"ok":false""");
    CallClient c = CallClient.readOnly("c", dir.resolve("c.calls.jsonl"));

    assertThat(c.calls()).as("a line still being written is left for later").hasSize(5);
    assertThat(c.startUpFailures()).isEqualTo(2);
    assertThat(c.failed()).isEqualTo(1);
    assertThat(c.failures()).extracting(CallClient.Call::seq).containsExactly(3L);
    assertThat(c.succeededSince(4, "a")).isEqualTo(1);
  }
}
