package io.holdfast.xds.server;

import io.holdfast.ir.NackEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link XdsServer} on 127.0.0.1:0 over a fresh cache, with a fixed clock and recorded NACK events. */
final class ServerHarness implements AutoCloseable {

  static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

  final XdsCache cache = new XdsCache();
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final List<NackEvent> nacks = new CopyOnWriteArrayList<>();
  final XdsServer server;

  ServerHarness() {
    this(XdsLimits.DEFAULTS);
  }

  ServerHarness(XdsLimits limits) {
    server = XdsServer.builder(cache, XdsServerSettings.on("127.0.0.1", 0)
            .withDrainTimeout(Duration.ofSeconds(1)).withLimits(limits), registry)
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .nackListener(nacks::add)
        .start();
  }

  int port() {
    return server.port();
  }

  double counter(String name, String type) {
    var counter = registry.find(name).tag("type", type).counter();
    return counter == null ? 0 : counter.count();
  }

  @Override
  public void close() {
    server.close();
  }
}
