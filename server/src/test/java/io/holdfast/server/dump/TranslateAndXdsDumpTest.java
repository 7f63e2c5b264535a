package io.holdfast.server.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.holdfast.pipeline.PipelineSettings;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.xds.snapshot.XdsSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code translate} and {@code xds-dump} against examples/config: the offline translation is what a running
 * file-mode server serves for the same directory (fetched over its xDS port as a node would), and the document's
 * shape (sections and resource names) is pinned by a golden.
 */
class TranslateAndXdsDumpTest {
  private static final Path EXAMPLES = Path.of("..", "examples", "config");
  private static final Path SHAPE = Path.of("src/test/resources/fleet/translate-examples.shape.txt");

  @Test
  void theOfflineTranslationIsWhatTheServerServesForTheSameDirectory() throws Exception {
    OfflineTranslation offline = OfflineTranslation.of(EXAMPLES, PipelineSettings.DEFAULTS, Clock.systemUTC());
    XdsSnapshot translated = offline.snapshot().orElseThrow();
    assertThat(offline.rejected()).isEmpty();
    JsonNode translatedDoc = ConfigDump.document(Map.of(), translated.resources());

    try (HoldfastServer server = HoldfastServer.start(new ServeSettings(EXAMPLES, "127.0.0.1", 0, "127.0.0.1", 0,
        Optional.empty(), LogFormat.TEXT), Clock.systemUTC())) {
      await().atMost(Duration.ofSeconds(30)).until(() -> server.cache().currentSnapshot().isPresent());
      ManagedChannel channel = Grpc.newChannelBuilderForAddress("127.0.0.1", server.xdsPort(),
          InsecureChannelCredentials.create()).build();
      try {
        AdsDump.Result served = AdsDump.fetch(channel, "xds-dump-test", Duration.ofSeconds(20));

        assertThat(served.failure()).isEmpty();
        assertThat(served.unanswered()).isEmpty();
        assertThat(served.versions().values()).containsOnly(translated.version());
        assertThat(ConfigDump.document(Map.of(), served.resources())).isEqualTo(translatedDoc);
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
    // Not trivially equal: every section has resources, and the secrets' keys are redacted on both sides.
    for (String section : ConfigDump.SECTIONS.values()) {
      assertThat(translatedDoc.path(section).size()).as(section).isPositive();
    }
    assertThat(translatedDoc.toString()).doesNotContain("PRIVATE KEY").contains("[redacted]");
  }

  @Test
  void theDocumentsShapeMatchesItsGolden() throws IOException {
    XdsSnapshot snapshot = OfflineTranslation.of(EXAMPLES, PipelineSettings.DEFAULTS, Clock.systemUTC())
        .snapshot().orElseThrow();
    JsonNode doc = ConfigDump.document(Map.of("version", "V"), snapshot.resources());
    List<String> lines = new ArrayList<>();
    doc.properties().forEach(e -> {
      lines.add(e.getKey() + ":");
      if (e.getValue().isArray()) {
        e.getValue().forEach(r -> lines.add("  " + r.path("name").asString(r.path("cluster_name").asString(""))
            + " {" + String.join(",", r.propertyNames()) + "}"));
      }
    });
    String shape = String.join("\n", lines) + "\n";
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(SHAPE, shape);
    }
    assertThat(shape).isEqualTo(Files.readString(SHAPE));
  }

  @Test
  void oneProxysViewHoldsOnlyItsScope() throws IOException {
    XdsSnapshot snapshot = OfflineTranslation.of(EXAMPLES, PipelineSettings.DEFAULTS, Clock.systemUTC())
        .snapshot().orElseThrow();
    String proxy = snapshot.scopes().byProxy().firstKey();
    var scope = snapshot.scopes().of(proxy).orElseThrow();

    var filtered = ConfigDump.filter(snapshot.resources(), scope::contains);

    filtered.forEach((type, byName) -> assertThat(byName.keySet()).isSubsetOf(scope.ofType(type)));
    assertThat(filtered.values().stream().mapToInt(Map::size).sum()).isPositive();
  }
}
