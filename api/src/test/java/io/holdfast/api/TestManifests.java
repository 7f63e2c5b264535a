package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** Shared fixture helpers: YAML text to trees and configs. */
public final class TestManifests {

  private static final ManifestReader READER = new ManifestReader();
  private static final ConfigLoader LOADER = new ConfigLoader();

  private TestManifests() {
  }

  /** The single document of {@code yaml}. */
  public static JsonNode tree(String yaml) {
    ManifestReader.Result result = READER.read("test.yaml", yaml);
    assertThat(result.errors()).isEmpty();
    assertThat(result.documents()).hasSize(1);
    return result.documents().get(0).tree();
  }

  /** A config from YAML texts that must load without manifest errors (resources may still be unparsed). */
  public static GatewayConfig config(String... yamls) {
    return config(Map.of(), yamls);
  }

  public static GatewayConfig config(Map<ServiceRef, List<Endpoint>> endpoints, String... yamls) {
    List<ConfigLoader.Source> sources = new java.util.ArrayList<>();
    for (int i = 0; i < yamls.length; i++) {
      sources.add(new ConfigLoader.Source("test-" + i + ".yaml", yamls[i]));
    }
    ConfigLoader.Loaded loaded = LOADER.load(sources, endpoints);
    assertThat(loaded.errors()).isEmpty();
    return loaded.config();
  }

  /** A static Upstream manifest on 127.0.0.1 in namespace {@code default}. */
  public static String upstream(String name, int port) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: %s}
        spec:
          static:
            hosts: [{address: 127.0.0.1, port: %d}]
        """.formatted(name, port);
  }

  /** A VirtualService manifest routing everything for {@code domain} to {@code upstream}. */
  public static String virtualService(String name, String domain, String upstream) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s}
        spec:
          domains: [%s]
          routes:
            - match: {prefix: /}
              route: {upstream: %s}
        """.formatted(name, domain, upstream);
  }

  public static String gateway(String name, int port) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: %s}
        spec:
          port: %d
        """.formatted(name, port);
  }
}
