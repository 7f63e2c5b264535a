package io.holdfast.frontend.holdfast;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.FrontEnd;
import io.holdfast.ir.Ir;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Secret;
import io.holdfast.ir.VirtualHost;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The front end of the Holdfast API ({@code gateway.holdfast.io/v1}): validation with last-good memory
 * ({@link LastGoodValidator}) decides each object's status and the accepted subset, which {@link Lowering} turns
 * into IR elements. Its input is a {@link GatewayConfig}: the Holdfast objects and the endpoints of the Services
 * their Upstreams name. Holdfast settles its own domain and port claims globally (a domain names a client
 * listener whatever the Gateway), so the builder finds nothing left to settle among Holdfast objects. Not
 * thread-safe: one pipeline thread owns it.
 *
 * <p>Delegation stays here, as {@link io.holdfast.ir.FrontEnd} asks: a RouteTable's routes are flattened into each
 * virtual host that reaches it, in place of the delegating route, with origins at the RouteTable's own fields, so
 * the IR has no notion of delegation and statuses and NACKs land on the RouteTable.
 */
public final class HoldfastFrontEnd implements FrontEnd<GatewayConfig> {

  private final LastGoodValidator validator;
  /** The previous revision's IR elements, so unchanged objects lower to the same instances. */
  private final LoweringMemo memo;
  private final AccessPolicy policy;

  public HoldfastFrontEnd() {
    this(Clock.systemUTC());
  }

