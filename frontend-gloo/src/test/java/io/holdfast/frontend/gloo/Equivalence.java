package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.ir.Ir;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Translates a config to xDS as the pipeline does (front ends into one IR builder, then {@link Translator}), and
 * compares a Gloo object set with its hand-written Holdfast equivalent byte for byte. Envoy resource names come
 * from the origin object's key ({@code default/petstore} for a Holdfast Upstream,
 * {@code Upstream.gloo.solo.io/default/petstore} for Gloo's), so before translating, the Gloo IR's origins are
 * named as the equivalent Holdfast objects' (same kind, namespace and name); everything else must be identical.
 */
final class Equivalence {

  private Equivalence() {
  }

  /** Every xDS resource's serialized bytes, by type URL and name; every object must be accepted. */
  static SortedMap<String, SortedMap<String, ByteString>> xds(GatewayConfig config, Map<ResourceKey, ResourceKey> rename) {
    IrBuilder builder = new IrBuilder();
    new HoldfastFrontEnd(GlooFixtures.CLOCK).lower(config, builder);
    new GlooFrontEnd(GlooFixtures.CLOCK, io.holdfast.api.InputLimits.DEFAULTS,
        io.holdfast.api.AccessPolicy.FILE_DEFAULTS).lower(config, builder);
    IrBuilder.Result built = builder.build();
    for (ObjectStatus status : built.statuses().values()) {
      assertThat(status.isAccepted()).as("%s: %s", status.key(), status.findings()).isTrue();
      assertThat(status.findings()).as("%s", status.key())
          .allSatisfy(f -> assertThat(f.severity()).isNotEqualTo(io.holdfast.ir.Finding.Severity.ERROR));
    }
    // As served (Gloo's names): every resource passes Envoy's validate.rules.
    io.holdfast.xds.envoycheck.EnvoyConstraints.assertValid(new Translator().translate(built.ir()).snapshot());
    Ir ir = new Rekey(rename).apply(built.ir());
    Translation translation = new Translator().translate(ir);
    SortedMap<String, SortedMap<String, ByteString>> out = new TreeMap<>();
    translation.snapshot().resources().forEach((type, resources) -> {
      SortedMap<String, ByteString> bytes = new TreeMap<>();
      resources.forEach((name, message) -> bytes.put(name, message.toByteString()));
      out.put(type, bytes);
    });
    return out;
  }

  /** The Holdfast key each Gloo key of {@code config} is compared as: same kind, namespace and name. */
  static Map<ResourceKey, ResourceKey> asHoldfast(GatewayConfig config, Map<ResourceKey, ResourceKey> extra) {
    Map<ResourceKey, ResourceKey> rename = new HashMap<>();
    config.apiObjects().stream().filter(o -> GlooKinds.isGloo(o.key())).forEach(o -> rename.put(o.key(),
        new ResourceKey(o.key().kind(), o.key().namespace(), o.key().name())));
    rename.putAll(extra);
    return rename;
  }

  static void assertSameXds(GatewayConfig gloo, GatewayConfig holdfast, Map<ResourceKey, ResourceKey> extra) {
    SortedMap<String, SortedMap<String, ByteString>> fromGloo = xds(gloo, asHoldfast(gloo, extra));
    SortedMap<String, SortedMap<String, ByteString>> fromHoldfast = xds(holdfast, Map.of());
    assertThat(fromGloo.values().stream().mapToInt(Map::size).sum()).as("resources").isPositive();
    assertThat(fromGloo.keySet()).isEqualTo(fromHoldfast.keySet());
    fromHoldfast.forEach((type, resources) -> {
      assertThat(fromGloo.get(type).keySet()).as(type).isEqualTo(resources.keySet());
      resources.forEach((name, bytes) -> assertThat(fromGloo.get(type).get(name)).as("%s %s", type, name)
          .isEqualTo(bytes));
    });
  }
}
