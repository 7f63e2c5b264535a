package io.holdfast.xds.translate;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.core.v3.AggregatedConfigSource;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.ConfigSource;
import java.time.Duration;

/** Small protobuf conversions shared by the translators. */
final class Protos {

  /** {@code config_source { ads {} resource_api_version: V3 }}: fetch over the same ADS stream. */
  static final ConfigSource ADS = ConfigSource.newBuilder()
      .setAds(AggregatedConfigSource.getDefaultInstance())
      .setResourceApiVersion(ApiVersion.V3)
      .build();

  private Protos() {
  }

  static com.google.protobuf.Duration duration(Duration duration) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(duration.getSeconds())
        .setNanos(duration.getNano())
        .build();
  }

  static Any pack(com.google.protobuf.Message message) {
    return Any.pack(message);
  }
}
