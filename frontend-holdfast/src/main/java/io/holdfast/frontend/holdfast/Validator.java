package io.holdfast.frontend.holdfast;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteTable;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.UnparsedResource;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, per resource, whether it is served: never all-or-nothing. Each resource first gets its own rules
 * (names, ports, addresses, regexes, matchers, weights, ...), then verdicts cascade along references, which
 * form a DAG (Gateway to VirtualService to Upstream), so one pass in that order reaches the fixpoint:
 * <ol>
 *   <li>Upstreams: own rules; duplicate keys and unparsed documents are rejected.</li>
 *   <li>RouteTables: own rules, then upstream references as for VirtualServices, and each RouteTable a
 *       delegate names by reference must exist ({@code RouteTableNotFound}).</li>
 *   <li>VirtualServices: own rules, then each referenced upstream must exist ({@code UpstreamNotFound}) and be
 *       served ({@code UpstreamRejected}), mirrors included; once the Gateways are judged, the survivors claim
 *       their domains on each Gateway whose one route configuration would hold them together, oldest first
 *       ({@code DuplicateDomain}, {@link DomainConflicts}); the served ones and the upstreams they reach get
 *       warnings for what gRPC clients make of them ({@link GrpcRules}), and for a domain whose gRPC clients an
 *       older VirtualService keeps.</li>
 *   <li>Delegation ({@link DelegationRules}): cycles and prefix violations reject the RouteTable at fault, a
 *       RouteTable gets one parent status per route delegating to it, and delegating objects get warnings for
 *       what is not served under them.</li>
 *   <li>TcpGateways: own rules ({@link TcpGatewayRules}), then each referenced upstream must exist and be served,
 *       as for VirtualServices; a terminating host's sslConfig material must be permitted ({@link ConsentRules})
 *       and good ({@link TlsRules}), as a VirtualService's.</li>
 *   <li>Gateways: own rules; survivors claim address and port together with the TcpGateways, oldest first
 *       ({@code DuplicateListener}); then a
 *       Gateway whose selection names a missing or rejected VirtualService, or serves none, gets a
 *       warning, never a rejection: its listener is still served.</li>
 * </ol>
 * VirtualServices' sslConfigs and Upstreams' TLS settings are checked with their own rules, against the TLS material
 * in the config ({@link TlsRules}); on each HTTPS Gateway the served VirtualServices claim their TLS server names, oldest first
 * ({@code DuplicateSniDomain}), and one without an sslConfig is left out with a warning on the Gateway.
 * What one namespace may reach follows the {@link AccessPolicy}: another namespace's Secret needs a ReferenceGrant
 * ({@link ConsentRules}, checked before the material is looked at), as do its Upstreams and RouteTables under
 * {@code grant} ({@code RefNotPermitted}, before existence); static upstream addresses and listener ports are
 * checked by {@link AddressRules} ({@code AddressNotPermitted}, {@code PortNotPermitted}).
 * Stateless and thread-safe; pure apart from a debug log line and reading the clock (certificate validity).
 */
public final class Validator {

  private static final Logger log = LoggerFactory.getLogger(Validator.class);

  private final Clock clock;
  private final InputLimits limits;
  private final AccessPolicy policy;

  /** Certificate validity is judged against the UTC system clock; the default bounds. */
  public Validator() {
    this(Clock.systemUTC());
  }

