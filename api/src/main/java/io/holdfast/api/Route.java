package io.holdfast.api;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One route of a VirtualService or RouteTable. {@code timeout}, {@code retries} and {@code prefixRewrite} apply to
 * forwarding actions ({@link RouteAction.Forward}, {@link RouteAction.Split}) only; so do most {@link RouteOptions}.
 */
public record Route(Optional<String> name, RouteMatch match, RouteAction action, Optional<Duration> timeout,
    Optional<RetryPolicy> retries, Optional<String> prefixRewrite, RouteOptions options) {

  public Route {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(timeout, "timeout");
    Objects.requireNonNull(retries, "retries");
    Objects.requireNonNull(prefixRewrite, "prefixRewrite");
    Objects.requireNonNull(options, "options");
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
    return new Route(Optional.of(newName), match, action, timeout, retries, prefixRewrite, options);
  }

  public Route withTimeout(Duration newTimeout) {
    return new Route(name, match, action, Optional.of(newTimeout), retries, prefixRewrite, options);
  }

  public Route withRetries(RetryPolicy policy) {
    return new Route(name, match, action, timeout, Optional.of(policy), prefixRewrite, options);
  }

  public Route withPrefixRewrite(String rewrite) {
    return new Route(name, match, action, timeout, retries, Optional.of(rewrite), options);
  }

  public Route withOptions(RouteOptions newOptions) {
    return new Route(name, match, action, timeout, retries, prefixRewrite, newOptions);
  }
}
