package io.holdfast.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A named group of backends ({@code kind: Upstream}); becomes one Envoy cluster (EDS, or DNS when a static host
 * is given by name).
 *
 * @param connectTimeout default 5 s
 * @param http2          speak HTTP/2 to the backends (required for gRPC backends)
 * @param options        DNS, circuit breakers, outlier detection, health checks; {@link UpstreamOptions#NONE}
 */
public record Upstream(Metadata metadata, UpstreamTarget target, LoadBalancing loadBalancing,
    Duration connectTimeout, boolean http2, UpstreamOptions options) implements GatewayResource {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  public Upstream {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(loadBalancing, "loadBalancing");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(options, "options");
  }

  public Upstream(Metadata metadata, UpstreamTarget target, LoadBalancing loadBalancing, Duration connectTimeout,
      boolean http2) {
    this(metadata, target, loadBalancing, connectTimeout, http2, UpstreamOptions.NONE);
  }

  /** A round-robin HTTP/1 upstream of static hosts with the default timeout. */
  public static Upstream ofHosts(Metadata metadata, List<UpstreamTarget.Host> hosts) {
    return new Upstream(metadata, new UpstreamTarget.Static(hosts), LoadBalancing.ROUND_ROBIN,
        DEFAULT_CONNECT_TIMEOUT, false);
  }

  public Upstream withHttp2(boolean enabled) {
    return new Upstream(metadata, target, loadBalancing, connectTimeout, enabled, options);
  }

  public Upstream withTarget(UpstreamTarget value) {
    return new Upstream(metadata, value, loadBalancing, connectTimeout, http2, options);
  }

  public Upstream withOptions(UpstreamOptions value) {
    return new Upstream(metadata, target, loadBalancing, connectTimeout, http2, value);
  }

  @Override
  public String kind() {
    return ResourceKey.UPSTREAM;
  }

  @Override
  public Upstream withMetadata(Metadata value) {
    return new Upstream(value, target, loadBalancing, connectTimeout, http2, options);
  }
}
