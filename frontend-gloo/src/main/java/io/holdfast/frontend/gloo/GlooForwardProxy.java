package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Gloo's dynamic forward proxy ({@code httpGateway.options.dynamicForwardProxy} and a route's
 * {@code routeAction.dynamicForwardProxy}, Gloo's dynamic_forward_proxy plugin): read and checked field by field
 * as Gloo's protos define them, then refused with {@link #NOT_PERMITTED}.
 *
 * <p>Why refused: Envoy's dynamic forward proxy connects to whatever the request's Host (or a header Gloo names)
 * resolves to. Holdfast's tenancy rules forbid upstreams in denied networks (cloud metadata at 169.254.169.254,
 * loopback, and the operator's {@code --upstream-deny-cidr}); for static Upstreams the front ends check the
 * address, for Kubernetes endpoints they drop the denied ones. A resolved DNS answer is known only to Envoy, whose
 * DFP cluster has no CIDR check, so a client could reach the metadata service or the proxy's own admin port through
 * any such route. Holdfast has no operator opt-in for that yet, so the Gateway or VirtualService carrying it is
 * rejected, never served without the protection (docs/GLOO.md, "Rejected, and why").
 */
final class GlooForwardProxy {

  /** Reason of the refusal: a policy decision about a field Holdfast reads, not a field it cannot read. */
  static final String NOT_PERMITTED = "ForwardProxyNotPermitted";

  private static final Set<String> ROUTE = Set.of("hostRewrite", "autoHostRewriteHeader");
  private static final Set<String> FILTER = Set.of("dnsCacheConfig", "saveUpstreamAddress");
  /** Gloo's DnsCacheConfig; its c-ares / Apple resolvers and preresolved hosts are not read (rejected by name). */
  private static final Set<String> DNS_CACHE = Set.of("dnsLookupFamily", "dnsRefreshRate", "hostTtl", "maxHosts",
      "dnsFailureRefreshRate", "dnsCacheCircuitBreaker", "dnsQueryTimeout");
  private static final Set<String> REFRESH_RATE = Set.of("baseInterval", "maxInterval");
  private static final Set<String> DNS_BREAKER = Set.of("maxPendingRequests");
  /** Gloo's DnsLookupFamily enum, by name and by number (V4_PREFERRED is its default, 0). */
  private static final Set<String> LOOKUP_FAMILIES = Set.of("V4_PREFERRED", "V4_ONLY", "V6_ONLY", "AUTO", "ALL",
      "0", "1", "2", "3", "4");
  /** An HTTP header name (RFC 9110 token); Envoy refuses others in the per-route config. */
  private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}");
  private static final Duration MILLISECOND = Duration.ofMillis(1);

  private static final String WHY = " lets any client send requests to any host name the proxy resolves, and"
      + " Envoy cannot check the resolved addresses against Holdfast's denied upstream networks (cloud metadata"
      + " 169.254.169.254, loopback, --upstream-deny-cidr); Holdfast has no opt-in to serve a dynamic forward"
      + " proxy, so the object is rejected rather than served without that protection";

  private GlooForwardProxy() {
  }

  /** A route's {@code routeAction.dynamicForwardProxy} (Gloo's PerRouteConfig): checked, then refused. */
  static void route(Node dfp) {
    dfp.only("routeAction.dynamicForwardProxy", ROUTE);
    Optional<String> literal = dfp.string("hostRewrite");
    Optional<String> header = dfp.string("autoHostRewriteHeader");
    if (literal.isPresent() && header.isPresent()) {
      dfp.error(dfp.path, Reasons.CONFLICTING_FIELDS, "hostRewrite and autoHostRewriteHeader are one of");
    } else if (literal.isEmpty() && header.isEmpty()) {
      // Gloo's plugin fails the route without either ("unimplemented dynamic forward proxy route config type").
      dfp.error(dfp.path, Reasons.MISSING_FIELD, "a dynamicForwardProxy route action needs hostRewrite or"
          + " autoHostRewriteHeader (Gloo refuses it without one)");
    }
    header.filter(h -> !HEADER_NAME.matcher(h).matches()).ifPresent(h -> dfp.error(dfp.at("autoHostRewriteHeader"),
        Reasons.INVALID_VALUE, "\"" + h + "\" is not an HTTP header name"));
    literal.filter(String::isBlank).ifPresent(h -> dfp.error(dfp.at("hostRewrite"), Reasons.INVALID_VALUE,
        "hostRewrite is empty"));
    dfp.error(dfp.path, NOT_PERMITTED, "a dynamic forward proxy route" + WHY);
  }

  /** A Gateway's {@code httpGateway.options.dynamicForwardProxy} (Gloo's FilterConfig): checked, then refused. */
  static void listener(Node dfp) {
    dfp.only("httpGateway.options.dynamicForwardProxy", FILTER);
    dfp.bool("saveUpstreamAddress");
    Node cache = dfp.child("dnsCacheConfig").only("dnsCacheConfig", DNS_CACHE);
    cache.string("dnsLookupFamily").filter(f -> !LOOKUP_FAMILIES.contains(f)).ifPresent(f -> cache.error(
        cache.at("dnsLookupFamily"), Reasons.INVALID_VALUE, "unknown dnsLookupFamily \"" + f + "\" (V4_PREFERRED,"
            + " V4_ONLY, V6_ONLY, AUTO, ALL)"));
    atLeast(cache, "dnsRefreshRate", MILLISECOND);
    positive(cache, "hostTtl");
    positive(cache, "dnsQueryTimeout");
    cache.integer("maxHosts").filter(n -> n <= 0).ifPresent(n -> cache.error(cache.at("maxHosts"),
        Reasons.INVALID_VALUE, "maxHosts must be above 0 (Gloo's validation rule), got " + n));
    if (cache.has("dnsFailureRefreshRate")) {
      Node rate = cache.child("dnsFailureRefreshRate").only("dnsFailureRefreshRate", REFRESH_RATE);
      if (!rate.has("baseInterval")) {
        rate.error(rate.at("baseInterval"), Reasons.MISSING_FIELD, "baseInterval is required");
      }
      atLeast(rate, "baseInterval", MILLISECOND);
      atLeast(rate, "maxInterval", MILLISECOND);
    }
    Node breaker = cache.child("dnsCacheCircuitBreaker").only("dnsCacheCircuitBreaker", DNS_BREAKER);
    breaker.integer("maxPendingRequests").filter(n -> n < 0).ifPresent(n -> breaker.error(
        breaker.at("maxPendingRequests"), Reasons.INVALID_VALUE, "maxPendingRequests is negative"));
    dfp.error(dfp.path, NOT_PERMITTED, "the dynamic forward proxy filter" + WHY);
  }

  private static void atLeast(Node node, String field, Duration min) {
    node.duration(field).filter(d -> d.compareTo(min) < 0).ifPresent(d -> node.error(node.at(field),
        Reasons.INVALID_DURATION, field + " must be at least " + min.toMillis() + "ms"));
  }

  private static void positive(Node node, String field) {
    node.duration(field).filter(d -> d.isZero()).ifPresent(d -> node.error(node.at(field),
        Reasons.INVALID_DURATION, field + " must be above 0"));
  }
}
