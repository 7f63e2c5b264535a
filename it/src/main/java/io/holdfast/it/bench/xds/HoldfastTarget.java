package io.holdfast.it.bench.xds;

import io.holdfast.xds.server.XdsCache;
import io.holdfast.xds.server.XdsServer;
import io.holdfast.xds.server.XdsServerSettings;
import io.holdfast.xds.snapshot.XdsSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Holdfast's {@link XdsServer} over an {@link XdsCache}, as the server module wires them. */
final class HoldfastTarget implements XdsTarget {
  private final XdsCache cache = new XdsCache();
  private final XdsServer server;

  HoldfastTarget(XdsSnapshot initial) {
    cache.setSnapshot(initial);
    server = XdsServer.builder(cache, XdsServerSettings.on("127.0.0.1", 0).withDrainTimeout(Duration.ofSeconds(1)),
        new SimpleMeterRegistry()).start();
  }

  @Override
  public String label() {
    return "Holdfast XdsCache";
  }

  @Override
  public int port() {
    return server.port();
  }

  @Override
  public Map<String, String> versions(XdsSnapshot snapshot, Set<String> types) {
    Map<String, String> versions = new TreeMap<>();
    types.forEach(t -> versions.put(t, snapshot.version()));
    return versions;
  }

  @Override
  public void publish(XdsSnapshot snapshot) {
    cache.setSnapshot(snapshot);
  }

  @Override
  public void close() {
    server.close();
  }
}