  /** @param clock what certificate validity is judged against */
  public Validator(Clock clock) {
    this(clock, InputLimits.DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation
   */
  public Validator(Clock clock, InputLimits limits) {
    this(clock, limits, AccessPolicy.FILE_DEFAULTS);
  }

  /**
   * @param clock  what certificate validity is judged against
   * @param limits the bounds on regexes and delegation
   * @param policy what objects may reach across namespaces, which upstream addresses and listener ports
   */
  public Validator(Clock clock, InputLimits limits, AccessPolicy policy) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  public ValidationResult validate(GatewayConfig config) {
    return run(config).toResult();
  }

  Verdicts run(GatewayConfig config) {
    Ledger ledger = new Ledger(limits);
    Set<ResourceKey> duplicates = trackAll(config, ledger);
    for (UnparsedResource unparsed : config.unparsed()) {
      if (!duplicates.contains(unparsed.key())) {
        ledger.errors(unparsed.key(), unparsed.problems());
      }
    }
    List<Upstream> upstreams = unique(config.upstreams(), duplicates);
    List<VirtualService> virtualServices = unique(config.virtualServices(), duplicates);
    List<Gateway> gateways = unique(config.gateways(), duplicates);
    List<TcpGateway> tcpGateways = unique(config.tcpGateways(), duplicates);
    List<RouteTable> routeTables = unique(config.routeTables(), duplicates);

    Instant now = clock.instant();
    Consent consent = Consent.of(policy.crossNamespaceRefs(), config);
    for (Upstream upstream : upstreams) {
      guarded(ledger, upstream.key(), () -> {
        Ledger.Sink sink = ledger.sink(upstream.key());
        UpstreamRules.check(upstream, sink);
        AddressRules.upstream(upstream, policy, sink);
        AddressRules.kubeEndpoints(upstream, config, policy, sink);
        UpstreamRules.podSelection(upstream, config, sink);
        if (upstream.target() instanceof UpstreamTarget.Kube kube && kube.namespace().isPresent()
            && Syntax.isNamespace(kube.namespace().get()) && Syntax.isServiceName(kube.name())) {
          ConsentRules.reference(upstream.key(), ResourceKey.core("Service", kube.namespace().get(), kube.name()),
              "spec.kube.namespace", consent, ledger);
        }
        upstream.options().tls().filter(tls -> ConsentRules.upstreamTls(upstream, tls, consent, sink))
            .ifPresent(tls -> TlsRules.report(
                TlsRules.materialFindings(tls, upstream.metadata().namespace(), config, now), sink));
      });
    }
    Map<ResourceKey, Upstream> upstreamsByKey = new TreeMap<>();
    upstreams.forEach(u -> upstreamsByKey.put(u.key(), u));
    for (RouteTable table : routeTables) {
      guarded(ledger, table.key(), () -> {
        RouteTableRules.check(table, ledger.sink(table.key()));
        SecurityRules.check(table.routes(), ledger.sink(table.key()));
        checkReferences(table, table.routes(), ledger, consent);
        RouteOptionsRules.checkReferences(table.key(), table.metadata().namespace(), table.routes(),
            upstreamsByKey, ledger, consent);
      });
    }
    for (VirtualService vs : virtualServices) {
      guarded(ledger, vs.key(), () -> {
        VirtualServiceRules.check(vs, ledger.sink(vs.key()));
        SecurityRules.check(vs, ledger.sink(vs.key()));
        SecurityRules.checkReferences(vs, upstreamsByKey, ledger, consent);
        SecurityRules.checkSecrets(vs, config, consent, ledger.sink(vs.key()));
        OAuth2Rules.checkReferences(vs, ledger, consent);
        vs.sslConfig().ifPresent(ssl -> {
          Ledger.Sink sink = ledger.sink(vs.key());
          TlsRules.checkServerNames(ssl, sink);
          if (ConsentRules.sslConfig(vs, ssl, consent, sink)) {
            TlsRules.report(TlsRules.materialFindings(ssl, vs.metadata().namespace(), config, now), sink);
          }
        });
        checkReferences(vs, vs.routes(), ledger, consent);
        RouteOptionsRules.checkReferences(vs.key(), vs.metadata().namespace(), vs.routes(), upstreamsByKey,
            ledger, consent);
      });
    }
    gateways.forEach(g -> guarded(ledger, g.key(), () -> {
      GatewayRules.check(g, ledger.sink(g.key()));
      GrpcServerRules.check(g, ledger.sink(g.key()));
      AddressRules.listenerPort(g.port(), ledger.sink(g.key()), policy);
      TrafficRules.checkGateway(g, ledger.sink(g.key()));
      TrafficRules.checkReferences(g, upstreamsByKey, ledger, consent);
    }));
    for (TcpGateway tcp : tcpGateways) {
      guarded(ledger, tcp.key(), () -> {
        Ledger.Sink sink = ledger.sink(tcp.key());
        TcpGatewayRules.check(tcp, sink);
        AddressRules.listenerPort(tcp.port(), sink, policy);
        checkUpstreamRefs(tcp, ledger, consent);
        for (int i = 0; i < tcp.hosts().size(); i++) { // bounded by the hosts the object lists
          int index = i;
          tcp.hosts().get(i).sslConfig().filter(ssl -> ConsentRules.tcpHostSsl(tcp, index, ssl, consent, sink))
              .ifPresent(ssl -> TlsRules.report(TlsRules.materialFindings(tcp, index, ssl, config, now), sink));
        }
      });
    }
    Conflicts.listeners(served(gateways, ledger), served(tcpGateways, ledger), ledger);
    // Which Gateways serve which VirtualServices is settled before the domains, which conflict per route config.
    Map<ResourceKey, Set<ResourceKey>> pruned =
        DomainConflicts.settle(served(virtualServices, ledger), served(gateways, ledger), ledger);
    Map<RouteTable, String> grpcTables =
        DelegationRules.check(served(virtualServices, ledger), routeTables, ledger, consent);
    GrpcRules.check(served(virtualServices, ledger), grpcTables, served(upstreams, ledger), ledger);

    Map<Gateway, List<VirtualService>> https = new java.util.LinkedHashMap<>();
    Map<ResourceKey, VirtualService> servedByKey = new java.util.LinkedHashMap<>();
    served(virtualServices, ledger).forEach(vs -> servedByKey.put(vs.key(), vs));
    served(gateways, ledger).stream().filter(Gateway::ssl).forEach(g -> https.put(g, Serving.served(g, servedByKey)));
    TlsRules.sniConflicts(https, ledger);
    Map<ResourceKey, VirtualService> byKey = new java.util.HashMap<>();
    virtualServices.forEach(vs -> byKey.put(vs.key(), vs));
    List<Gateway> acceptedGateways = new ArrayList<>();
    for (Gateway gateway : served(gateways, ledger)) {
      List<ObjectRef> servedRefs = resolveSelection(gateway, config, ledger);
      if (gateway.ssl()) {
        servedRefs = httpsOnly(gateway, servedRefs, byKey, ledger);
      }
      Set<ResourceKey> lost = pruned.getOrDefault(gateway.key(), Set.of());
      servedRefs = servedRefs.stream()
          .filter(ref -> !lost.contains(ref.resolve(ResourceKey.VIRTUAL_SERVICE, gateway.metadata().namespace())))
          .toList();
      List<VirtualService> servedServices = servedRefs.stream()
          .map(ref -> byKey.get(ref.resolve(ResourceKey.VIRTUAL_SERVICE, gateway.metadata().namespace())))
          .filter(java.util.Objects::nonNull).toList();
      TrafficRules.warnMissingService(gateway, servedServices, ledger);
      GrpcServerRules.checkServed(gateway, servedServices, ledger);
      acceptedGateways.add(gateway.withSelection(new VirtualServiceSelection.Named(servedRefs)));
    }

    // On the final set: lowering drops the same gRPC client listeners from the accepted VirtualServices.
    DomainConflicts.warnGrpc(served(virtualServices, ledger), ledger);
    GatewayConfig.Builder accepted = GatewayConfig.builder();
    served(upstreams, ledger).forEach(accepted::add);
    served(virtualServices, ledger).forEach(accepted::add);
    served(routeTables, ledger).forEach(accepted::add);
    acceptedGateways.forEach(accepted::add);
    served(tcpGateways, ledger).forEach(accepted::add);
    config.serviceEndpoints().forEach((service, endpoints) ->
        accepted.endpoints(service, AddressRules.permitted(endpoints, policy)));
    config.secrets().forEach(accepted::secret);
    // Lowering picks delegated RouteTables by the same grants (Delegation.Tables).
    Consent.grantObjects(config).forEach(accepted::add);
    Verdicts result = new Verdicts(accepted.build(), ledger.statuses());
    if (log.isDebugEnabled()) {
      long rejected = result.statuses().values().stream().filter(s -> !s.isAccepted()).count();
      log.debug("validated resources={} rejected={}", result.statuses().size(), rejected);
    }
    return result;
  }

  /**
   * Runs one object's own rules; if they throw (a bug in a rule, never the user's fault) the object alone is
   * rejected with {@link Reasons#INTERNAL_ERROR}, and every other object is judged as usual. Errors that leave the
   * JVM unsound are not caught: the worker's guard ends the process.
   */
  private static void guarded(Ledger ledger, ResourceKey key, Runnable rules) {
    try {
      rules.run();
    } catch (RuntimeException e) {
      log.error("validation rules failed on one object; it is rejected and the others are judged as usual"
          + " resource={}", key, e);
      ledger.error(key, "", Reasons.INTERNAL_ERROR, "Holdfast failed while checking this object ("
          + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
          + ") and does not serve it. This is a bug in Holdfast; please report it");
    }
  }

  /** Registers every key and rejects keys defined more than once; returns those keys. */
  private static Set<ResourceKey> trackAll(GatewayConfig config, Ledger ledger) {
    Map<ResourceKey, Integer> counts = new TreeMap<>();
    config.resources().forEach(r -> {
      ledger.track(r.key(), r.metadata().generation());
      counts.merge(r.key(), 1, Integer::sum);
    });
    for (UnparsedResource unparsed : config.unparsed()) {
      ledger.track(unparsed.key(), unparsed.generation());
      counts.merge(unparsed.key(), 1, Integer::sum);
    }
    Set<ResourceKey> duplicates = new LinkedHashSet<>();
    counts.forEach((key, count) -> {
      if (count > 1) {
        duplicates.add(key);
        ledger.error(key, "metadata.name", Reasons.DUPLICATE_RESOURCE,
            key + " is defined " + count + " times; keep exactly one definition");
      }
    });
    return duplicates;
  }

  /** Upstreams and RouteTables (by reference) named by the routes of {@code owner}. */
  private static void checkReferences(GatewayResource owner, List<Route> routes, Ledger ledger, Consent consent) {
    String namespace = owner.metadata().namespace();
    for (int i = 0; i < routes.size(); i++) {
      Route route = routes.get(i);
      if (route.action() instanceof RouteAction.Delegate delegate
          && delegate.target() instanceof RouteAction.DelegateRef ref && Syntax.isObjectName(ref.ref().name())
          && ref.ref().namespace().map(Syntax::isNamespace).orElse(true)) {
        ResourceKey target = ref.ref().resolve(ResourceKey.ROUTE_TABLE, namespace);
        if (!ConsentRules.reference(owner.key(), target, "spec.routes[" + i + "].delegate.ref", consent, ledger)) {
          continue;
        }
        if (!ledger.isKnown(target)) {
          ledger.error(owner.key(), "spec.routes[" + i + "].delegate.ref", Reasons.ROUTE_TABLE_NOT_FOUND,
              target + " does not exist");
        }
      }
      List<ObjectRef> refs = route.action().upstreams();
      for (int j = 0; j < refs.size(); j++) {
        String field = route.action() instanceof RouteAction.Split
            ? "spec.routes[" + i + "].split[" + j + "].upstream" : "spec.routes[" + i + "].route.upstream";
        checkUpstreamRef(owner, refs.get(j), field, ledger, consent);
      }
    }
  }

  private static void checkUpstreamRefs(TcpGateway tcp, Ledger ledger, Consent consent) {
    for (int i = 0; i < tcp.hosts().size(); i++) {
      RouteAction destination = tcp.hosts().get(i).destination();
      List<ObjectRef> refs = destination.upstreams();
      for (int j = 0; j < refs.size(); j++) {
        String field = "spec.hosts[" + i + "]" + (destination instanceof RouteAction.Split
            ? ".split[" + j + "].upstream" : ".upstream");
        checkUpstreamRef(tcp, refs.get(j), field, ledger, consent);
      }
    }
  }

  /** The upstream {@code ref} must exist and be served; a malformed reference was already reported. */
  private static void checkUpstreamRef(GatewayResource referrer, ObjectRef ref, String field, Ledger ledger,
      Consent consent) {
    if (!Syntax.isObjectName(ref.name()) || !ref.namespace().map(Syntax::isNamespace).orElse(true)) {
      return; // already reported as InvalidName
    }
    ResourceKey target = ref.resolve(ResourceKey.UPSTREAM, referrer.metadata().namespace());
    if (!ConsentRules.reference(referrer.key(), target, field, consent, ledger)) {
      return; // whether it exists is not the referrer's business
    }
    if (!ledger.isKnown(target)) {
      ledger.error(referrer.key(), field, Reasons.UPSTREAM_NOT_FOUND, target + " does not exist");
    } else if (ledger.isRejected(target)) {
      ledger.error(referrer.key(), field, Reasons.UPSTREAM_REJECTED, target + " is rejected; see its status");
    }
  }

  /** The accepted VirtualServices a served gateway selects, warning about the ones it cannot serve. */
  private static List<ObjectRef> resolveSelection(Gateway gateway, GatewayConfig config, Ledger ledger) {
    String namespace = gateway.metadata().namespace();
    Set<ResourceKey> served = new LinkedHashSet<>();
    if (gateway.selection() instanceof VirtualServiceSelection.Named named) {
      for (int i = 0; i < named.refs().size(); i++) {
        ResourceKey key = named.refs().get(i).resolve(ResourceKey.VIRTUAL_SERVICE, namespace);
        String field = "spec.virtualServices[" + i + "]";
        if (!ledger.isKnown(key)) {
          ledger.warn(gateway.key(), field, Reasons.VIRTUAL_SERVICE_NOT_FOUND, key + " does not exist");
        } else if (ledger.isRejected(key)) {
          ledger.warn(gateway.key(), field, Reasons.VIRTUAL_SERVICE_REJECTED, key + " is rejected; not served");
        } else {
          served.add(key);
        }
      }
    } else {
      String field = gateway.selection() instanceof VirtualServiceSelection.LabelSelector ? "spec.selector" : "spec";
      Set<ResourceKey> rejected = new LinkedHashSet<>();
      for (VirtualService vs : config.virtualServices()) {
        if (gateway.selection().selects(namespace, vs)) {
          (ledger.isRejected(vs.key()) ? rejected : served).add(vs.key());
        }
      }
      if (gateway.selection() instanceof VirtualServiceSelection.AllInNamespace) {
        // Unparsed VirtualServices have no labels to select on, but "all in the namespace" includes them.
        config.unparsed().stream().map(UnparsedResource::key)
            .filter(k -> k.kind().equals(ResourceKey.VIRTUAL_SERVICE) && k.namespace().equals(namespace))
            .forEach(rejected::add);
      }
      rejected.forEach(key ->
          ledger.warn(gateway.key(), field, Reasons.VIRTUAL_SERVICE_REJECTED, key + " is rejected; not served"));
    }
    if (served.isEmpty()) {
      ledger.warn(gateway.key(), "spec", Reasons.NO_VIRTUAL_SERVICES, gateway.ssl()
          ? "no accepted VirtualService to serve; the HTTPS listener is not served"
          : "no accepted VirtualService to serve; the listener answers every request with 404");
    }
    return served.stream().map(key -> ObjectRef.of(key.namespace(), key.name())).toList();
  }

  /** An HTTPS gateway serves only VirtualServices with a certificate; the others get a warning on the gateway. */
  private static List<ObjectRef> httpsOnly(Gateway gateway, List<ObjectRef> refs, Map<ResourceKey, VirtualService> byKey,
      Ledger ledger) {
    List<ObjectRef> kept = new ArrayList<>();
    for (ObjectRef ref : refs) {
      ResourceKey key = ref.resolve(ResourceKey.VIRTUAL_SERVICE, gateway.metadata().namespace());
      if (byKey.get(key).sslConfig().isPresent()) {
        kept.add(ref);
      } else {
        ledger.warn(gateway.key(), "spec", Reasons.MISSING_SSL_CONFIG, key
            + " has no sslConfig (no certificate); not served on this HTTPS gateway");
      }
    }
    if (kept.isEmpty() && !refs.isEmpty()) {
      ledger.warn(gateway.key(), "spec", Reasons.NO_VIRTUAL_SERVICES,
          "no accepted VirtualService with an sslConfig; the HTTPS listener is not served");
    }
    return kept;
  }

  private static <T extends GatewayResource> List<T> unique(List<T> resources, Set<ResourceKey> duplicates) {
    return resources.stream().filter(r -> !duplicates.contains(r.key())).toList();
  }

  private static <T extends GatewayResource> List<T> served(List<T> resources, Ledger ledger) {
    return resources.stream().filter(r -> !ledger.isRejected(r.key())).toList();
  }
}
