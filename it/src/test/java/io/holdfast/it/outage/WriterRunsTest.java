package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class WriterRunsTest {
  private static final String LEASE = "/apis/coordination.k8s.io/v1/namespaces/holdfast-system/leases/holdfast";
  private static final String STATUS = "/apis/gateway.holdfast.io/v1/namespaces/demo/virtualservices/echo/status";

  private static WriteRecord put(String path, String agent, long at, int code) {
    return new WriteRecord("PUT", path, agent, at, at + 5, code);
  }

  @Test
  void aCleanHandoverIsTwoRunsWithAPositiveGap() {
    WriterRuns runs = WriterRuns.of(List.of(
        put(LEASE, "holdfast/r1", 100, 200), put(STATUS, "holdfast/r1", 150, 200),
        put(LEASE, "holdfast/r2", 2600, 200), put(STATUS, "holdfast/r2", 2700, 200)));
    assertThat(runs.writers()).containsExactly("r1", "r2");
    assertThat(runs.gaps()).containsExactly(2600L - 155L);
  }

  @Test
  void aWriterReturningAfterAnotherStartsANewRun() {
    WriterRuns runs = WriterRuns.of(List.of(put(STATUS, "holdfast/r1", 100, 200),
        put(STATUS, "holdfast/r2", 200, 200), put(STATUS, "holdfast/r1", 300, 200)));
    assertThat(runs.writers()).containsExactly("r1", "r2", "r1");
  }

  @Test
  void rejectedWritesAndOtherClientsAreNotLeaderWrites() {
    WriterRuns runs = WriterRuns.of(List.of(put(LEASE, "holdfast/r1", 100, 200),
        put(LEASE, "holdfast/r2", 200, 409), put(STATUS, "stdin", 300, 200),
        new WriteRecord("POST", "/apis/gateway.holdfast.io/v1/namespaces/demo/upstreams", "holdfast/r2", 400, 401, 201),
        put(LEASE, "holdfast/r1", 500, 200)));
    assertThat(runs.writers()).containsExactly("r1");
    assertThat(runs.runs().get(0).writes()).isEqualTo(2);
  }

  @Test
  void parsesTheMockRecordLine() {
    WriteRecord w = WriteRecord.parse("{\"method\":\"PUT\",\"path\":\"" + STATUS
        + "\",\"userAgent\":\"holdfast/r3\",\"startMillis\":10,\"endMillis\":12,\"code\":200}");
    assertThat(w.writer()).isEqualTo("r3");
    assertThat(w.isStatusWrite()).isTrue();
    assertThat(w.isLeaseWrite()).isFalse();
    assertThat(w.resourceVersion()).isEmpty();
    WriteRecord release = WriteRecord.parse("{\"method\":\"PUT\",\"path\":\"" + LEASE
        + "\",\"userAgent\":\"holdfast/r3\",\"startMillis\":10,\"endMillis\":12,\"code\":200,"
        + "\"resourceVersion\":\"41\",\"holder\":\"\"}");
    assertThat(release.holderSet()).as("released").isEmpty();
    assertThat(release.resourceVersion()).isEqualTo("41");
    assertThatThrownBy(() -> new WriteRecord("PUT", "/x", "a", 10, 9, 200)).hasMessageContaining("ends before");
  }
}