  /** @param clock what certificate validity is judged against */
  public HoldfastFrontEnd(Clock clock) {
    this(clock, InputLimits.DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation
   */
  public HoldfastFrontEnd(Clock clock, InputLimits limits) {
    this(clock, limits, AccessPolicy.FILE_DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation
   * @param policy what objects may reach across namespaces, which upstream addresses and listener ports
   */
  public HoldfastFrontEnd(Clock clock, InputLimits limits, AccessPolicy policy) {
    this.validator = new LastGoodValidator(clock, limits, policy);
    this.memo = new LoweringMemo(limits);
    this.policy = policy;
  }

  @Override
  public void lower(GatewayConfig config, IrBuilder builder) {
    Verdicts verdicts = validator.run(config);
    Map<ResourceKey, Optional<Instant>> created = new HashMap<>();
    config.resources().forEach((GatewayResource r) -> created.put(r.key(), r.metadata().creationTimestamp()));
    for (ObjectStatus status : verdicts.statuses().values()) {
      builder.status(status, created.getOrDefault(status.key(), Optional.empty()));
    }
    lowerInto(verdicts.accepted(), policy, memo, builder::add, builder::add, builder::add);
  }

  /**
   * The IR of an accepted config, as {@link #lowerAccepted}, but elements whose source objects are unchanged since
   * this front end's previous lowering ({@link #lower} or this method) are the previous instances, so a
   * translator finds them by identity. The output equals {@code lowerAccepted(accepted)}.
   */
  public Ir lowerIncrementally(GatewayConfig accepted) {
    List<Cluster> clusters = new ArrayList<>();
    List<Listener> listeners = new ArrayList<>();
    List<Secret> secrets = new ArrayList<>();
    lowerInto(accepted, policy, memo, clusters::add, listeners::add, secrets::add);
    return new Ir(listeners, clusters, secrets);
  }

  /** How many clusters and virtual hosts the latest lowering built anew (the others were reused). */
  int loweredInLatestRevision() {
    return memo.lowered();
  }

  /**
   * The IR of an accepted config ({@link ValidationResult#accepted()}), without statuses, validated with the
   * default {@link AccessPolicy} ({@code allow}: delegation selectors pick RouteTables of any namespace they name).
   *
   * @throws IllegalArgumentException if it is not consistent (a Gateway names a VirtualService it does not hold,
   *                                  two VirtualServices share a domain, ...): lower only Validator output
   */
  public static Ir lowerAccepted(GatewayConfig accepted) {
    List<Cluster> clusters = new ArrayList<>();
    List<Listener> listeners = new ArrayList<>();
    List<Secret> secrets = new ArrayList<>();
    lowerInto(accepted, AccessPolicy.FILE_DEFAULTS, new LoweringMemo(InputLimits.DEFAULTS), clusters::add,
        listeners::add, secrets::add);
    return new Ir(listeners, clusters, secrets);
  }

  private static void lowerInto(GatewayConfig accepted, AccessPolicy policy, LoweringMemo memo,
      Consumer<Cluster> clusters, Consumer<Listener> listeners, Consumer<Secret> secrets) {
    Consent consent = Consent.of(policy.crossNamespaceRefs(), accepted);
    memo.begin(accepted, consent);
    accepted.upstreams().forEach(u -> clusters.accept(memo.cluster(u, accepted)));
    Set<ResourceKey> upstreamKeys = new java.util.HashSet<>();
    accepted.upstreams().forEach(u -> upstreamKeys.add(u.key()));
    Map<ResourceKey, VirtualHost> hosts = new HashMap<>();
    List<Listener.ClientApi> clientListeners = new ArrayList<>();
    for (VirtualService vs : accepted.virtualServices()) {
      LoweringMemo.HostEntry entry = memo.virtualHost(vs, accepted.routeTables());
      hosts.put(vs.key(), entry.host());
      clientListeners.addAll(entry.clientListeners());
    }
    // A VirtualService's client listeners are served to the proxies of the Gateways serving it.
    Map<ResourceKey, SortedSet<String>> proxiesOfService = new HashMap<>();
    Map<ResourceKey, VirtualService> byKey = new HashMap<>();
    accepted.virtualServices().forEach(vs -> byKey.put(vs.key(), vs));
    Map<String, Secret> named = new TreeMap<>();
    List<SharedSockets.Lowered> sockets = new ArrayList<>();
    for (Gateway gateway : accepted.gateways()) {
      Optional<Listener.Socket> socket = Lowering.socket(gateway, accepted.virtualServices(), hosts, accepted,
          consent)
          .map(s -> TrafficLowering.socket(gateway, s, upstreamKeys));
      socket.ifPresent(s -> sockets.add(new SharedSockets.Lowered(gateway, s)));
      socket.ifPresent(s -> s.virtualHosts().forEach(host -> proxiesOfService
          .computeIfAbsent(host.origin().object(), k -> new TreeSet<>()).addAll(s.proxyNames())));
      // The secrets the TLS chains name, once each (VirtualServices naming one source share it), in key order.
      socket.filter(s -> gateway.ssl()).ifPresent(s -> s.filterChains().forEach(chain ->
          Lowering.secrets(byKey.get(chain.origin().object()), accepted)
              .forEach(secret -> named.putIfAbsent(secret.name(), secret))));
      // The generic secrets of the OAuth2 logins of the VirtualServices it serves (named per VirtualService).
      socket.ifPresent(s -> s.virtualHosts().forEach(host -> Optional.ofNullable(byKey.get(host.origin().object()))
          .ifPresent(vs -> SecurityLowering.oauth2Secrets(vs, accepted, consent)
              .forEach(secret -> named.putIfAbsent(secret.name(), secret)))));
    }
    // An upstream's secrets join them under the same names: one Secret a listener and an upstream use is one.
    accepted.upstreams().forEach(u -> Lowering.secrets(u, accepted)
        .forEach(secret -> named.putIfAbsent(secret.name(), secret)));
    // A TLS-terminating TCP host's secrets join them too.
    accepted.tcpGateways().forEach(g -> Lowering.secrets(g, accepted)
        .forEach(secret -> named.putIfAbsent(secret.name(), secret)));
    named.values().forEach(secrets::accept);
    // A domain's gRPC clients get its oldest VirtualService; validation warned the younger ones.
    Set<DomainConflicts.GrpcTarget> leftToOlder = DomainConflicts.leftToOlder(accepted.virtualServices());
    for (Listener.ClientApi client : clientListeners) {
      if (leftToOlder.contains(new DomainConflicts.GrpcTarget(client.origin().object(), client.target()))) {
        continue;
      }
      SortedSet<String> proxies = proxiesOfService.get(client.origin().object());
      listeners.accept(proxies == null || proxies.equals(client.proxyNames()) ? client
          : new Listener.ClientApi(client.origin(), client.target(), client.virtualHost(), proxies));
    }
    accepted.tcpGateways().forEach(g -> sockets.add(new SharedSockets.Lowered(g, Lowering.tcpSocket(g))));
    SharedSockets.merge(sockets).forEach(listeners::accept);
    memo.end();
  }
}
