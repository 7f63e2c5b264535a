package io.holdfast.frontend.gloo;

import io.holdfast.api.LoadBalancing;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.UpstreamTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Upstreams one Gateway's {@code openTelemetryService} collectors stand for. Gloo makes a cluster of its own from
 * a collector's {@code endpoint} ({@code host:port}; HTTP/2, DNS unless the host is an IP address, TLS with the
 * host as SNI and no certificate check unless {@code insecure}); Holdfast's OpenTelemetry access log names an
 * Upstream, so each collector gets a synthetic one with those settings, under a name no Gloo Upstream may take
 * ({@link #PREFIX}), keyed in the IR as {@link #KIND} so its cluster is named after the Gateway and log. They are
 * served only if the Gateway is accepted.
 */
final class OtelCollectors {

  /** Name prefix of the synthetic Upstreams; a Gloo Upstream with such a name is rejected (a clash). */
  static final String PREFIX = "holdfast-otel-";
  /** Not a Gloo kind: the IR key of a collector's cluster, {@code <gateway>:<logName>}. */
  static final String KIND = "OpenTelemetryCollector";

  private final String namespace;
  private final String gateway;
  private final Map<ResourceKey, Upstream> upstreams = new LinkedHashMap<>();
  private final Map<ResourceKey, ResourceKey> irKeys = new LinkedHashMap<>();

  OtelCollectors(String namespace, String gateway) {
    this.namespace = namespace;
    this.gateway = gateway;
  }

  /** The Upstream reference of access log {@code index}'s collector at {@code host:port}. */
  ObjectRef collector(int index, String logName, String host, int port, boolean insecure) {
    String name = PREFIX + gateway + "-" + index;
    UpstreamOptions options = insecure ? UpstreamOptions.NONE : UpstreamOptions.NONE.withTls(
        new UpstreamOptions.Tls(Optional.of(host), Optional.of(UpstreamOptions.TlsVerify.NONE)));
    Upstream upstream = new Upstream(Metadata.of(namespace, name),
        new UpstreamTarget.Static(List.of(UpstreamTarget.Host.of(host, port))), LoadBalancing.ROUND_ROBIN,
        Upstream.DEFAULT_CONNECT_TIMEOUT, true, options);
    upstreams.put(upstream.key(), upstream);
    irKeys.put(upstream.key(), new ResourceKey(GlooKinds.GLOO_GROUP, KIND, namespace, gateway + ":" + logName));
    return ObjectRef.of(namespace, name);
  }

  List<Upstream> upstreams() {
    return new ArrayList<>(upstreams.values());
  }

  Map<ResourceKey, ResourceKey> irKeys() {
    return irKeys;
  }

  /**
   * Gloo's {@code endpoint}: {@code host:port} (an IPv6 host in brackets), as Go's {@code net.SplitHostPort} reads
   * it; empty when malformed.
   */
  static Optional<Map.Entry<String, Integer>> hostPort(String endpoint) {
    int colon = endpoint.lastIndexOf(':');
    if (colon <= 0 || colon == endpoint.length() - 1) {
      return Optional.empty();
    }
    String host = endpoint.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":") || host.contains("[") || host.contains("]")) {
      return Optional.empty();
    }
    String port = endpoint.substring(colon + 1);
    if (host.isEmpty() || !port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
      return Optional.empty();
    }
    return Optional.of(Map.entry(host, Integer.parseInt(port)));
  }
}
