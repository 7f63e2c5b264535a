package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ServingPortsTest {
  @Test
  void readsBothPortsFromTheServingLine() {
    String log = "2026-12-03T07:40:54.293Z INFO  [main] HoldfastServer - holdfast serving xds=127.0.0.1:44497"
        + " admin=127.0.0.1:34485 source=kubernetes election=lease identity=r1\n";
    assertThat(ServingPorts.parse(log)).contains(new ServingPorts(44497, 34485));
    assertThat(ServingPorts.parse("admin server listening address=127.0.0.1 port=1\n")).isEmpty();
  }
}
