package io.holdfast.frontend.gloo;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Finding;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Secret;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The front end of Gloo Edge's own kinds ({@code gateway.solo.io/v1} Gateway, VirtualService, RouteTable;
 * {@code gloo.solo.io/v1} Upstream, UpstreamGroup), read as their YAML is, with Gloo's semantics. Each object is
 * read into the Holdfast kind it corresponds to ({@link GlooReading}: Gloo's defaults and cross-object rules
 * settled there), then validated and lowered by a private {@link HoldfastFrontEnd}, so a Gloo object and its
 * hand-written Holdfast equivalent lower alike; finally every IR element and status is given back to the Gloo
 * object it came from ({@link Rekey}), so statuses and NACKs land on Gloo's objects and their Envoy names cannot
 * clash with Holdfast objects of the same name. A field Holdfast cannot honour rejects its object with
 * {@link GlooFeatures#UNSUPPORTED} naming it: nothing is accepted and ignored.
 *
 * <p>Not thread-safe: one pipeline thread owns it. The private front end's last-good memory is this front end's:
 * a Gloo object whose Holdfast form stops validating keeps serving its last accepted version, as Holdfast's kinds
 * do (an object rejected while reading Gloo's YAML is not served at all).
 */
public final class GlooFrontEnd implements FrontEnd<GatewayConfig> {

  private final HoldfastFrontEnd holdfast;
  private final AccessPolicy.CrossNamespaceRefs crossNamespaceRefs;

  public GlooFrontEnd() {
    this(Clock.systemUTC(), InputLimits.DEFAULTS, AccessPolicy.FILE_DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation, as for Holdfast's kinds
   * @param policy cross-namespace references, upstream addresses and listener ports, as for Holdfast's kinds
   */
  public GlooFrontEnd(Clock clock, InputLimits limits, AccessPolicy policy) {
    this.holdfast = new HoldfastFrontEnd(clock, limits, policy);
    this.crossNamespaceRefs = policy.crossNamespaceRefs();
  }

  @Override
  public void lower(GatewayConfig config, IrBuilder builder) {
    if (config.apiObjects().stream().noneMatch(o -> GlooKinds.isGloo(o.key()))) {
      return;
    }
    GlooReading reading = GlooReading.of(config, crossNamespaceRefs);
    IrBuilder own = new IrBuilder();
    IrBuilder.Mark start = own.mark();
    holdfast.lower(reading.holdfastConfig(), own);
    IrBuilder.Contribution lowered = own.since(start);
    Rekey rekey = new Rekey(reading.irKeys());
    Map<ResourceKey, ResourceKey> irKeys = reading.irKeys();
    // A failure to re-key one element (a Holdfast bug) costs only the object it came from.
    Map<ResourceKey, String> failed = new java.util.HashMap<>();
    List<Cluster> clusters = rekeyAll(lowered.clusters(), c -> c.origin().object(), rekey, irKeys, failed);
    List<Listener> listeners = rekeyAll(lowered.listeners(), l -> l.origin().object(), rekey, irKeys, failed);
    List<Secret> secrets = rekeyAll(lowered.secrets(), s -> s.origin().object(), rekey, irKeys, failed);
    // Only then added: an object whose element failed contributes none of its elements.
    clusters.stream().filter(c -> !failed.containsKey(c.origin().object())).forEach(builder::add);
    listeners.stream().filter(l -> !failed.containsKey(l.origin().object())).forEach(builder::add);
    secrets.stream().filter(s -> !failed.containsKey(s.origin().object())).forEach(builder::add);
    Map<ResourceKey, ObjectStatus> byGlooKey = new java.util.HashMap<>();
    for (ObjectStatus status : lowered.statuses()) {
      ResourceKey gloo = irKeys.get(status.key());
      if (gloo != null && GlooKinds.isGloo(gloo)) { // the synthetic Upstreams of kube destinations have none
        // A hybridGateway's matched httpGateways are Gateways of their own: their findings join on its status.
        byGlooKey.merge(gloo, GlooPaths.inGlooTerms(rekey.apply(status)), GlooFrontEnd::joined);
      }
    }
    for (ApiObject object : reading.objects().values()) {
      ResourceKey key = object.key();
      Optional<Instant> created = createdAt(object);
      List<Finding> rejected = reading.rejected().get(key);
      if (failed.containsKey(key)) {
        rejected = List.of(new Finding(Finding.Severity.ERROR, "", io.holdfast.api.Reasons.INTERNAL_ERROR,
            "Holdfast could not build this object's config (" + failed.get(key) + "); this is a bug in Holdfast,"
                + " please report it"));
      }
      if (rejected != null) {
        builder.status(ObjectStatus.of(key, object.generation(), rejected), created);
      } else {
        ObjectStatus status = byGlooKey.getOrDefault(key, ObjectStatus.of(key, object.generation(), List.of()));
        for (Finding warning : reading.warnings().getOrDefault(key, List.of())) {
          status = status.with(warning);
        }
        builder.status(status, created);
      }
    }
  }

  /** {@code first} with the findings of {@code second}, of the same object. */
  private static ObjectStatus joined(ObjectStatus first, ObjectStatus second) {
    ObjectStatus out = first;
    for (Finding finding : second.findings()) {
      out = out.with(finding);
    }
    return out;
  }

  /** Each element re-keyed; one that cannot be is left out and its Gloo object noted in {@code failed}. */
  private static <T> List<T> rekeyAll(List<T> elements, java.util.function.Function<T, ResourceKey> origin,
      Rekey rekey, Map<ResourceKey, ResourceKey> irKeys, Map<ResourceKey, String> failed) {
    List<T> out = new java.util.ArrayList<>();
    for (T element : elements) {
      try {
        out.add(rekey.apply(element));
      } catch (RuntimeException e) {
        ResourceKey key = origin.apply(element);
        failed.put(irKeys.getOrDefault(key, key), e.toString());
      }
    }
    return out;
  }

  private static Optional<Instant> createdAt(ApiObject object) {
    try {
      String text = object.at("/metadata/creationTimestamp").asString("");
      return text.isEmpty() ? Optional.empty() : Optional.of(Instant.parse(text));
    } catch (RuntimeException e) {
      return Optional.empty(); // reported by the reading
    }
  }
}
