package io.holdfast.frontend.holdfast;

import io.holdfast.api.HeaderMatch;
import io.holdfast.api.LoadBalancing;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteTable;
import io.holdfast.api.RouteOptions;
import io.holdfast.api.Upstream;
import io.holdfast.api.VirtualHostOptions;
import io.holdfast.api.UpstreamOptions;
import io.holdfast.api.VirtualService;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What proxyless gRPC clients get differently from Envoy, as warnings (Envoy is served as written). Only
 * VirtualServices with a gRPC domain ({@link VirtualService#grpcDomains}) reach gRPC clients, and only the
 * upstreams their routes name; the rest never get these warnings. Behaviour per gRPC xDS client as of grpc-java
 * 1.85: pseudo-headers are treated as absent; a redirect or direct response can only be sent as
 * {@code non_forwarding_action} (gRFC A36); the lb policies are ROUND_ROBIN, RING_HASH and LEAST_REQUEST (gRFC
 * A48, not in every client), never RANDOM; clusters are EDS or LOGICAL_DNS (one name, resolved by the client),
 * never STRICT_DNS; of the upstream options they run outlier detection by success rate and failure percentage
 * only (gRFC A50) and take only {@code max_requests} from the circuit breakers (gRFC A32), which grpc-java 1.85
 * enforces only on clusters that report load; they run no active health checks from xDS.
 */
final class GrpcRules {

  private GrpcRules() {
  }

  /**
   * @param tables the served RouteTables a VirtualService with a gRPC domain reaches, with that domain: their
   *               routes reach the same gRPC clients (checked as written, without the parent's conditions)
   */
  static void check(List<VirtualService> served, Map<RouteTable, String> tables, List<Upstream> upstreams,
      Ledger ledger) {
    Map<ResourceKey, String> reached = new TreeMap<>();
    // A domain whose gRPC clients an older VirtualService keeps does not reach them through this one.
    java.util.Set<DomainConflicts.GrpcTarget> leftToOlder = DomainConflicts.leftToOlder(served);
    for (VirtualService vs : served) {
      List<String> domains = vs.grpcDomains().stream()
          .filter(domain -> !leftToOlder.contains(new DomainConflicts.GrpcTarget(vs.key(), domain))).toList();
      if (!domains.isEmpty()) {
        checkDefaults(vs.options(), domains.get(0), ledger.sink(vs.key()));
        checkRoutes(vs.key(), vs.metadata().namespace(), vs.routes(), domains.get(0), ledger, reached);
      }
    }
    tables.forEach((table, domain) ->
        checkRoutes(table.key(), table.metadata().namespace(), table.routes(), domain, ledger, reached));
    for (Upstream upstream : upstreams) {
      String domain = reached.get(upstream.key());
      if (domain != null) {
        checkLoadBalancing(upstream.loadBalancing(), domain, ledger.sink(upstream.key()));
        checkOptions(upstream, domain, ledger.sink(upstream.key()));
      }
    }
  }

  private static void checkRoutes(ResourceKey owner, String namespace, List<Route> routes, String domain,
      Ledger ledger, Map<ResourceKey, String> reached) {
    Ledger.Sink sink = ledger.sink(owner);
    for (int i = 0; i < routes.size(); i++) {
      Route route = routes.get(i);
      if (route.action() instanceof RouteAction.Delegate) {
        // Its tables are checked on their own; its options are handed down to their routes (OptionInheritance).
        checkOptions(route, "spec.routes[" + i + "]", domain, sink);
        continue;
      }
      checkRoute(route, "spec.routes[" + i + "]", domain, sink);
      checkOptions(route, "spec.routes[" + i + "]", domain, sink);
      for (ObjectRef ref : route.action().upstreams()) {
        reached.putIfAbsent(ref.resolve(ResourceKey.UPSTREAM, namespace), domain);
      }
    }
  }

  private static void checkRoute(Route route, String field, String domain, Ledger.Sink sink) {
    if (!route.match().admitsGrpcCalls()) {
      sink.warn(field + ".match.methods", Reasons.GRPC_UNMATCHABLE_ROUTE, "gRPC calls are always POST, so gRPC"
          + " clients of " + domain + " never match this route; it is left out of their route table");
    }
    List<HeaderMatch> headers = route.match().headers();
    for (int j = 0; j < headers.size(); j++) {
      String name = headers.get(j).name();
      if (name.startsWith(":")) {
        sink.warn(field + ".match.headers[" + j + "].name", Reasons.GRPC_UNMATCHABLE_ROUTE, "gRPC clients of "
            + domain + " treat the pseudo-header " + name + " as absent: for their calls this matcher is"
            + " evaluated as if the header were missing");
      }
    }
    String kind = route.action() instanceof RouteAction.Redirect ? "redirect"
        : route.action() instanceof RouteAction.DirectResponse ? "directResponse" : null;
    if (kind != null) {
      sink.warn(field + "." + kind, Reasons.GRPC_NON_FORWARDING_ROUTE, "gRPC clients of " + domain
          + " get this route as non_forwarding_action: matching calls fail with UNAVAILABLE (gRFC A36), and at"
          + " least one widely used gRPC client crashes on it; HTTP-only routes belong in a VirtualService whose"
          + " domains are all wildcards, which gRPC clients never get");
    }
  }

  /**
   * Route options gRPC clients do not implement (grpc-java 1.85: it honours retries with backoff, faults,
   * max_stream_duration and header hash policies). CORS is the one that is also left out of their config: it is
   * a filter they do not have, and they reject a route carrying its config.
   */
  private static void checkOptions(Route route, String field, String domain, Ledger.Sink sink) {
    if (!route.match().queryParameters().isEmpty()) {
      sink.warn(field + ".match.queryParameters", Reasons.GRPC_UNMATCHABLE_ROUTE, "gRPC calls carry no query"
          + " string, so gRPC clients of " + domain + " never match this route; it is left out of their route table");
    }
    route.retries().ifPresent(retries -> retryExtras(retries, field + ".retries", domain, sink));
    RouteOptions options = route.options();
    String at = field + ".options";
    ignored(options.headerManipulation().isPresent(), at + ".headerManipulation", domain,
        "do not add or remove headers", sink);
    ignored(options.hostRewrite().isPresent(), at + ".hostRewrite", domain, "do not rewrite the authority", sink);
    ignored(options.appendXForwardedHost(), at + ".appendXForwardedHost", domain, "send no x-forwarded-host", sink);
    ignored(options.autoHostRewrite(), at + ".autoHostRewrite", domain,
        "rewrite the authority only when their bootstrap trusts this control plane (gRFC A81)", sink);
    ignored(options.regexRewrite().isPresent(), at + ".regexRewrite", domain, "do not rewrite paths", sink);
    ignored(options.idleTimeout().isPresent(), at + ".idleTimeout", domain,
        "have no idle timeout (maxStreamDuration bounds a call)", sink);
    ignored(options.mirror().isPresent(), at + ".mirror", domain, "do not mirror calls", sink);
    for (int i = 0; i < options.hashPolicies().size(); i++) {
      RouteOptions.HashPolicy policy = options.hashPolicies().get(i);
      ignored(!(policy instanceof RouteOptions.HeaderHash), at + ".hashPolicies[" + i + "]", domain,
          "hash only on headers (gRFC A42), so calls not hashed by another policy get a random hash", sink);
    }
    options.cors().ifPresent(cors -> sink.warn(at + ".cors", Reasons.GRPC_IGNORED_OPTION, "gRPC clients of "
        + domain + " have no CORS filter and would reject the route with it: it is left out of their config"));
    TrafficRules.warnGrpc(options.traffic(), at, domain, sink);
  }

  /** grpc-java retries on gRPC status codes with its own backoff: HTTP statuses and reset headers mean nothing. */
  private static void retryExtras(io.holdfast.api.RetryPolicy retries, String field, String domain,
      Ledger.Sink sink) {
    ignored(!retries.retriableStatusCodes().isEmpty(), field + ".retriableStatusCodes", domain,
        "retry on gRPC status codes only", sink);
    ignored(retries.rateLimitedBackoff().isPresent(), field + ".rateLimitedBackoff", domain,
        "do not read reset headers", sink);
  }

  private static void checkDefaults(VirtualHostOptions options, String domain, Ledger.Sink sink) {
    options.retries().ifPresent(retries -> retryExtras(retries, "spec.options.retries", domain, sink));
    ignored(options.headerManipulation().isPresent(), "spec.options.headerManipulation", domain,
        "do not add or remove headers", sink);
    options.cors().ifPresent(cors -> sink.warn("spec.options.cors", Reasons.GRPC_IGNORED_OPTION, "gRPC clients of "
        + domain + " have no CORS filter and would reject routes with it: it is left out of their config"));
    TrafficRules.warnGrpc(options.traffic(), "spec.options", domain, sink);
  }

  private static void ignored(boolean given, String field, String domain, String why, Ledger.Sink sink) {
    if (given) {
      sink.warn(field, Reasons.GRPC_IGNORED_OPTION, "gRPC clients of " + domain + " " + why
          + ": ignored for their calls");
    }
  }

  private static void checkOptions(Upstream upstream, String domain, Ledger.Sink sink) {
    UpstreamOptions options = upstream.options();
    boolean logical = options.dns().flatMap(UpstreamOptions.Dns::resolution)
        .orElse(UpstreamOptions.DnsResolution.STRICT) == UpstreamOptions.DnsResolution.LOGICAL;
    if (UpstreamRules.resolvesNames(upstream) && !logical) {
      sink.warn("spec.static.hosts", Reasons.GRPC_INCOMPATIBLE, "gRPC clients (reached through " + domain
          + ") accept EDS and LOGICAL_DNS clusters only and reject this STRICT_DNS one, so their calls to it fail;"
          + " for gRPC clients use IP addresses, or one host name with spec.dns.resolution: LOGICAL");
    }
    options.circuitBreakers().ifPresent(cb -> {
      if (cb.maxRequests().isPresent()) {
        sink.warn("spec.circuitBreakers.maxRequests", Reasons.GRPC_IGNORED_OPTION, "grpc-java clients (1.85,"
            + " reached through " + domain + ") count requests in flight only on clusters that report load (LRS),"
            + " which Holdfast does not configure, so they do not enforce maxRequests; gRPC clients that count"
            + " every call (gRFC A32) fail the call past the limit with UNAVAILABLE");
      }
      for (var limit : List.of(Map.entry("maxConnections", cb.maxConnections()),
          Map.entry("maxPendingRequests", cb.maxPendingRequests()), Map.entry("maxRetries", cb.maxRetries()))) {
        if (limit.getValue().isPresent()) {
          sink.warn("spec.circuitBreakers." + limit.getKey(), Reasons.GRPC_IGNORED_OPTION, "gRPC clients (reached"
              + " through " + domain + ") take only maxRequests from the circuit breakers (gRFC A32) and ignore "
              + limit.getKey());
        }
      }
    });
    options.outlierDetection().ifPresent(od -> {
      for (var detector : List.of(Map.entry("consecutive5xx", od.consecutive5xx()),
          Map.entry("consecutiveGatewayErrors", od.consecutiveGatewayErrors()))) {
        if (detector.getValue().isPresent()) {
          sink.warn("spec.outlierDetection." + detector.getKey(), Reasons.GRPC_IGNORED_OPTION, "gRPC clients"
              + " (reached through " + domain + ") eject only by successRate and failurePercentage (gRFC A50)"
              + " and ignore " + detector.getKey());
        }
      }
    });
    if (options.tls().isPresent()) {
      sink.warn("spec.tls", Reasons.GRPC_INCOMPATIBLE, "gRPC clients (reached through " + domain + ") reject upstream"
          + " TLS whose trust is not a certificate provider from their bootstrap: grpc-java takes the system CAs"
          + " only with GRPC_EXPERIMENTAL_XDS_SYSTEM_ROOT_CERTS=true and never accepts verify: NONE, so their calls"
          + " to this cluster fail; route gRPC clients to an upstream without spec.tls");
    }
    if (!options.healthChecks().isEmpty()) {
      sink.warn("spec.healthChecks", Reasons.GRPC_IGNORED_OPTION, "gRPC clients (reached through " + domain
          + ") run no health checks from xDS and keep sending to endpoints these checks fail; outlier detection"
          + " by successRate or failurePercentage is what they honour");
    }
  }

  private static void checkLoadBalancing(LoadBalancing policy, String domain, Ledger.Sink sink) {
    if (policy == LoadBalancing.RANDOM) {
      sink.warn("spec.loadBalancing", Reasons.GRPC_INCOMPATIBLE, "gRPC clients (reached through " + domain
          + ") have no RANDOM policy and reject this cluster, so their calls to it fail; use ROUND_ROBIN or"
          + " RING_HASH, which every gRPC client supports");
    } else if (policy == LoadBalancing.LEAST_REQUEST) {
      sink.warn("spec.loadBalancing", Reasons.GRPC_LOAD_BALANCING_FALLBACK, "gRPC clients (reached through "
          + domain + ") without least-request support (gRFC A48) use ROUND_ROBIN for this cluster instead, and"
          + " those that read only the legacy lb_policy field and lack LEAST_REQUEST reject it; ROUND_ROBIN and"
          + " RING_HASH work on every gRPC client");
    }
  }
}
