package io.holdfast.frontend.gloo;

import io.holdfast.api.ConfigLoader;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** Loads manifests as file mode does and runs the front ends over them, as the pipeline does. */
final class GlooFixtures {

  static final Clock CLOCK = Clock.fixed(Instant.now(), ZoneOffset.UTC);

  private GlooFixtures() {
  }

  static GatewayConfig load(String yaml) {
    return load(yaml, Map.of());
  }

  static GatewayConfig load(String yaml, Map<ServiceRef, List<Endpoint>> endpoints) {
    ConfigLoader.Loaded loaded = new ConfigLoader().load(List.of(new ConfigLoader.Source("input.yaml", yaml)),
        endpoints);
    if (!loaded.errors().isEmpty()) {
      throw new AssertionError("manifest errors: " + loaded.errors());
    }
    return loaded.config();
  }

  static GatewayConfig withSecret(GatewayConfig config, String namespace, String name, Map<String, String> data) {
    return config.toBuilder().secret(TlsSecretData.secretKey(namespace, name),
        new TlsSecretData(new java.util.TreeMap<>(data))).build();
  }

  /** Both the Holdfast and the Gloo front end, into one builder, built. */
  static IrBuilder.Result build(GatewayConfig config) {
    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd(CLOCK).lower(config, builder);
    new GlooFrontEnd(CLOCK, io.holdfast.api.InputLimits.DEFAULTS, io.holdfast.api.AccessPolicy.FILE_DEFAULTS)
        .lower(config, builder);
    return builder.build();
  }

  static ObjectStatus status(IrBuilder.Result result, String group, String kind, String namespace, String name) {
    ObjectStatus status = result.statuses().get(new ResourceKey(group, kind, namespace, name));
    if (status == null) {
      throw new AssertionError("no status for " + kind + " " + namespace + "/" + name + " in " + result.statuses()
          .keySet());
    }
    return status;
  }

  static ObjectStatus gateway(IrBuilder.Result result, String namespace, String name) {
    return status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.GATEWAY, namespace, name);
  }

  static ObjectStatus virtualService(IrBuilder.Result result, String namespace, String name) {
    return status(result, GlooKinds.GATEWAY_GROUP, GlooKinds.VIRTUAL_SERVICE, namespace, name);
  }

  static ObjectStatus upstream(IrBuilder.Result result, String namespace, String name) {
    return status(result, GlooKinds.GLOO_GROUP, GlooKinds.UPSTREAM, namespace, name);
  }
}
