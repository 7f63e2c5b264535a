package io.holdfast.frontend.holdfast;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.UnparsedResource;
import io.holdfast.api.Upstream;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import io.holdfast.ir.Finding;
import io.holdfast.ir.ObjectStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@link Validator} with a memory: when a resource that was accepted before is now rejected, its last
 * accepted version goes on being served (and everything that depends on it stays up) until it is fixed or
 * deleted. Its status still says Rejected, with the reasons, plus {@link Reasons#SERVING_LAST_ACCEPTED}.
 * A deleted resource is forgotten.
 *
 * <p>The TLS material a VirtualService's sslConfig (or an Upstream's spec.tls) names is part of the version it was
 * accepted with: when that
 * material turns bad (a Secret deleted, a PEM file garbled, a key that no longer matches), the VirtualService is
 * rejected and keeps being served with the material it was last accepted with, so the last good certificate stays
 * served. That old material stands in only for the VirtualServices that fall back; one that was never accepted
 * with it stays rejected. Not thread-safe: one pipeline thread owns it.
 */
public final class LastGoodValidator {
  private final Validator validator;
  private final Clock clock;
  private final Map<ResourceKey, GatewayResource> lastAccepted = new HashMap<>();
  /** Per accepted VirtualService, the TLS material (by source key) it was accepted with. */
  private final Map<ResourceKey, Map<ResourceKey, TlsSecretData>> lastAcceptedMaterial = new HashMap<>();

  public LastGoodValidator() {
    this(Clock.systemUTC());
  }

