package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.it.demo.EchoBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client side of the harness against a file-mode Holdfast process: grpc-java's xDS client (XdsCallLoop)
 * gets config from it and reaches the backend; stopping the control plane does not fail its calls.
 */
@ExtendWith(ProcessCleanup.class)
class CallLoopTest {
  @Test
  void aClientJvmIsServedThroughXdsAndKeepsCallingWhileTheControlPlaneIsDown() throws Exception {
    Path dir = Launcher.freshDir("call-loop");
    Path config = dir.resolve("config");
    Files.createDirectories(config);
    try (EchoBackend a = EchoBackend.start("a")) {
      Files.writeString(config.resolve("config.yaml"), """
          apiVersion: gateway.holdfast.io/v1
          kind: Upstream
          metadata: {name: a}
          spec:
            static:
              hosts: [{address: 127.0.0.1, port: %d}]
            http2: true
          ---
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: echo}
          spec:
            domains: [echo.test]
            routes:
              - name: all
                match: {prefix: /}
                route: {upstream: a}
          """.formatted(a.port()));
      ManagedProcess holdfast = ManagedProcess.start("holdfast-file", Launcher.holdfast(List.of("serve",
          "--config-dir", config.toString(), "--xds-port", "0", "--admin-port", "0")), dir.resolve("holdfast.log"));
      // The client starts once the control plane serves config: a grpc-java client that dials too early backs
      // off for seconds and fails its calls meanwhile, which is start-up, not what this test is about.
      ServingPorts ports = ServingPorts.awaitListening(holdfast, Duration.ofSeconds(60));
      await("holdfast ready").atMost(Duration.ofSeconds(60)).until(ports::ready);
      CallClient client = CallClient.start("c1", "holdfast-file", ports.xds(), "echo.test", dir);
      await().atMost(Duration.ofSeconds(60)).until(() -> client.succeeded() >= 5);
      assertThat(client.calls()).filteredOn(CallClient.Call::ok).extracting(CallClient.Call::backend).containsOnly("a");
      assertThat(client.timeToFirstSuccess()).get().satisfies(ms -> assertThat(ms).isPositive());

      assertThat(holdfast.stop()).isZero();
      long stopped = System.currentTimeMillis();
      await().atMost(Duration.ofSeconds(20)).until(() -> client.succeededSince(stopped, "a") >= 20);
      assertThat(client.failures()).as("calls failed once served (the control plane stopped at %d)", stopped)
          .isEmpty();
      client.close();
      assertThat(client.process().isAlive()).isFalse();
    }
  }
}
