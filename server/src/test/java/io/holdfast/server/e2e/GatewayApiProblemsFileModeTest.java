package io.holdfast.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.server.validate.GatewayApiProblemsTestCases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running file-mode server fed every fully rejected (and partly served) Gateway API object at once: each gets its
 * named reason on the status board ({@code /state} and the status page read it), the unrelated route beside them
 * stays accepted, and a route added afterwards is served (before, the first fully rejected object failed every
 * later build: "config build failed; still serving the previous snapshot").
 */
class GatewayApiProblemsFileModeTest {

  @TempDir
  Path configDir;

  @Test
  void everyProblemIsOnTheBoardAndALaterRouteIsServed() throws Exception {
    write("base.yaml", GatewayApiProblemsTestCases.BASE);
    write("bad.yaml", GatewayApiProblemsTestCases.cases().map(GatewayApiProblemsTestCases.Case::yaml)
        .collect(Collectors.joining("---\n")));
    try (HoldfastServer holdfast = HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1",
        0, Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      StatusBoard board = holdfast.statusBoard();
      await().atMost(Duration.ofSeconds(30)).until(() -> board.statusOf(GatewayApiProblemsTestCases.GOOD)
          .isPresent());
      assertThat(board.statusOf(GatewayApiProblemsTestCases.GOOD)).get().extracting(ResourceStatus::state)
          .isEqualTo(ResourceStatus.State.ACCEPTED);
      GatewayApiProblemsTestCases.cases().forEach(c -> assertThat(board.statusOf(c.key())).as(c.name()).get()
          .satisfies(s -> {
            assertThat(s.state()).isEqualTo(c.state());
            assertThat(s.problems()).anySatisfy(p -> {
              assertThat(p.field()).isEqualTo(c.field());
              assertThat(p.reason()).isEqualTo(c.reason());
            });
          }));
      assertThat(board.toState().toString()).contains("InvalidEnumValue", "NoMatchingParent", "RefNotPermitted");

      ResourceKey later = GatewayApiProblemsTestCases.route("HTTPRoute", "later");
      long start = System.nanoTime();
      write("later.yaml", GatewayApiProblemsTestCases.httpRoute("later", "{name: edge, namespace: infra}",
          "[later.test]", "{name: a, port: 8080}"));
      await().atMost(Duration.ofSeconds(10)).until(() -> board.statusOf(later)
          .map(s -> s.state() == ResourceStatus.State.ACCEPTED).orElse(false));
      System.out.printf("later route served %d ms after its file was written%n",
          (System.nanoTime() - start) / 1_000_000);
      assertThat(board.current().orElseThrow().translation().snapshot().resources().toString())
          .contains("later.test");
    }
  }

  private void write(String name, String text) throws Exception {
    Path tmp = Files.createTempFile(configDir, ".tmp-", ".part");
    Files.writeString(tmp, text);
    Files.move(tmp, configDir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