  /** @param clock what certificate validity is judged against */
  public LastGoodValidator(Clock clock) {
    this(clock, InputLimits.DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation
   */
  public LastGoodValidator(Clock clock, InputLimits limits) {
    this(clock, limits, AccessPolicy.FILE_DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation
   * @param policy what objects may reach across namespaces, which upstream addresses and listener ports; a last
   *               accepted version is judged by it again, so revoking a ReferenceGrant stops its use at once
   */
  public LastGoodValidator(Clock clock, InputLimits limits, AccessPolicy policy) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.validator = new Validator(clock, limits, policy);
  }

  public ValidationResult validate(GatewayConfig config) {
    return run(config).toResult();
  }

  Verdicts run(GatewayConfig config) {
    Verdicts plain = validator.run(config);
    Set<ResourceKey> present = keysOf(config);
    lastAccepted.keySet().retainAll(present);
    lastAcceptedMaterial.keySet().retainAll(present);

    Map<ResourceKey, GatewayResource> fallbacks = new HashMap<>();
    plain.statuses().forEach((key, status) -> {
      GatewayResource previous = lastAccepted.get(key);
      if (!status.isAccepted() && previous != null) {
        fallbacks.put(key, previous);
      }
    });
    Map<ResourceKey, TlsSecretData> restored = restoredMaterial(config, fallbacks);
    // Restored material serves only the objects that fall back. An Upstream it would let through stays rejected
    // with its own reasons, so what routes to it is rejected as before (a VirtualService is simply left out below).
    Map<ResourceKey, UnparsedResource> heldBackUpstreams = new HashMap<>();
    for (Upstream upstream : config.upstreams()) {
      if (!fallbacks.containsKey(upstream.key()) && !plain.isAccepted(upstream.key())
          && materialKeys(upstream).stream().anyMatch(restored::containsKey)) {
        heldBackUpstreams.put(upstream.key(), new UnparsedResource(upstream.key(),
            upstream.metadata().generation(), plain.statuses().get(upstream.key()).findings().stream()
            .filter(f -> f.severity() == Finding.Severity.ERROR)
            .map(f -> new Problem(f.field(), f.reason(), f.message())).toList()));
      }
    }
    Verdicts result = fallbacks.isEmpty() ? plain
        : validator.run(substitute(config, fallbacks, restored, heldBackUpstreams));

    TreeMap<ResourceKey, ObjectStatus> statuses = new TreeMap<>(result.statuses());
    fallbacks.forEach((key, previous) -> {
      ObjectStatus rejected = plain.statuses().get(key);
      if (result.isAccepted(key)) {
        statuses.put(key, rejected.with(new Finding(Finding.Severity.NOTE, "", Reasons.SERVING_LAST_ACCEPTED,
            "still serving the last accepted version"
            + (previous.metadata().generation() > 0 ? " (generation " + previous.metadata().generation() + ")" : "")
            + " until this one is fixed")));
      } else {
        statuses.put(key, rejected);
      }
    });
    // Restored material serves only the objects that fall back: others it would let through stay rejected.
    Set<ResourceKey> heldBack = new HashSet<>();
    heldBackUpstreams.keySet().forEach(key -> statuses.put(key, plain.statuses().get(key)));
    List<GatewayResource> terminating = new ArrayList<>(config.virtualServices());
    terminating.addAll(config.tcpGateways());
    for (GatewayResource r : terminating) {
      if (!fallbacks.containsKey(r.key()) && !plain.isAccepted(r.key())
          && materialKeys(r).stream().anyMatch(restored::containsKey)) {
        heldBack.add(r.key());
        statuses.put(r.key(), plain.statuses().get(r.key()));
      }
    }
    GatewayConfig accepted = without(result.accepted(), heldBack);
    for (GatewayResource r : resourcesOf(accepted)) {
      if (!fallbacks.containsKey(r.key())) {
        lastAccepted.put(r.key(), r);
        List<ResourceKey> keys = materialKeys(r);
        if (!keys.isEmpty()) {
          Map<ResourceKey, TlsSecretData> material = new HashMap<>();
          keys.forEach(k -> config.secretOf(k).ifPresent(data -> material.put(k, data)));
          lastAcceptedMaterial.put(r.key(), material);
        }
      }
    }
    return new Verdicts(accepted, statuses);
  }

  /**
   * The material to restore: for each object falling back (a VirtualService with an sslConfig, an Upstream with
   * TLS material, a TcpGateway whose hosts terminate TLS) whose last accepted material was good and
   * whose material in {@code config} is not, that last accepted material.
   */
  private Map<ResourceKey, TlsSecretData> restoredMaterial(GatewayConfig config,
      Map<ResourceKey, GatewayResource> fallbacks) {
    Map<ResourceKey, TlsSecretData> restored = new TreeMap<>();
    for (GatewayResource previous : fallbacks.values()) {
      if (materialKeys(previous).isEmpty()) {
        continue;
      }
      Map<ResourceKey, TlsSecretData> material = lastAcceptedMaterial.getOrDefault(previous.key(), Map.of());
      GatewayConfig.Builder remembered = GatewayConfig.builder();
      material.forEach(remembered::secret);
      if (usable(previous, config) || !usable(previous, remembered.build())) {
        continue;
      }
      material.forEach(restored::putIfAbsent);
    }
    return restored;
  }

  /** True if the TLS material {@code resource} names is good in {@code config}. */
  private boolean usable(GatewayResource resource, GatewayConfig config) {
    String namespace = resource.metadata().namespace();
    List<Finding> findings = new ArrayList<>();
    if (resource instanceof VirtualService vs) {
      vs.sslConfig().ifPresent(ssl -> findings.addAll(TlsRules.materialFindings(ssl, namespace, config,
          clock.instant())));
    } else if (resource instanceof Upstream upstream) {
      upstream.options().tls().ifPresent(tls -> findings.addAll(TlsRules.materialFindings(tls, namespace, config,
          clock.instant())));
    } else if (resource instanceof TcpGateway tcp) {
      findings.addAll(TlsRules.materialFindings(tcp, config, clock.instant()));
    }
    return findings.stream().noneMatch(f -> f.severity() == Finding.Severity.ERROR);
  }

  /** The keys of the TLS material {@code resource} names: a VirtualService's sslConfig, an Upstream's spec.tls. */
  private static List<ResourceKey> materialKeys(GatewayResource resource) {
    List<ResourceKey> keys = new ArrayList<>();
    String namespace = resource.metadata().namespace();
    if (resource instanceof VirtualService vs) {
      vs.sslConfig().ifPresent(ssl -> {
        keys.addAll(ssl.certificateKeys(namespace));
        keys.addAll(ssl.clientCaKeys(namespace));
      });
    } else if (resource instanceof Upstream upstream) {
      upstream.options().tls().ifPresent(tls -> keys.addAll(tls.materialKeys(namespace)));
    } else if (resource instanceof TcpGateway tcp) {
      keys.addAll(tcp.materialKeys());
    }
    return keys;
  }

  private static GatewayConfig substitute(GatewayConfig config, Map<ResourceKey, GatewayResource> fallbacks,
      Map<ResourceKey, TlsSecretData> restored, Map<ResourceKey, UnparsedResource> heldBack) {
    GatewayConfig.Builder b = GatewayConfig.builder();
    for (GatewayResource r : resourcesOf(config)) {
      if (!fallbacks.containsKey(r.key()) && !heldBack.containsKey(r.key())) {
        b.add(r);
      }
    }
    heldBack.values().forEach(b::addUnparsed);
    config.unparsed().stream().filter(u -> !fallbacks.containsKey(u.key())).forEach(b::addUnparsed);
    fallbacks.values().forEach(b::add);
    config.serviceEndpoints().forEach(b::endpoints);
    config.secrets().forEach(b::secret);
    restored.forEach(b::secret);
    config.apiObjects().forEach(b::add);
    return b.build();
  }

  /**
   * {@code accepted} without the VirtualServices {@code drop}, and without the gateways' references to them;
   * every other resource (RouteTables and TcpGateways included) as it is.
   */
  private static GatewayConfig without(GatewayConfig accepted, Set<ResourceKey> drop) {
    if (drop.isEmpty()) {
      return accepted;
    }
    GatewayConfig.Builder b = GatewayConfig.builder();
    for (GatewayResource resource : resourcesOf(accepted)) {
      if (drop.contains(resource.key())) {
        continue;
      }
      if (resource instanceof Gateway gateway && gateway.selection() instanceof VirtualServiceSelection.Named named) {
        List<ObjectRef> refs = named.refs().stream()
            .filter(ref -> !drop.contains(ref.resolve(ResourceKey.VIRTUAL_SERVICE, gateway.metadata().namespace())))
            .toList();
        b.add(gateway.withSelection(new VirtualServiceSelection.Named(refs)));
      } else {
        b.add(resource);
      }
    }
    accepted.serviceEndpoints().forEach(b::endpoints);
    accepted.secrets().forEach(b::secret);
    accepted.apiObjects().forEach(b::add);
    return b.build();
  }

  private static List<GatewayResource> resourcesOf(GatewayConfig c) {
    return c.resources();
  }

  private static Set<ResourceKey> keysOf(GatewayConfig c) {
    Set<ResourceKey> keys = new HashSet<>();
    resourcesOf(c).forEach(r -> keys.add(r.key()));
    c.unparsed().forEach(u -> keys.add(u.key()));
    return keys;
  }
}
