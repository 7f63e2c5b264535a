package io.holdfast.server.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22: in file mode, without creationTimestamps, "older wins" went by the alphabet, so a VirtualService added
 * later with an earlier name took the domain another one was serving, and was called the older. Age is the order
 * objects were first served, and the snapshot file carries it across a restart.
 */
class FileModeAgeTest {

  private static final Duration CONVERGE = Duration.ofSeconds(15);
  private static final ResourceKey SERVING = ResourceKey.virtualService("default", "web");
  private static final ResourceKey NEWCOMER = ResourceKey.virtualService("default", "aaa-newcomer");
  /** Both are served by Gateway http, whose one route configuration holds a domain once. */
  private static final String ON_HTTP = ", on Gateway/default/http (one route configuration holds a domain once)";

  @TempDir
  Path configDir;
  @TempDir
  Path snapshotDir;
  private HoldfastServer holdfast;

  @AfterEach
  void stop() {
    if (holdfast != null) {
      holdfast.close();
    }
  }

  private static String virtualService(String name) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s}
        spec:
          domains: [d.test]
          routes: [{match: {prefix: /}, route: {upstream: up}}]
        """.formatted(name);
  }

  private HoldfastServer start() throws IOException {
    return HoldfastServer.start(new ServeSettings(configDir, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.of(snapshotDir), LogFormat.TEXT), Clock.systemUTC());
  }

  private Optional<ResourceStatus> status(ResourceKey key) {
    return holdfast.statusBoard().statusOf(key);
  }

  /** The serving VirtualService keeps the domain; the newcomer is rejected naming the serving one as the older. */
  private void assertTheFirstServedKeepsTheDomain() {
    await().atMost(CONVERGE).until(() -> status(NEWCOMER).map(s -> !s.isServed()).orElse(false)
        && status(SERVING).map(ResourceStatus::isServed).orElse(false));
    assertThat(status(NEWCOMER).orElseThrow().problems()).singleElement().satisfies(problem -> {
      assertThat(problem.reason()).isEqualTo(Reasons.DUPLICATE_DOMAIN);
      assertThat(problem.message()).isEqualTo("domain \"d.test\" is already served by " + SERVING
          + ", which is older" + ON_HTTP);
    });
  }

  @Test
  void aVirtualServiceAddedLaterNeverTakesADomainBeingServedNorAfterARestart() throws IOException {
    Files.writeString(configDir.resolve("base.yaml"), """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: up}
        spec: {static: {hosts: [{address: 127.0.0.1, port: 9101}]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: http}
        spec: {port: 10080}
        """);
    Files.writeString(configDir.resolve("web.yaml"), virtualService("web"));
    holdfast = start();
    await().atMost(CONVERGE).until(() -> status(SERVING).map(ResourceStatus::isServed).orElse(false));

    Files.writeString(configDir.resolve("newcomer.yaml"), virtualService("aaa-newcomer"));
    assertTheFirstServedKeepsTheDomain();
    // The newcomer's age is stored although the served snapshot did not change.
    await().atMost(CONVERGE).until(() -> Files.exists(snapshotDir.resolve("xds-snapshot.bin")));

    holdfast.close();
    holdfast = start();
    assertTheFirstServedKeepsTheDomain();

    // Gone and added back, the serving one is the newest: the other one, older now, takes the domain.
    Files.delete(configDir.resolve("web.yaml"));
    await().atMost(CONVERGE).until(() -> status(NEWCOMER).map(ResourceStatus::isServed).orElse(false));
    Files.writeString(configDir.resolve("web.yaml"), virtualService("web"));
    await().atMost(CONVERGE).until(() -> status(SERVING).map(s -> !s.isServed()).orElse(false));
    assertThat(status(NEWCOMER).orElseThrow().isServed()).isTrue();
    assertThat(status(SERVING).orElseThrow().problems()).singleElement().satisfies(problem -> assertThat(
        problem.message()).isEqualTo("domain \"d.test\" is already served by " + NEWCOMER + ", which is older"
        + ON_HTTP));
  }
}
