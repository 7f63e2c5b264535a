package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.holdfast.election.ElectionSettings;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.HoldfastCli;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The hidden fault-injection flag {@code --kube-status-api-server}: the status writer alone talks to that URL, so
 * the outage suite can delay the leader's status connection and nothing else.
 */
class StatusApiServerOptionTest {
  private static final String NS = "demo";

  @Test
  void theHiddenFlagReachesTheSettingsAndStaysOutOfTheHelp() {
    AtomicReference<ServeSettings> seen = new AtomicReference<>();
    HoldfastCli cli = new HoldfastCli(settings -> {
      seen.set(settings);
      return 0;
    }, Map.of());
    assertThat(cli.execute("serve", "--kubernetes", "--kube-api-url", "http://127.0.0.1:1",
        "--kube-status-api-server", "http://127.0.0.1:2", "--identity", "r1")).isZero();
    assertThat(seen.get().kubernetes().orElseThrow().statusApiServerUrl()).contains("http://127.0.0.1:2");

    PrintStream saved = System.out;
    ByteArrayOutputStream help = new ByteArrayOutputStream();
    System.setOut(new PrintStream(help, true, StandardCharsets.UTF_8));
    try {
      cli.execute("serve", "--help");
    } finally {
      System.setOut(saved);
    }
    assertThat(help.toString(StandardCharsets.UTF_8)).contains("--kube-api-url").doesNotContain("status-api-server");
  }

  @Test
  void statusWritesGoThroughTheStatusUrlAlone() throws Exception {
    try (MockKubeApi api = MockKubeApi.start(); FaultProxy main = FaultProxy.start("api", api.port());
         FaultProxy status = FaultProxy.start("status", api.port())) {
      for (String file : List.of("upstreams", "virtualservices", "gateways")) {
        try (InputStream in = Files.newInputStream(Path.of("..", "deploy", "crds", "gateway.holdfast.io_" + file + ".yaml"))) {
          api.admin().apiextensions().v1().customResourceDefinitions()
              .resource(api.admin().getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
        }
      }
      GenericKubernetesResource vs = api.admin().getKubernetesSerialization().unmarshal("""
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: echo, namespace: demo}
          spec:
            domains: [echo.test]
            routes:
              - match: {prefix: /}
                route: {upstream: missing}
          """, GenericKubernetesResource.class);
      api.admin().genericKubernetesResources("gateway.holdfast.io/v1", "VirtualService").inNamespace(NS).resource(vs)
          .create();
      ElectionSettings election = ElectionSettings.builder().identity("r1").leaseNamespace("holdfast-system")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(Optional.of(NS),
          Optional.of("http://127.0.0.1:" + main.port()), Optional.of("http://127.0.0.1:" + status.port()))),
          election);
      try (HoldfastServer holdfast = HoldfastServer.start(settings, Clock.systemUTC())) {
        // The source and the elector use the main URL; the Accepted=False status can only come the other way.
        await().atMost(Duration.ofSeconds(30)).until(() -> hasStatus(api));
        assertThat(status.requestsForwarded()).as("requests through the status URL").isPositive();
        assertThat(holdfast.state()).containsEntry("role", "leader");
      }
    }
  }

  private static boolean hasStatus(MockKubeApi api) {
    GenericKubernetesResource r = api.admin().genericKubernetesResources("gateway.holdfast.io/v1", "VirtualService")
        .inNamespace(NS).withName("echo").get();
    return r != null && r.getAdditionalProperties().get("status") instanceof Map<?, ?> m && m.containsKey("conditions");
  }
}
