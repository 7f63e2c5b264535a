package io.holdfast.frontend.holdfast;

import io.holdfast.api.Cidr;
import io.holdfast.api.Gateway;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.InputLimits;
import io.holdfast.api.HttpMethod;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteMatch;
import io.holdfast.api.RouteTable;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.SslConfig;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.api.VirtualHostOptions;
import io.holdfast.api.VirtualService;
import io.holdfast.api.VirtualServiceSelection;
import io.holdfast.ir.Cluster.WeightedEndpoint;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.HealthCheck;
import io.holdfast.ir.Listener;
import io.holdfast.ir.Origin;
import io.holdfast.ir.UpstreamTls;
import io.holdfast.ir.Secret;
import io.holdfast.ir.SocketOptions;
import io.holdfast.ir.RouteAction.WeightedCluster;
import io.holdfast.ir.RouteMatch.HeaderMatch;
import io.holdfast.ir.RouteMatch.PathMatch;
import io.holdfast.ir.VirtualHost;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Lowers an accepted Holdfast config (the output of {@link Validator}, consistent) into IR elements: an Upstream
 * to a cluster, a VirtualService to a virtual host (plus one client listener per non-wildcard domain) with the
 * routes of the RouteTables it delegates to flattened in (the VirtualService's option defaults apply to them too),
 * a Gateway to a socket listener holding the virtual hosts it serves in key order (on an HTTPS Gateway, one TLS
 * filter chain per VirtualService, and the secrets those chains name), a TcpGateway to a socket listener with one
 * TCP filter chain per host. Pure.
 */
final class Lowering {

  private Lowering() {
  }

  static Cluster cluster(Upstream upstream, GatewayConfig config) {
    List<WeightedEndpoint> endpoints = new ArrayList<>();
    if (upstream.target() instanceof UpstreamTarget.Static hosts) {
      hosts.hosts().forEach(h -> endpoints.add(new WeightedEndpoint(h.address(), h.port(), h.weight())));
    } else if (upstream.target() instanceof UpstreamTarget.Kube kube) {
      config.endpointsOf(kube.service(upstream.metadata().namespace())).stream().sorted()
          .forEach(e -> endpoints.add(new WeightedEndpoint(e.address(), e.port(), 1)));
    }
    UpstreamOptions options = upstream.options();
    Optional<Cluster.Dns> dns = UpstreamRules.resolvesNames(upstream)
        ? Optional.of(dns(options.dns())) : Optional.empty();
    Cluster cluster = new Cluster(Origin.of(upstream.key()), upstream.connectTimeout(),
        Cluster.LbPolicy.valueOf(upstream.loadBalancing().name()), upstream.http2(), endpoints, dns,
        options.circuitBreakers().map(Lowering::circuitBreakers),
        options.outlierDetection().map(Lowering::outlierDetection),
        options.healthChecks().stream().map(Lowering::healthCheck).toList(),
        options.tls().map(tls -> upstreamTls(upstream, tls)));
    Cluster ringed = options.ringHash()
        .map(ring -> cluster.withRingHash(new Cluster.RingHash(ring.minimumRingSize(), ring.maximumRingSize())))
        .orElse(cluster);
    return options.connection().map(connection -> ringed.withConnection(connection(connection))).orElse(ringed);
  }

  private static Cluster.Connection connection(UpstreamOptions.Connection connection) {
    Optional<UpstreamOptions.TcpKeepalive> keepalive = connection.tcpKeepalive();
    return new Cluster.Connection(connection.maxRequestsPerConnection(), connection.perConnectionBufferLimitBytes(),
        keepalive.flatMap(UpstreamOptions.TcpKeepalive::probes), keepalive.flatMap(UpstreamOptions.TcpKeepalive::time),
        keepalive.flatMap(UpstreamOptions.TcpKeepalive::interval), connection.idleTimeout(),
        connection.maxHeadersCount(), connection.maxStreamDuration())
        .withHttp1(connection.http1().map(http1 -> new Cluster.Http1(http1.enableTrailers(),
            http1.headerKeyFormat().map(format -> Cluster.HeaderKeyFormat.valueOf(format.name())),
            http1.streamErrorOnInvalidHttpMessage())))
        .withHttp2(connection.http2().map(http2 -> new Cluster.Http2(
            http2.maxConcurrentStreams().map(Long::intValue), http2.initialStreamWindowSize().map(Long::intValue),
            http2.initialConnectionWindowSize().map(Long::intValue), http2.streamErrorOnInvalidHttpMessage())));
  }

  private static UpstreamTls upstreamTls(Upstream upstream, UpstreamOptions.Tls tls) {
    String namespace = upstream.metadata().namespace();
    UpstreamTls.Verify verify = switch (tls.effectiveVerify()) {
      case SYSTEM -> UpstreamTls.Verify.SYSTEM_CAS;
      case CA -> UpstreamTls.Verify.TRUSTED_CA;
      case NONE -> UpstreamTls.Verify.NONE;
    };
    return new UpstreamTls(UpstreamRules.sni(upstream, tls), verify,
        tls.trustedCa().map(ca -> caSecretName(ca.key(namespace))),
        tls.clientCertificate().map(certificate -> certificateSecretName(certificate.keys(namespace).get(0))),
        verify == UpstreamTls.Verify.NONE ? List.of() : tls.subjectAltNames(), tls.alpnProtocols(),
        // Built with the rest: the IR checks the SDS validation context against verify.
        tls.sds().flatMap(sds -> sds.agent().map(agent -> new UpstreamTls.Sds(agent.ip(), agent.port(),
            sds.certificateSecretName(), sds.validationContextName()))));
  }

  /**
   * The IR secrets of an Upstream's TLS: its trusted CA and its client certificate, named as a VirtualService's
   * ({@link #secrets(VirtualService, GatewayConfig)}), so a Secret or file both use is one secret.
   */
  static List<Secret> secrets(Upstream upstream, GatewayConfig config) {
    String namespace = upstream.metadata().namespace();
    Origin origin = Origin.of(upstream.key()).at("spec.tls");
    List<Secret> secrets = new ArrayList<>();
    upstream.options().tls().ifPresent(tls -> {
      tls.trustedCa().ifPresent(ca -> secrets.add(trustedCaSecret(origin.at("trustedCa"), ca.key(namespace),
          config)));
      tls.clientCertificate().ifPresent(certificate -> secrets.add(certificateSecret(
          origin.at("clientCertificate"), certificate.keys(namespace), config)));
    });
    return secrets;
  }

  /** STRICT and V4_ONLY unless written: Gloo Edge's choice for static hosts given by name. */
  private static Cluster.Dns dns(Optional<UpstreamOptions.Dns> written) {
    return new Cluster.Dns(
        written.flatMap(UpstreamOptions.Dns::resolution).map(r -> Cluster.DnsResolution.valueOf(r.name()))
            .orElse(Cluster.DnsResolution.STRICT),
        written.flatMap(UpstreamOptions.Dns::lookupFamily).map(f -> Cluster.DnsLookupFamily.valueOf(f.name()))
            .orElse(Cluster.DnsLookupFamily.V4_ONLY),
        written.flatMap(UpstreamOptions.Dns::refreshRate),
        written.flatMap(UpstreamOptions.Dns::respectTtl).orElse(false));
  }

  private static Cluster.CircuitBreakers circuitBreakers(UpstreamOptions.CircuitBreakers cb) {
    return new Cluster.CircuitBreakers(cb.maxConnections(), cb.maxPendingRequests(), cb.maxRequests(),
        cb.maxRetries());
  }

  /** Envoy's defaults, written out, so Envoy and gRPC clients get the same explicit values. */
  private static Cluster.OutlierDetection outlierDetection(UpstreamOptions.OutlierDetection od) {
    return new Cluster.OutlierDetection(od.consecutive5xx(), od.consecutiveGatewayErrors(),
        od.successRate().map(sr -> new Cluster.SuccessRate(sr.minimumHosts().orElse(5),
            sr.requestVolume().orElse(100), (int) Math.round(sr.stdevFactor().orElse(1.9) * 1000))),
        od.failurePercentage().map(fp -> new Cluster.FailurePercentage(fp.threshold().orElse(85),
            fp.minimumHosts().orElse(5), fp.requestVolume().orElse(50))),
        od.interval().orElse(Duration.ofSeconds(10)), od.baseEjectionTime().orElse(Duration.ofSeconds(30)),
        od.maxEjectionPercent().orElse(10));
  }

  /** One healthy probe brings an endpoint back, three failed ones take it out (Kubernetes probes' defaults). */
  private static HealthCheck healthCheck(UpstreamOptions.HealthCheck hc) {
    HealthCheck.Probe probe;
    if (hc.probe() instanceof UpstreamOptions.Probe.Http http) {
      probe = new HealthCheck.Probe.Http(http.path(), http.host(), http.expectedStatuses().stream()
          .map(r -> new HealthCheck.StatusRange(r.start(), r.end())).toList());
    } else if (hc.probe() instanceof UpstreamOptions.Probe.Grpc grpc) {
      probe = new HealthCheck.Probe.Grpc(grpc.serviceName());
    } else {
      probe = new HealthCheck.Probe.Tcp();
    }
    return new HealthCheck(hc.timeout(), hc.interval(), hc.healthyThreshold().orElse(1),
        hc.unhealthyThreshold().orElse(3), probe);
  }

  /**
   * The virtual host of {@code vs}. A delegating route is replaced by the routes of the RouteTables it picks (in
   * {@link Delegation#ORDER}, each table's routes in order, recursively), except tables whose routes leave the
   * prefix it hands down ({@link Delegation#handed}: Gloo's {@code inheritablePathMatchers} is resolved on this
   * walk, so a table gets each parent's result); a delegated route gets its table's origin and field, the match
   * {@link Delegation#inherit} gives it (left out when that can never match), and the option groups it does not set
   * from the delegating routes above it ({@link OptionInheritance}).
   *
   * @param tables      the accepted RouteTables
   * @param clusterKeys the lowered clusters' keys, each to the cluster's own instance, which the routes then name:
   *                    the IR checks every route's clusters, and the cluster's own instance is found without
   *                    comparing fields
   * @param consent     which RouteTables of other namespaces a selector may pick (as validation decided)
   * @param limits      delegation deeper than {@link InputLimits#maxDelegationDepth()} and routes beyond
   *                    {@link InputLimits#maxRoutesPerVirtualHost()} are left out (Validator rejects them first;
   *                    this keeps lowering bounded whatever it is given, e.g. a last accepted version)
   * @throws IllegalArgumentException on a delegation cycle: lower only Validator output
   */
  static VirtualHost virtualHost(VirtualService vs, List<RouteTable> tables,
      Map<ResourceKey, ResourceKey> clusterKeys, InputLimits limits, Consent consent) {
    Flattening flat = new Flattening(tables, vs.options(), clusterKeys, limits, consent);
    flat.run(vs);
    return new VirtualHost(Origin.of(vs.key()), vs.domains(), flat.out);
  }

  /**
   * Collects the flattened routes of one virtual host. A delegated route is named {@code ns/table/name} (or
   * {@code ns/table/routes[i]}), with {@code #2}, {@code #3}, ... when the same table is reached again.
   */
  private static final class Flattening {
    private final Delegation.Tables tables;
    private final VirtualHostOptions defaults;
    private final List<io.holdfast.ir.Route> out = new ArrayList<>();
    private final Set<String> names = new HashSet<>();
    private final Map<ResourceKey, ResourceKey> clusterKeys;
    private final InputLimits limits;
    private int visited;
    /** The VirtualService being flattened: its security options resolve its routes' and its tables'. */
    private VirtualService vs;

    Flattening(List<RouteTable> tables, VirtualHostOptions defaults, Map<ResourceKey, ResourceKey> clusterKeys,
        InputLimits limits, Consent consent) {
      this.limits = limits;
      this.tables = new Delegation.Tables(tables, consent);
      this.defaults = defaults;
      this.clusterKeys = clusterKeys;
    }

    /**
     * One object whose routes are being flattened: the VirtualService, or a RouteTable under a delegating route.
     *
     * @param inherited the effective match of the delegating route, empty at the top of the virtual host
     * @param reached   the path context the delegating route hands down ({@link Delegation#handed}), empty at the
     *                  top of the virtual host
     * @param handed    the delegating route with the options it hands down ({@link OptionInheritance}), merged
     *                  with what its own parent handed it; empty at the top of the virtual host
     */
    private static final class Frame {
      final Origin owner;
      final String namespace;
      final List<Route> routes;
      final Optional<RouteMatch> inherited;
      final Optional<Delegation.PathContext> reached;
      final Optional<Route> handed;
      int next;
      /** The tables the current delegating route picks, and the match, path context and options they inherit. */
      List<RouteTable> targets = List.of();
      int target;
      Delegation.PathContext delegating;
      Optional<RouteMatch> effective = Optional.empty();
      Optional<Route> handing = Optional.empty();

      Frame(Origin owner, String namespace, List<Route> routes, Optional<RouteMatch> inherited,
          Optional<Delegation.PathContext> reached, Optional<Route> handed) {
        this.owner = owner;
        this.namespace = namespace;
        this.routes = routes;
        this.inherited = inherited;
        this.reached = reached;
        this.handed = handed;
      }

      /** {@code route} with the options this object's delegating parent hands down. */
      Route withInherited(Route route) {
        return handed.map(parent -> OptionInheritance.inherit(parent, route)).orElse(route);
      }
    }

    /**
     * Depth-first with an explicit stack, not recursion, so a long chain of RouteTables cannot overflow the
     * thread's stack; a table deeper than the depth limit is left out, and the walk stops after the route limit.
     */
    void run(VirtualService vs) {
      this.vs = vs;
      Deque<Frame> stack = new ArrayDeque<>();
      Set<ResourceKey> onPath = new HashSet<>();
      stack.push(new Frame(Origin.of(vs.key()), vs.metadata().namespace(), vs.routes(), Optional.empty(),
          Optional.empty(), Optional.empty()));
      onPath.add(vs.key());
      while (!stack.isEmpty()) {
        Frame frame = stack.peek();
        if (frame.target < frame.targets.size()) {
          RouteTable table = frame.targets.get(frame.target++);
          if (stack.size() > limits.maxDelegationDepth()) {
            continue; // too deep: its status says so
          }
          if (!onPath.add(table.key())) {
            throw new IllegalArgumentException("delegation cycle through " + table.key()
                + "; lower only Validator output");
          }
          stack.push(new Frame(Origin.of(table.key()), table.metadata().namespace(), table.routes(),
              frame.effective, Optional.of(frame.delegating), frame.handing));
          continue;
        }
        if (frame.next >= frame.routes.size() || visited >= limits.maxRoutesPerVirtualHost()) {
          stack.pop();
          onPath.remove(frame.owner.object());
          continue;
        }
        int i = frame.next++;
        visited++; // every route looked at, delegating ones too, as DelegationRules counts them
        Route route = frame.routes.get(i);
        if (frame.reached.isPresent() && Delegation.leaves(frame.reached.get(), route)) {
          continue; // leaves the prefix it is delegated under: pruned here alone, its table's status says so
        }
        Optional<RouteMatch> effective = frame.inherited.isEmpty() ? Optional.of(route.match())
            : Delegation.inherit(frame.reached.orElseThrow(), frame.inherited.get(), route);
        if (effective.isEmpty()) {
          continue; // no method in common with the parent: the route could never match here
        }
        if (route.action() instanceof RouteAction.Delegate delegate) {
          frame.targets = tables.targets(frame.owner.object(), delegate);
          frame.target = 0;
          frame.delegating = Delegation.handed(frame.reached, route);
          frame.effective = effective;
          // Merged once per delegating route, not per table or route below it: one merge per route served.
          frame.handing = Optional.of(frame.withInherited(OptionInheritance.qualified(route, frame.namespace)));
          continue;
        }
        add(frame, i, frame.withInherited(route), effective.get());
      }
    }

    private void add(Frame frame, int i, Route route, RouteMatch effective) {
      Origin owner = frame.owner;
      String local = route.name().orElse("routes[" + i + "]");
      String name = frame.inherited.isEmpty() ? local
          : owner.object().namespace() + "/" + owner.object().name() + "/" + local;
      String unique = name;
      // A table reached twice in one host; names the user gave the VirtualService's own routes stay as written.
      for (int n = 2; !names.add(unique) && frame.inherited.isPresent(); n++) {
        unique = name + "#" + n;
      }
      out.add(new io.holdfast.ir.Route(owner.at("spec.routes[" + i + "]"), unique, match(effective),
          action(route, defaults, frame.namespace, clusterKeys),
          LoweringOptions.headers(defaults.headerManipulation(), route.options().headerManipulation()),
          route.options().cors().or(() -> defaults.cors()).map(LoweringOptions::cors),
          SecurityLowering.route(vs, route),
          TrafficLowering.route(route.options().traffic(), defaults.traffic())));
    }
  }

  /** One client listener per non-wildcard domain, each with the virtual host narrowed to that domain. */
  static List<Listener.ClientApi> clientListeners(VirtualService vs, VirtualHost host) {
    List<Listener.ClientApi> listeners = new ArrayList<>();
    for (int i = 0; i < vs.domains().size(); i++) {
      String domain = vs.domains().get(i);
      if (vs.grpcDomains().contains(domain)) {
        listeners.add(new Listener.ClientApi(Origin.of(vs.key()).at("spec.domains[" + i + "]"), domain,
            SecurityLowering.withoutSecurity(host).withDomains(List.of(domain))));
      }
    }
    return listeners;
  }

  /**
   * The socket listener of a gateway, serving the virtual hosts of {@code hosts} it selects in key order: on a
   * plain-HTTP gateway one chain holding them all (a VirtualService with {@code httpsRedirect} as a host that
   * redirects every request to https); on an HTTPS gateway one TLS chain per VirtualService, selected by its server
   * names (none: the default chain), with its certificate. Every chain also matches the gateway's
   * {@code sourcePrefixRanges}. Empty for an HTTPS gateway serving nothing: a TLS listener needs a certificate.
   *
   * @throws IllegalArgumentException if it names a VirtualService that is not in {@code hosts}
   */
  static Optional<Listener.Socket> socket(Gateway gateway, List<VirtualService> accepted,
      Map<ResourceKey, VirtualHost> hosts, GatewayConfig config, Consent consent) {
    String namespace = gateway.metadata().namespace();
    Map<ResourceKey, VirtualService> byKey = new TreeMap<>();
    accepted.forEach(vs -> byKey.put(vs.key(), vs));
    Map<ResourceKey, VirtualService> served = new TreeMap<>();
    if (gateway.selection() instanceof VirtualServiceSelection.Named named) {
      for (ObjectRef ref : named.refs()) {
        ResourceKey key = ref.resolve(ResourceKey.VIRTUAL_SERVICE, namespace);
        if (!hosts.containsKey(key) || !byKey.containsKey(key)) {
          throw new IllegalArgumentException(gateway.key() + " references " + key
              + ", which is not in the accepted config; lower only Validator output");
        }
        served.put(key, byKey.get(key));
      }
    } else {
      accepted.stream().filter(vs -> gateway.selection().selects(namespace, vs)).forEach(vs -> served.put(vs.key(), vs));
    }
    Origin origin = Origin.of(gateway.key());
    List<Listener.SourceRange> sources = sourceRanges(gateway.sourcePrefixRanges());
    if (!gateway.ssl()) {
      List<VirtualHost> plain = served.values().stream()
          .map(vs -> vs.httpsRedirect() ? httpsRedirect(hosts.get(vs.key())) : hosts.get(vs.key())).toList();
      return Optional.of(new Listener.Socket(origin, gateway.bindAddress(), gateway.port(), List.of(
          new Listener.FilterChain.Http(origin, "http", Listener.ChainMatch.ANY.withSourcePrefixRanges(sources),
              Optional.empty(), plain,
              SecurityLowering.listener(served.values(), config, consent))),
          new TreeSet<>(gateway.proxyNames()), SocketOptions.NONE,
          gateway.grpcServer() ? Listener.DataPlane.GRPC_SERVER : Listener.DataPlane.ENVOY));
    }
    List<Listener.FilterChain> chains = new ArrayList<>();
    for (VirtualService vs : served.values()) {
      SslConfig ssl = vs.sslConfig().orElseThrow(() -> new IllegalArgumentException(gateway.key() + " serves "
          + vs.key() + ", which has no sslConfig; lower only Validator output"));
      chains.add(new Listener.FilterChain.Http(Origin.of(vs.key()).at("spec.sslConfig"),
          vs.metadata().namespace() + "/" + vs.metadata().name(),
          new Listener.ChainMatch(TlsRules.serverNames(vs, ssl), sources), Optional.of(downstreamTls(vs, ssl)),
          List.of(hosts.get(vs.key())), SecurityLowering.listener(List.of(vs), config, consent)));
    }
    return chains.isEmpty() ? Optional.empty()
        : Optional.of(new Listener.Socket(origin, gateway.bindAddress(), gateway.port(), chains,
            new TreeSet<>(gateway.proxyNames())));
  }

  /** The same domains, every request answered with a permanent redirect to the same URL over https. */
  static VirtualHost httpsRedirect(VirtualHost host) {
    return new VirtualHost(host.origin(), host.domains(), List.of(new io.holdfast.ir.Route(
        host.origin().at("spec.httpsRedirect"), "https-redirect",
        new io.holdfast.ir.RouteMatch(new PathMatch.Prefix("/"), List.of(), List.of()),
        new io.holdfast.ir.RouteAction.Redirect(Optional.empty(), Optional.empty(), Optional.empty(), 301, true))));
  }

  private static Listener.DownstreamTls downstreamTls(VirtualService vs, SslConfig ssl) {
    return downstreamTls(vs.metadata().namespace(), ssl, List.of("h2", "http/1.1"));
  }

  private static Listener.DownstreamTls downstreamTls(String namespace, SslConfig ssl, List<String> alpn) {
    Listener.TlsVersion version = ssl.minTlsVersion() == SslConfig.TlsVersion.TLSv1_3
        ? Listener.TlsVersion.TLS_1_3 : Listener.TlsVersion.TLS_1_2;
    return new Listener.DownstreamTls(certificateSecretName(ssl.certificateKeys(namespace).get(0)), version,
        ssl.clientCaKeys(namespace).stream().findFirst().map(Lowering::caSecretName), alpn);
  }

  /**
   * The IR secrets of an HTTPS VirtualService: its certificate and key, and its client CA. Names (the Envoy SDS
   * names) follow the source, so two VirtualServices naming one Secret share it: {@code secret/ns/name} and
   * {@code ca/secret/ns/name} for Kubernetes Secrets, {@code file/PATH} and {@code ca/file/PATH} for files.
   */
  static List<Secret> secrets(VirtualService vs, GatewayConfig config) {
    SslConfig ssl = vs.sslConfig().orElseThrow();
    String namespace = vs.metadata().namespace();
    Origin origin = Origin.of(vs.key()).at("spec.sslConfig");
    List<Secret> secrets = new ArrayList<>();
    secrets.add(certificateSecret(origin, ssl.certificateKeys(namespace), config));
    ssl.clientCa().ifPresent(ca -> secrets.add(trustedCaSecret(origin.at("clientCa"), ca.key(namespace), config)));
    return secrets;
  }

  private static Secret certificateSecret(Origin origin, List<ResourceKey> keys, GatewayConfig config) {
    String chain = TlsRules.entry(config, keys.get(0), TlsSecretData.TLS_CRT).orElseThrow(() ->
        new IllegalArgumentException(origin + ": no certificate; lower only Validator output"));
    String key = TlsRules.entry(config, keys.get(keys.size() - 1), TlsSecretData.TLS_KEY).orElseThrow(() ->
        new IllegalArgumentException(origin + ": no private key; lower only Validator output"));
    return new Secret(origin, certificateSecretName(keys.get(0)), new Secret.Content.CertificateAndKey(chain, key));
  }

  private static Secret trustedCaSecret(Origin origin, ResourceKey key, GatewayConfig config) {
    String ca = TlsRules.entry(config, key, TlsSecretData.CA_CRT).orElseThrow(() ->
        new IllegalArgumentException(origin + ": no CA; lower only Validator output"));
    return new Secret(origin, caSecretName(key), new Secret.Content.TrustedCa(ca));
  }

  /** {@code secret/ns/name} for a Secret, {@code file/PATH} for files (the chain's path). */
  private static String certificateSecretName(ResourceKey key) {
    return TlsSecretData.isFileKey(key) ? "file/" + key.name() : "secret/" + key.namespace() + "/" + key.name();
  }

  /** {@code ca/secret/ns/name} for a Secret's {@code ca.crt}, {@code ca/file/PATH} for a file. */
  private static String caSecretName(ResourceKey key) {
    return "ca/" + certificateSecretName(key);
  }

  /**
   * The IR secrets of a TcpGateway's TLS-terminating hosts: each host's certificate and client CA, named as a
   * VirtualService's ({@link #secrets(VirtualService, GatewayConfig)}), so a Secret both use is one secret.
   */
  static List<Secret> secrets(TcpGateway gateway, GatewayConfig config) {
    Origin origin = Origin.of(gateway.key());
    String namespace = gateway.metadata().namespace();
    List<Secret> secrets = new ArrayList<>();
    for (int i = 0; i < gateway.hosts().size(); i++) {
      Origin at = origin.at("spec.hosts[" + i + "].sslConfig");
      gateway.hosts().get(i).sslConfig().ifPresent(ssl -> {
        secrets.add(certificateSecret(at, ssl.certificateKeys(namespace), config));
        ssl.clientCa().ifPresent(ca -> secrets.add(trustedCaSecret(at.at("clientCa"), ca.key(namespace), config)));
      });
    }
    return secrets;
  }

  /**
   * The socket listener of a TCP gateway: one TCP filter chain per host, in written order, named after the host
   * and matching its SNI names (none for the default host). A host with an {@code sslConfig} terminates TLS with
   * its certificate over SDS (no ALPN: the bytes after the handshake are the application's own); the others pass
   * TLS through.
   */
  static Listener.Socket tcpSocket(TcpGateway gateway) {
    Origin origin = Origin.of(gateway.key());
    String namespace = gateway.metadata().namespace();
    List<Listener.FilterChain> chains = new ArrayList<>();
    for (int i = 0; i < gateway.hosts().size(); i++) {
      TcpGateway.Host host = gateway.hosts().get(i);
      List<WeightedCluster> clusters = host.destination() instanceof RouteAction.Split split
          ? split.targets().stream()
              .map(t -> new WeightedCluster(upstream(t.upstream(), namespace), t.weight())).toList()
          : List.of(new WeightedCluster(upstream(host.destination().upstreams().get(0), namespace), 1));
      chains.add(new Listener.FilterChain.Tcp(origin.at("spec.hosts[" + i + "]"), host.name(),
          new Listener.ChainMatch(host.sniDomains(), sourceRanges(host.sourcePrefixRanges())),
          host.sslConfig().map(ssl -> downstreamTls(namespace, ssl, List.of())), clusters));
    }
    return new Listener.Socket(origin, gateway.bindAddress(), gateway.port(), chains,
        new TreeSet<>(gateway.proxyNames()));
  }

  /** Validated CIDR text as the IR's source ranges (network address, no host bits). */
  private static List<Listener.SourceRange> sourceRanges(List<String> ranges) {
    return ranges.stream().map(Cidr::parse)
        .map(c -> new Listener.SourceRange(TcpGatewayRules.networkAddress(c), c.prefixLength())).toList();
  }

  private static io.holdfast.ir.RouteMatch match(RouteMatch match) {
    PathMatch path = match.path().map(Lowering::path).orElse(new PathMatch.Prefix("/"));
    List<HeaderMatch> headers = match.headers().stream()
        .map(h -> new HeaderMatch(h.name().toLowerCase(Locale.ROOT), condition(h.condition()), h.invert()))
        .toList();
    List<String> methods = match.methods().stream().distinct().sorted().map(HttpMethod::name).toList();
    return new io.holdfast.ir.RouteMatch(path, headers, methods, LoweringOptions.queryParameters(match));
  }

  private static PathMatch path(io.holdfast.api.PathMatch path) {
    if (path instanceof io.holdfast.api.PathMatch.Prefix prefix) {
      return new PathMatch.Prefix(prefix.value(), prefix.caseSensitive());
    }
    if (path instanceof io.holdfast.api.PathMatch.Exact exact) {
      return new PathMatch.Exact(exact.value(), exact.caseSensitive());
    }
    return new PathMatch.Regex(path.value());
  }

  private static io.holdfast.ir.RouteMatch.Condition condition(io.holdfast.api.HeaderMatch.Condition c) {
    if (c instanceof io.holdfast.api.HeaderMatch.Exact exact) {
      return new io.holdfast.ir.RouteMatch.Exact(exact.value());
    }
    if (c instanceof io.holdfast.api.HeaderMatch.Prefix prefix) {
      return new io.holdfast.ir.RouteMatch.Prefix(prefix.value());
    }
    if (c instanceof io.holdfast.api.HeaderMatch.Regex regex) {
      return new io.holdfast.ir.RouteMatch.Regex(regex.value());
    }
    return new io.holdfast.ir.RouteMatch.Present(((io.holdfast.api.HeaderMatch.Present) c).present());
  }

  private static io.holdfast.ir.RouteAction action(Route route, VirtualHostOptions defaults, String namespace,
      Map<ResourceKey, ResourceKey> clusterKeys) {
    RouteAction action = route.action();
    if (action instanceof RouteAction.Forward forward) {
      return new io.holdfast.ir.RouteAction.Forward(cluster(forward.upstream(), namespace, clusterKeys),
          LoweringOptions.policy(route, defaults, namespace));
    }
    if (action instanceof RouteAction.Split split) {
      List<WeightedCluster> targets = split.targets().stream()
          .map(t -> new WeightedCluster(cluster(t.upstream(), namespace, clusterKeys), t.weight())).toList();
      return new io.holdfast.ir.RouteAction.Split(targets, LoweringOptions.policy(route, defaults, namespace));
    }
    if (action instanceof RouteAction.Redirect r) {
      return new io.holdfast.ir.RouteAction.Redirect(r.host(), r.path(), r.prefixRewrite(), r.responseCode(),
          r.httpsRedirect(), Optional.empty(), Optional.empty(), r.stripQuery());
    }
    RouteAction.DirectResponse direct = (RouteAction.DirectResponse) action;
    return new io.holdfast.ir.RouteAction.DirectResponse(direct.status(), direct.body());
  }

  /** The key of the upstream {@code ref} names, as the instance {@code clusterKeys} holds if it has one. */
  private static ResourceKey cluster(ObjectRef ref, String namespace, Map<ResourceKey, ResourceKey> clusterKeys) {
    ResourceKey key = upstream(ref, namespace);
    return clusterKeys.getOrDefault(key, key);
  }

  static ResourceKey upstream(ObjectRef ref, String namespace) {
    return ref.resolve(ResourceKey.UPSTREAM, namespace);
  }
}
