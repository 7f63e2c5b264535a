package io.holdfast.frontend.gloo;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.ProxyNames;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.RouteAction;
import io.holdfast.api.SslConfig;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.TrafficOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A Gloo {@code Gateway} ({@code gateway.solo.io/v1}) as read: its socket, its proxies, and either which
 * VirtualServices it serves ({@code httpGateway}; resolved against all VirtualServices by {@link GlooFrontEnd},
 * since Gloo selects across namespaces) or its TCP hosts ({@code tcpGateway}). A {@code hybridGateway} is read
 * when it is one of those in disguise (a single matched gateway without a matcher); as one TCP gateway whose
 * matched tcpGateways are split by their matchers (source ranges, and the sslConfig's SNI names for hosts without
 * their own); or as one HTTP gateway per matched httpGateway ({@link Read#matched}), each taking its matcher's
 * client networks, served together on the one socket (Holdfast's Gateway {@code sourcePrefixRanges}).
 */
final class GatewayReader {

  /** Gloo's default bind address: every IPv6 and (dual-stack) IPv4 address. */
  static final String DEFAULT_BIND_ADDRESS = "::";

  private static final Set<String> SPEC = Set.of("bindAddress", "bindPort", "ssl", "useProxyProto", "proxyNames",
      "options", "httpGateway", "tcpGateway", "hybridGateway");
  private static final Set<String> HTTP = Set.of("virtualServices", "virtualServiceSelector",
      "virtualServiceNamespaces", "options");
  private static final Set<String> TCP = Set.of("tcpHosts", "options");
  private static final Set<String> TCP_HOST = Set.of("name", "sslConfig", "destination");
  private static final Set<String> TCP_SSL = Set.of("sniDomains");
  /** The fields that make a tcpHost's sslConfig terminate TLS (sds is refused by the VirtualService reader). */
  private static final List<String> TERMINATING = List.of("secretRef", "sslFiles", "sds");
  private static final Set<String> TCP_DESTINATION = Set.of("single", "multi", "upstreamGroup",
      "forwardSniClusterName");
  private static final Set<String> HYBRID = Set.of("matchedGateways");
  private static final Set<String> MATCHED = Set.of("httpGateway", "tcpGateway", "matcher");
  private static final Set<String> MATCHER = Set.of("sourcePrefixRanges", "sslConfig", "passthroughCipherSuites");

  /**
   * Matched gateways one hybridGateway may list. Reason: each becomes a filter chain set (and, for HTTP, a route
   * configuration) on one listener that Envoy rebuilds whole on every change; Gloo's own examples split clients
   * two or three ways.
   */
  static final int MAX_MATCHED_GATEWAYS = 64;
  /** Reason of a hybridGateway listing more than {@link #MAX_MATCHED_GATEWAYS}. */
  static final String TOO_MANY_MATCHED_GATEWAYS = "TooManyMatchedGateways";
  /** Reason of the warning on a tcpGateway matcher's sslConfig field other than sniDomains, which Gloo ignores. */
  static final String UNUSED_MATCHER_SSL = "MatcherSslConfigUnused";
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> CIDR = Set.of("addressPrefix", "prefixLen");
  private static final Set<String> EMPTY = Set.of();

  /**
   * One Gloo Gateway as read.
   *
   * @param named      {@code httpGateway.virtualServices}, empty when not given
   * @param selector   {@code httpGateway.virtualServiceSelector}, empty when not given
   * @param namespaces {@code httpGateway.virtualServiceNamespaces}; empty or {@code *}: all namespaces
   * @param tcpHosts   present for a TCP gateway
   * @param options    an HTTP gateway's listener options ({@link GlooListenerOptions})
   * @param collectors the Upstreams its OpenTelemetry access logs send to, served with it
   * @param sourcePrefixRanges a matched httpGateway's client networks (its matcher's); empty: every client
   * @param sslDefaults a matched httpGateway's matcher {@code sslConfig}: Gloo merges it into each served
   *                   VirtualService's sslConfig as defaults (the VirtualService's own fields win)
   * @param matched    a hybridGateway's matched httpGateways, each read as an HTTP gateway of its own; empty
   *                   otherwise
   */
  record Read(Metadata metadata, String bindAddress, int port, boolean ssl, List<String> proxyNames,
      Optional<List<ObjectRef>> named, Optional<Map<String, String>> selector, List<String> namespaces,
      Optional<List<TcpGateway.Host>> tcpHosts, TrafficOptions.Listener options, OtelCollectors collectors,
      List<String> sourcePrefixRanges, Optional<Node> sslDefaults, List<Read> matched) {

    /** A gateway that is not split by matchers. */
    Read(Metadata metadata, String bindAddress, int port, boolean ssl, List<String> proxyNames,
        Optional<List<ObjectRef>> named, Optional<Map<String, String>> selector, List<String> namespaces,
        Optional<List<TcpGateway.Host>> tcpHosts, TrafficOptions.Listener options, OtelCollectors collectors) {
      this(metadata, bindAddress, port, ssl, proxyNames, named, selector, namespaces, tcpHosts, options, collectors,
          List.of(), Optional.empty(), List.of());
    }

    /** The same gateway taking only clients of {@code ranges}, with a matcher's sslConfig as TLS defaults. */
    Read matchedBy(List<String> ranges, Optional<Node> defaults) {
      return new Read(metadata, bindAddress, port, defaults.isPresent(), proxyNames, named, selector, namespaces,
          tcpHosts, options, collectors, ranges, defaults, matched);
    }

    /** The same gateway with TCP hosts (a hybridGateway's matched tcpGateways beside its HTTP parts). */
    Read withTcpHosts(Optional<List<TcpGateway.Host>> hosts) {
      return new Read(metadata, bindAddress, port, ssl, proxyNames, named, selector, namespaces, hosts, options,
          collectors, sourcePrefixRanges, sslDefaults, matched);
    }

    /** A hybridGateway's HTTP gateways, each a {@link #matchedBy} part. */
    Read withMatched(List<Read> parts) {
      return new Read(metadata, bindAddress, port, ssl, proxyNames, named, selector, namespaces, tcpHosts, options,
          collectors, sourcePrefixRanges, sslDefaults, parts);
    }
  }

  /** A matched gateway's matcher as read: client networks (CIDR text) and the sslConfig, when given. */
  private record Matcher(List<String> ranges, Optional<Node> ssl, String cipherSuites) {
    boolean isEmpty() {
      return ranges.isEmpty() && ssl.isEmpty() && cipherSuites.isEmpty();
    }

    /** What makes two matchers equal in Gloo's uniqueness rule: the ranges as a set, the rest as written. */
    Object identity() {
      return List.of(Set.copyOf(ranges), ssl.map(n -> n.json.toString()).orElse(""), cipherSuites);
    }
  }

  private GatewayReader() {
  }

  static Read read(Metadata metadata, Node spec, GlooRoutes routes, GatewayConfig config,
      SniClusters sniClusters) {
    spec.only("Gateway", SPEC);
    OtelCollectors collectors = new OtelCollectors(metadata.namespace(), metadata.name());
    String bindAddress = spec.string("bindAddress").orElse(DEFAULT_BIND_ADDRESS);
    if (bindAddress.contains(":")) {
      // Gloo sets Envoy's ipv4_compat on IPv6 bind addresses, so "::" also takes IPv4; Holdfast's listeners do not
      // (Envoy then binds IPv6 only). Served, but said, so the difference is never silent.
      spec.warn(spec.at("bindAddress"), "Ipv6OnlyListener", "bind address " + bindAddress + " takes IPv6"
          + " connections only on Holdfast (Gloo also takes IPv4 there, with Envoy's ipv4_compat); for IPv4"
          + " clients bind 0.0.0.0 (or another IPv4 address)");
    }
    int port = spec.integer("bindPort").orElseGet(() -> {
      spec.error(spec.at("bindPort"), Reasons.MISSING_FIELD, "bindPort is required");
      return 0;
    });
    List<String> proxyNames = spec.has("proxyNames") ? spec.strings("proxyNames") : ProxyNames.DEFAULT;
    Node http = spec.child("httpGateway");
    Node tcp = spec.child("tcpGateway");
    if (spec.has("hybridGateway")) {
      Node hybrid = spec.child("hybridGateway").only("hybridGateway", HYBRID);
      List<Node> matched = hybrid.list("matchedGateways");
      if (matched.size() > MAX_MATCHED_GATEWAYS) {
        hybrid.error(hybrid.at("matchedGateways"), TOO_MANY_MATCHED_GATEWAYS, matched.size() + " matched gateways;"
            + " at most " + MAX_MATCHED_GATEWAYS);
        return empty(metadata, spec, bindAddress, port, proxyNames, collectors);
      }
      List<Matcher> matchers = new ArrayList<>();
      for (Node gateway : matched) {
        matchers.add(matcher(gateway.only("matched gateway", MATCHED).child("matcher")));
      }
      boolean split = matched.size() > 1 || (matched.size() == 1 && !matchers.get(0).isEmpty());
      if (split) {
        return split(metadata, spec, hybrid, matched, matchers, routes, config, sniClusters, bindAddress, port,
            proxyNames, collectors);
      }
      if (matched.isEmpty()) {
        hybrid.error(hybrid.at("matchedGateways"), Reasons.MISSING_FIELD, "a hybridGateway needs matchedGateways");
        return empty(metadata, spec, bindAddress, port, proxyNames, collectors);
      }
      http = matched.get(0).child("httpGateway");
      tcp = matched.get(0).child("tcpGateway");
    }
    boolean ssl = spec.bool("ssl").orElse(false);
    if (http.json.isObject() == tcp.json.isObject()) {
      spec.error(spec.path, http.json.isObject() ? Reasons.CONFLICTING_FIELDS : Reasons.MISSING_FIELD,
          "a Gateway has one of httpGateway, tcpGateway, hybridGateway");
      return new Read(metadata, bindAddress, port, ssl, proxyNames, Optional.empty(), Optional.empty(), List.of(),
          Optional.empty(), TrafficOptions.Listener.NONE, collectors);
    }
    if (tcp.json.isObject()) {
      GlooListenerOptions.tcp(spec);
      return new Read(metadata, bindAddress, port, ssl, proxyNames, Optional.empty(), Optional.empty(), List.of(),
          Optional.of(tcpHosts(metadata, tcp, routes, config, sniClusters)), TrafficOptions.Listener.NONE, collectors);
    }
    return http(metadata, spec, http, bindAddress, port, ssl, proxyNames, collectors);
  }

  /** A Read that serves nothing (its object is rejected). */
  private static Read empty(Metadata metadata, Node spec, String bindAddress, int port, List<String> proxyNames,
      OtelCollectors collectors) {
    return new Read(metadata, bindAddress, port, spec.bool("ssl").orElse(false), proxyNames, Optional.empty(),
        Optional.empty(), List.of(), Optional.empty(), TrafficOptions.Listener.NONE, collectors);
  }

  /** An {@code httpGateway}: which VirtualServices it serves, and its listener options. */
  private static Read http(Metadata metadata, Node spec, Node http, String bindAddress, int port, boolean ssl,
      List<String> proxyNames, OtelCollectors collectors) {
    http.only("httpGateway", HTTP);
    TrafficOptions.Listener options = GlooListenerOptions.http(spec, http.child("options"), collectors);
    Optional<List<ObjectRef>> named = Optional.empty();
    if (http.has("virtualServices")) {
      List<ObjectRef> refs = new ArrayList<>();
      for (Node ref : http.list("virtualServices")) {
        ref.only("virtual service reference", REF);
        ref.requiredString("name").ifPresent(name -> refs.add(new ObjectRef(name, ref.string("namespace"))));
      }
      named = Optional.of(refs);
    }
    Optional<Map<String, String>> selector = http.has("virtualServiceSelector")
        ? Optional.of(http.stringMap("virtualServiceSelector")) : Optional.empty();
    if (named.isPresent() && selector.isPresent()) {
      http.error(http.path, Reasons.CONFLICTING_FIELDS, "give either virtualServices or virtualServiceSelector");
    }
    return new Read(metadata, bindAddress, port, ssl, proxyNames, named, selector,
        http.strings("virtualServiceNamespaces"), Optional.empty(), options, collectors);
  }

  /**
   * A hybridGateway split by matchers. Gloo requires each matcher to be unique (an empty one is the catch-all, at
   * most one). Its tcpGateways are one TCP gateway ({@link #splitTcp}); each httpGateway is one HTTP gateway
   * ({@link Read#matched}); all are served on one listener. Holdfast tells a matched httpGateway apart from the
   * others by client network only, so its source ranges must differ from theirs.
   */
  private static Read split(Metadata metadata, Node spec, Node hybrid, List<Node> matched, List<Matcher> matchers,
      GlooRoutes routes, GatewayConfig config, SniClusters sniClusters, String bindAddress, int port,
      List<String> proxyNames, OtelCollectors collectors) {
    Map<Object, Integer> seen = new java.util.HashMap<>();
    for (int i = 0; i < matchers.size(); i++) {
      Integer earlier = seen.putIfAbsent(matchers.get(i).identity(), i);
      if (earlier != null) {
        matched.get(i).error(matched.get(i).at("matcher"), Reasons.CONFLICTING_FIELDS, "matchedGateways[" + earlier
            + "] has the same matcher; Gloo requires each matcher of a hybridGateway to be unique (an empty matcher"
            + " is the catch-all, at most one)");
      }
    }
    for (Node gateway : matched) {
      if (gateway.child("httpGateway").json.isObject() && gateway.child("tcpGateway").json.isObject()) {
        gateway.error(gateway.path, Reasons.CONFLICTING_FIELDS, "a matched gateway has one of httpGateway,"
            + " tcpGateway");
      }
    }
    boolean anyHttp = matched.stream().anyMatch(g -> g.child("httpGateway").json.isObject());
    boolean anyTcp = matched.stream().anyMatch(g -> g.child("tcpGateway").json.isObject());
    Optional<List<TcpGateway.Host>> hosts = anyTcp
        ? Optional.of(splitTcp(metadata, spec, matched, matchers, routes, config, sniClusters)) : Optional.empty();
    if (!anyHttp) {
      return new Read(metadata, bindAddress, port, spec.bool("ssl").orElse(false), proxyNames, Optional.empty(),
          Optional.empty(), List.of(), hosts, TrafficOptions.Listener.NONE, collectors);
    }
    List<Read> parts = new ArrayList<>();
    // Each matched httpGateway's ranges differ from every other matched gateway's (tcpGateways with equal ranges
    // are hosts of one TcpGateway, told apart by SNI).
    Map<Set<String>, Integer> rangeOwners = new java.util.HashMap<>();
    for (int i = 0; i < matched.size(); i++) {
      Node gateway = matched.get(i);
      Matcher matcher = matchers.get(i);
      boolean http = gateway.child("httpGateway").json.isObject();
      Integer sameRanges = rangeOwners.putIfAbsent(Set.copyOf(matcher.ranges()), i);
      if (sameRanges != null && (http || matched.get(sameRanges).child("httpGateway").json.isObject())
          && !matcher.identity().equals(matchers.get(sameRanges).identity())) {
        gateway.error(gateway.at("matcher"), GlooFeatures.UNSUPPORTED, "matchedGateways[" + sameRanges + "] has the"
            + " same sourcePrefixRanges; Holdfast tells a matched httpGateway apart from the other matched gateways"
            + " by client network only, not by sslConfig, so give each its own sourcePrefixRanges");
      }
      if (http) {
        parts.add(http(metadata, spec, gateway.child("httpGateway"), bindAddress, port, false, proxyNames,
            collectors).matchedBy(matcher.ranges(), matcher.ssl()));
      }
    }
    if (anyTcp) {
      return empty(metadata, spec, bindAddress, port, proxyNames, collectors).withMatched(parts).withTcpHosts(hosts);
    }
    return empty(metadata, spec, bindAddress, port, proxyNames, collectors).withMatched(parts);
  }

  /**
   * A matcher: its {@code sourcePrefixRanges} as CIDR text ({@code address/length}; Envoy's missing
   * {@code prefixLen} is 0), checked by the Gateway and TcpGateway rules, and its {@code sslConfig}. An empty
   * matcher matches every connection, as no matcher does. {@code passthroughCipherSuites} (Gloo Enterprise) picks
   * connections by the client's cipher list with a listener filter of Solo's own Envoy build: refused.
   */
  private static Matcher matcher(Node matcher) {
    if (!matcher.json.isObject()) {
      return new Matcher(List.of(), Optional.empty(), "");
    }
    for (String field : matcher.json.propertyNames()) {
      if (field.equals("passthroughCipherSuites")) {
        matcher.error(matcher.at(field), GlooFeatures.UNSUPPORTED, GlooFeatures.why("matcher", field));
      }
    }
    matcher.only("hybridGateway matcher", MATCHER);
    List<String> out = new ArrayList<>();
    for (Node range : matcher.list("sourcePrefixRanges")) {
      range.only("source prefix range", CIDR);
      int length = range.integer("prefixLen").orElse(0);
      range.requiredString("addressPrefix").ifPresent(address -> out.add(address + "/" + length));
    }
    Node ssl = matcher.child("sslConfig");
    String ciphers = matcher.has("passthroughCipherSuites") ? matcher.json.get("passthroughCipherSuites").toString()
        : "";
    return new Matcher(out, ssl.json.isObject() ? Optional.of(ssl) : Optional.empty(), ciphers);
  }

  /**
   * A hybridGateway of tcpGateways: every matched gateway's TCP hosts on one TcpGateway, each host taking its
   * matcher's client networks (one Envoy chain per host). As in Gloo, a matcher's {@code sslConfig} gives its
   * {@code sniDomains} to the hosts that have none, and a host whose own names are not among them is refused
   * ("conflicting sni domains"); Gloo uses nothing else of that sslConfig on TCP chains, so other fields are
   * served as Gloo serves them (ignored) with a warning saying so.
   */
  private static List<TcpGateway.Host> splitTcp(Metadata metadata, Node spec, List<Node> matched,
      List<Matcher> matchers, GlooRoutes routes, GatewayConfig config, SniClusters sniClusters) {
    List<TcpGateway.Host> hosts = new ArrayList<>();
    for (int i = 0; i < matched.size(); i++) {
      Node gateway = matched.get(i);
      if (!gateway.child("tcpGateway").json.isObject()) {
        if (!gateway.child("httpGateway").json.isObject()) {
          gateway.error(gateway.path, Reasons.MISSING_FIELD, "a matched gateway has one of httpGateway, tcpGateway");
        }
        continue;
      }
      Matcher matcher = matchers.get(i);
      List<String> sni = matcher.ssl().map(ssl -> ssl.strings("sniDomains")).orElse(List.of());
      matcher.ssl().ifPresent(ssl -> ssl.json.propertyNames().stream().filter(f -> !f.equals("sniDomains"))
          .forEach(f -> ssl.warn(ssl.at(f), UNUSED_MATCHER_SSL, "Gloo uses only sniDomains of a tcpGateway"
              + " matcher's sslConfig (each tcpHost's own sslConfig terminates TLS); " + f + " has no effect")));
      for (TcpGateway.Host host : tcpHosts(metadata, gateway.child("tcpGateway"), routes, config, sniClusters)) {
        List<String> foreign = host.sniDomains().stream().filter(name -> !sni.contains(name)).toList();
        if (!sni.isEmpty() && !foreign.isEmpty()) {
          gateway.error(gateway.at("matcher") + ".sslConfig.sniDomains", Reasons.CONFLICTING_FIELDS, "gateway has"
              + " conflicting sni domains: tcpHost " + host.name() + " names " + foreign + ", which the matcher's"
              + " sniDomains do not list");
        }
        hosts.add(host.withSourcePrefixRanges(matcher.ranges())
            .withSniDomains(host.sniDomains().isEmpty() ? sni : host.sniDomains()));
      }
    }
    // Holdfast's TCP chains take no listener options, and the socket's are the same for every chain on it.
    GlooListenerOptions.tcp(spec);
    return hosts;
  }

  /**
   * Gloo's {@code tcpHosts}: an {@code sslConfig} with a certificate ({@code secretRef}, {@code sslFiles})
   * terminates TLS, read with the VirtualService's semantics ({@link VirtualServiceReader#ssl}: a {@code ca.crt}
   * requires client certificates unless {@code oneWayTls}); its {@code sniDomains} select the host either way, and
   * without a certificate the host passes TLS through. A {@code forwardSniClusterName} destination becomes one host
   * per reachable Upstream ({@link SniClusters}).
   */
  private static List<TcpGateway.Host> tcpHosts(Metadata metadata, Node tcp, GlooRoutes routes,
      GatewayConfig config, SniClusters sniClusters) {
    tcp.only("tcpGateway", TCP);
    tcp.child("options").only("tcpGateway's options", EMPTY);
    List<TcpGateway.Host> hosts = new ArrayList<>();
    for (Node host : tcp.list("tcpHosts")) {
      host.only("tcpHost", TCP_HOST);
      String name = host.requiredString("name").orElse("");
      List<String> sni = List.of();
      Optional<SslConfig> termination = Optional.empty();
      if (host.has("sslConfig")) {
        Node ssl = host.child("sslConfig");
        sni = ssl.strings("sniDomains");
        if (TERMINATING.stream().anyMatch(ssl::has)) {
          termination = Optional.of(VirtualServiceReader.ssl(metadata, ssl, config).withSniDomains(Optional.empty()));
        } else {
          ssl.only("tcpHost sslConfig without a certificate (TLS passthrough)", TCP_SSL);
        }
      }
      Node destination = host.child("destination").only("tcpHost destination", TCP_DESTINATION);
      if (destination.has("forwardSniClusterName")) {
        if (!sni.isEmpty()) {
          destination.error(destination.at("forwardSniClusterName"), Reasons.CONFLICTING_FIELDS, "a host forwarding"
              + " to the cluster its SNI names takes every SNI; leave sslConfig.sniDomains out");
        }
        sniClusters.expand(ResourceKey.tcpGateway(metadata.namespace(), metadata.name()), name, destination,
            termination).ifPresent(hosts::addAll);
        continue;
      }
      Optional<RouteAction> action = Optional.empty();
      if (destination.has("single")) {
        action = routes.destination(destination.child("single")).map(RouteAction.Forward::new);
      } else if (destination.has("multi") || destination.has("upstreamGroup")) {
        Node wrapper = destination;
        action = routes.routeActionOf(wrapper);
      } else {
        destination.error(destination.path, Reasons.MISSING_FIELD, "a destination has one of single, multi,"
            + " upstreamGroup");
      }
      String hostName = name;
      List<String> sniDomains = sni;
      Optional<SslConfig> sslConfig = termination;
      action.ifPresent(a -> hosts.add(new TcpGateway.Host(hostName, sniDomains, a, sslConfig)));
    }
    return hosts;
  }
}
