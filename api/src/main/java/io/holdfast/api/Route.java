package io.holdfast.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One route of a VirtualService or RouteTable. {@code timeout}, {@code retries} and {@code prefixRewrite} apply to
 * forwarding actions ({@link RouteAction.Forward}, {@link RouteAction.Split}) only; so do most {@link RouteOptions}.
 *
 * <p>{@code inheritPath} is Gloo Edge's {@code inheritablePathMatchers}, which Holdfast's own kinds do not write:
 * when this route is delegated to and it is true (its own value, else the delegating route's), the route is served
 * with the delegating route's prefix, its own path set aside; a delegating route hands its value down to the routes
 * it delegates to. Empty: not set, inherited (false under a VirtualService).
 */
public record Route(Optional<String> name, RouteMatch match, RouteAction action, Optional<Duration> timeout,
    Optional<RetryPolicy> retries, Optional<String> prefixRewrite, RouteOptions options,
    Optional<Boolean> inheritPath) {

  public Route {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(retries, "retries");
    Objects.requireNonNull(prefixRewrite, "prefixRewrite");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(inheritPath, "inheritPath");
  }

  /** A route that leaves {@code inheritPath} unset. */
  public Route(Optional<String> name, RouteMatch match, RouteAction action, Optional<Duration> timeout,
      Optional<RetryPolicy> retries, Optional<String> prefixRewrite, RouteOptions options) {
    this(name, match, action, timeout, retries, prefixRewrite, options, Optional.empty());
  }

  /** A route without {@code options}. */
  public Route(Optional<String> name, RouteMatch match, RouteAction action, Optional<Duration> timeout,
      Optional<RetryPolicy> retries, Optional<String> prefixRewrite) {
    this(name, match, action, timeout, retries, prefixRewrite, RouteOptions.NONE);
  }

  /** A route with no name, timeout, retries or rewrite. */
  public static Route of(RouteMatch match, RouteAction action) {
    return new Route(Optional.empty(), match, action, Optional.empty(), Optional.empty(), Optional.empty());
  }

  public Route withName(String newName) {
    return new Route(Optional.of(newName), match, action, timeout, retries, prefixRewrite, options, inheritPath);
  }

  public Route withTimeout(Duration newTimeout) {
    return new Route(name, match, action, Optional.of(newTimeout), retries, prefixRewrite, options,
        inheritPath);
  }

  public Route withRetries(RetryPolicy policy) {
    return new Route(name, match, action, timeout, Optional.of(policy), prefixRewrite, options, inheritPath);
  }

  public Route withPrefixRewrite(String rewrite) {
    return new Route(name, match, action, timeout, retries, Optional.of(rewrite), options, inheritPath);
  }

  public Route withOptions(RouteOptions newOptions) {
    return new Route(name, match, action, timeout, retries, prefixRewrite, newOptions, inheritPath);
  }

  public Route withInheritPath(Optional<Boolean> value) {
    return new Route(name, match, action, timeout, retries, prefixRewrite, options, value);
  }

  /** This route with {@code newAction}, every other component kept. */
  public Route withAction(RouteAction newAction) {
    return new Route(name, match, newAction, timeout, retries, prefixRewrite, options, inheritPath);
  }
}
