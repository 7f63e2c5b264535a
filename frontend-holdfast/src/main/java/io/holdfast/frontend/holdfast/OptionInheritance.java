package io.holdfast.frontend.holdfast;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.Route;
import io.holdfast.api.RouteOptions;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TrafficOptions;
import java.util.Optional;

/**
 * The options a delegating route hands down to the routes it delegates to (Gloo Edge's delegation: the parent
 * route's options are merged into each child route, the child's own wins). Merged group by group: a group the
 * delegated route sets is its own, any other is the delegating route's. A chain merges at every level, so a
 * grandparent's option reaches a grandchild unless the parent or the grandchild sets that group. Pure; each merge
 * costs the same whatever the depth, so flattening stays linear in the routes it serves.
 *
 * <p>The groups, as Gloo's top-level {@code RouteOptions} fields: {@code timeout}; {@code retries}; the path rewrite
 * ({@code prefixRewrite} or {@code options.regexRewrite}: a route rewrites its path one way); the Host rewrite
 * ({@code hostRewrite} or {@code autoHostRewrite}, Gloo's one-of); {@code appendXForwardedHost};
 * {@code headerManipulation}; {@code cors}; {@code idleTimeout}; {@code maxStreamDuration}; {@code faults};
 * {@code hashPolicies}; {@code mirror}; in {@code security}: the JWT checks ({@code jwt} with
 * {@code jwtAfterAuthz}, Gloo's {@code jwtStaged}), {@code rbac}, {@code extAuthz}, {@code basicAuth},
 * {@code oauth2}; in {@code traffic}: each field. A {@code false} flag counts as not set.
 */
final class OptionInheritance {

  private OptionInheritance() {
  }

  /**
   * {@code delegating} with the references of its options that name no namespace resolved in {@code namespace}
   * (its own), so a child in another namespace still means the parent's upstream.
   */
  static Route qualified(Route delegating, String namespace) {
    Optional<RouteOptions.Mirror> mirror = delegating.options().mirror();
    if (mirror.isEmpty() || mirror.get().upstream().namespace().isPresent()) {
      return delegating;
    }
    RouteOptions.Mirror own = new RouteOptions.Mirror(new ObjectRef(mirror.get().upstream().name(),
        Optional.of(namespace)), mirror.get().percentage());
    return delegating.withOptions(delegating.options().withMirror(Optional.of(own)));
  }

  /** {@code child} with every option group it does not set taken from {@code parent}. */
  static Route inherit(Route parent, Route child) {
    RouteOptions mine = child.options();
    RouteOptions theirs = parent.options();
    boolean ownRewrite = child.prefixRewrite().isPresent() || mine.regexRewrite().isPresent();
    boolean ownHost = mine.hostRewrite().isPresent() || mine.autoHostRewrite();
    RouteOptions options = new RouteOptions(
        mine.headerManipulation().or(theirs::headerManipulation),
        ownHost ? mine.hostRewrite() : theirs.hostRewrite(),
        ownHost ? mine.autoHostRewrite() : theirs.autoHostRewrite(),
        ownRewrite ? mine.regexRewrite() : theirs.regexRewrite(),
        mine.cors().or(theirs::cors),
        mine.idleTimeout().or(theirs::idleTimeout),
        mine.maxStreamDuration().or(theirs::maxStreamDuration),
        mine.faults().or(theirs::faults),
        mine.hashPolicies().isEmpty() ? theirs.hashPolicies() : mine.hashPolicies(),
        mine.mirror().or(theirs::mirror),
        security(theirs.security(), mine.security()),
        traffic(theirs.traffic(), mine.traffic()),
        mine.appendXForwardedHost() || theirs.appendXForwardedHost());
    Route out = child.withOptions(options);
    if (child.timeout().isEmpty() && parent.timeout().isPresent()) {
      out = out.withTimeout(parent.timeout().get());
    }
    if (child.retries().isEmpty() && parent.retries().isPresent()) {
      out = out.withRetries(parent.retries().get());
    }
    if (!ownRewrite && parent.prefixRewrite().isPresent()) {
      out = out.withPrefixRewrite(parent.prefixRewrite().get());
    }
    return out;
  }

  private static SecurityOptions security(SecurityOptions theirs, SecurityOptions mine) {
    boolean ownJwt = mine.jwt().isPresent() || mine.jwtAfterAuthz().isPresent();
    return new SecurityOptions(mine.jwtProviders(), ownJwt ? mine.jwt() : theirs.jwt(), mine.rbac().or(theirs::rbac),
        mine.extAuthz().or(theirs::extAuthz), mine.basicAuth().or(theirs::basicAuth),
        mine.oauth2().or(theirs::oauth2), ownJwt ? mine.jwtAfterAuthz() : theirs.jwtAfterAuthz());
  }

  private static TrafficOptions.Route traffic(TrafficOptions.Route theirs, TrafficOptions.Route mine) {
    return new TrafficOptions.Route(mine.localRateLimit().or(theirs::localRateLimit),
        mine.rateLimits().or(theirs::rateLimits), mine.compression().or(theirs::compression),
        mine.csrf().or(theirs::csrf), mine.maxRequestBodyBytes().or(theirs::maxRequestBodyBytes),
        mine.extProc().or(theirs::extProc));
  }
}
