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
 * when it is one of those in disguise (a single matched gateway without a matcher), or as one TCP gateway whose
 * matched tcpGateways are split by {@code sourcePrefixRanges} matchers.
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
   */
  record Read(Metadata metadata, String bindAddress, int port, boolean ssl, List<String> proxyNames,
      Optional<List<ObjectRef>> named, Optional<Map<String, String>> selector, List<String> namespaces,
      Optional<List<TcpGateway.Host>> tcpHosts, TrafficOptions.Listener options, OtelCollectors collectors) {
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
      // Bounded by Node.MAX_LIST like every list read.
      List<Node> matched = hybrid.list("matchedGateways");
      List<List<String>> ranges = new ArrayList<>();
      for (Node gateway : matched) {
        ranges.add(sourceRanges(gateway.only("matched gateway", MATCHED).child("matcher")));
      }
      boolean split = matched.size() > 1 || (matched.size() == 1 && !ranges.get(0).isEmpty());
      if (split) {
        return splitTcp(metadata, spec, hybrid, matched, ranges, routes, config, sniClusters, bindAddress, port,
            proxyNames, collectors);
      }
      if (matched.isEmpty()) {
        hybrid.error(hybrid.at("matchedGateways"), Reasons.MISSING_FIELD, "a hybridGateway needs matchedGateways");
        return new Read(metadata, bindAddress, port, spec.bool("ssl").orElse(false), proxyNames, Optional.empty(),
            Optional.empty(), List.of(), Optional.empty(), TrafficOptions.Listener.NONE, collectors);
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
   * A matcher's {@code sourcePrefixRanges} as CIDR text ({@code address/length}; Envoy's missing {@code prefixLen}
   * is 0), checked by the TcpGateway rules. An empty matcher matches every connection, as no matcher does;
   * {@code sslConfig} and {@code passthroughCipherSuites} select by TLS handshake, which Holdfast's chains do not
   * (they match on SNI and source range), so they reject the Gateway rather than serve connections the matcher
   * would not take.
   */
  private static List<String> sourceRanges(Node matcher) {
    if (!matcher.json.isObject()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String field : matcher.json.propertyNames()) {
      if (!field.equals("sourcePrefixRanges")) {
        matcher.error(matcher.at(field), GlooFeatures.UNSUPPORTED, "a hybridGateway matcher on " + field
            + " is not supported by Holdfast (its filter chains match on SNI and source range only); the Gateway"
            + " is rejected rather than served to connections the matcher would not take");
      }
    }
    for (Node range : matcher.list("sourcePrefixRanges")) {
      range.only("source prefix range", CIDR);
      int length = range.integer("prefixLen").orElse(0);
      range.requiredString("addressPrefix").ifPresent(address -> out.add(address + "/" + length));
    }
    return out;
  }

  /**
   * A hybridGateway split by source range: every matched gateway's TCP hosts on one TcpGateway, each host taking
   * its matcher's client networks (one Envoy chain per host). Matched {@code httpGateway}s are refused here: a
   * Holdfast Gateway is one HTTP chain set for every client, with no per-client split.
   */
  private static Read splitTcp(Metadata metadata, Node spec, Node hybrid, List<Node> matched,
      List<List<String>> ranges, GlooRoutes routes, GatewayConfig config, SniClusters sniClusters,
      String bindAddress, int port, List<String> proxyNames, OtelCollectors collectors) {
    List<TcpGateway.Host> hosts = new ArrayList<>();
    for (int i = 0; i < matched.size(); i++) {
      Node gateway = matched.get(i);
      if (!gateway.child("tcpGateway").json.isObject()) {
        Node matcher = gateway.child("matcher");
        gateway.error(ranges.get(i).isEmpty() ? gateway.at("httpGateway") : matcher.at("sourcePrefixRanges"),
            GlooFeatures.UNSUPPORTED, "a hybridGateway split by matchers is"
            + " read for tcpGateways only; Holdfast's HTTP gateways serve every client alike");
        continue;
      }
      List<String> sources = ranges.get(i);
      tcpHosts(metadata, gateway.child("tcpGateway"), routes, config, sniClusters)
          .forEach(host -> hosts.add(host.withSourcePrefixRanges(sources)));
    }
    GlooListenerOptions.tcp(spec);
    return new Read(metadata, bindAddress, port, spec.bool("ssl").orElse(false), proxyNames, Optional.empty(),
        Optional.empty(), List.of(), Optional.of(hosts), TrafficOptions.Listener.NONE, collectors);
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
