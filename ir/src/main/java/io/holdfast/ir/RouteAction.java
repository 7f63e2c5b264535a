package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.RoutePolicies.Fault;
import io.holdfast.ir.RoutePolicies.HashPolicy;
import io.holdfast.ir.RoutePolicies.HostRewrite;
import io.holdfast.ir.RoutePolicies.Mirror;
import io.holdfast.ir.RoutePolicies.RegexRewrite;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a matched route does. Clusters are named by their identity, the key of the object they came from. */
public sealed interface RouteAction {

  /** Forwards to clusters, with the policies that apply to forwarding. */
  sealed interface Forwarding extends RouteAction {
    ForwardPolicy policy();

    /** Every cluster this action sends traffic to, in order. */
    List<ResourceKey> clusters();
  }

  /** Everything to one cluster. */
  record Forward(ResourceKey cluster, ForwardPolicy policy) implements Forwarding {
    public Forward {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(policy, "policy");
    }

    @Override
    public List<ResourceKey> clusters() {
      return List.of(cluster);
    }
  }

  /** Traffic split by relative weights (a single entry is still a split, and sent as one). */
  record Split(List<WeightedCluster> targets, ForwardPolicy policy) implements Forwarding {
    public Split {
      targets = List.copyOf(targets);
      Objects.requireNonNull(policy, "policy");
      if (targets.stream().mapToLong(WeightedCluster::weight).sum() == 0) {
        throw new IllegalArgumentException("a split needs a positive total weight: " + targets);
      }
    }

    @Override
    public List<ResourceKey> clusters() {
      return targets.stream().map(WeightedCluster::cluster).toList();
    }
  }

  record WeightedCluster(ResourceKey cluster, int weight) {
    public WeightedCluster {
      Objects.requireNonNull(cluster, "cluster");
      if (weight < 0) {
        throw new IllegalArgumentException(cluster + ": weight " + weight + " is negative");
      }
    }
  }

  /**
   * Policies of a forwarding route.
   *
   * @param prefixRewrite     replaces the matched path prefix before forwarding (not with {@code regexRewrite})
   * @param idleTimeout       how long the stream may stay without activity
   * @param maxStreamDuration how long the stream may last at all (gRPC clients apply it as a deadline)
   * @param hashPolicies      inputs of the consistent hash of RING_HASH clusters, in order
   */
  record ForwardPolicy(Optional<Duration> timeout, Optional<Retries> retries, Optional<String> prefixRewrite,
      Optional<RegexRewrite> regexRewrite, Optional<HostRewrite> hostRewrite, Optional<Duration> idleTimeout,
      Optional<Duration> maxStreamDuration, Optional<Fault> fault, List<HashPolicy> hashPolicies,
      Optional<Mirror> mirror) {
    public static final ForwardPolicy NONE = new ForwardPolicy(Optional.empty(), Optional.empty(), Optional.empty());

    public ForwardPolicy {
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(retries, "retries");
      Objects.requireNonNull(prefixRewrite, "prefixRewrite");
      Objects.requireNonNull(regexRewrite, "regexRewrite");
      Objects.requireNonNull(hostRewrite, "hostRewrite");
      Objects.requireNonNull(idleTimeout, "idleTimeout");
      Objects.requireNonNull(maxStreamDuration, "maxStreamDuration");
      Objects.requireNonNull(fault, "fault");
      hashPolicies = List.copyOf(hashPolicies);
      Objects.requireNonNull(mirror, "mirror");
      if (prefixRewrite.isPresent() && regexRewrite.isPresent()) {
        throw new IllegalArgumentException("a route rewrites its path by prefix or by regex, not both");
      }
    }

    /** Timeout, retries and prefix rewrite only. */
    public ForwardPolicy(Optional<Duration> timeout, Optional<Retries> retries, Optional<String> prefixRewrite) {
      this(timeout, retries, prefixRewrite, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
          Optional.empty(), List.of(), Optional.empty());
    }
  }

  /**
   * @param attempts retries after the first try
   * @param retryOn  proxy retry conditions ({@code 5xx}, {@code reset}, ...) and gRPC ones ({@code unavailable}, ...)
   * @param retriableStatusCodes statuses retried under {@code retriable-status-codes}
   * @param rateLimitedBackoff   the wait the upstream's answer asks for, instead of {@code backoff}
   */
  record Retries(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn, Optional<Backoff> backoff,
      List<Integer> retriableStatusCodes, Optional<RateLimitedBackoff> rateLimitedBackoff) {
    public Retries {
      Objects.requireNonNull(perTryTimeout, "perTryTimeout");
      retryOn = List.copyOf(retryOn);
      Objects.requireNonNull(backoff, "backoff");
      retriableStatusCodes = List.copyOf(retriableStatusCodes);
      Objects.requireNonNull(rateLimitedBackoff, "rateLimitedBackoff");
    }

    /** Retries with the proxy's default backoff. */
    public Retries(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn) {
      this(attempts, perTryTimeout, retryOn, Optional.empty());
    }

    /** Retries without status codes or a rate-limited backoff. */
    public Retries(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn, Optional<Backoff> backoff) {
      this(attempts, perTryTimeout, retryOn, backoff, List.of(), Optional.empty());
    }
  }

  /**
   * The wait an upstream's answer asks for: the first of {@code resetHeaders} present, capped at
   * {@code maxInterval} (proxy default 300 s). At least one header.
   */
  record RateLimitedBackoff(List<ResetHeader> resetHeaders, Optional<Duration> maxInterval) {
    public RateLimitedBackoff {
      resetHeaders = List.copyOf(resetHeaders);
      Objects.requireNonNull(maxInterval, "maxInterval");
      if (resetHeaders.isEmpty()) {
        throw new IllegalArgumentException("a rate-limited backoff needs at least one reset header");
      }
    }
  }

  /** @param unixTimestamp the header holds the Unix time to wait until, not a number of seconds */
  record ResetHeader(String name, boolean unixTimestamp) {
    public ResetHeader {
      Objects.requireNonNull(name, "name");
    }
  }

  /** Exponential backoff between tries: from {@code baseInterval}, capped at {@code maxInterval}. */
  record Backoff(Duration baseInterval, Optional<Duration> maxInterval) {
    public Backoff {
      Objects.requireNonNull(maxInterval, "maxInterval");
      if (baseInterval.isZero() || baseInterval.isNegative()) {
        throw new IllegalArgumentException("backoff base interval must be greater than 0, got " + baseInterval);
      }
      maxInterval.filter(max -> max.compareTo(baseInterval) < 0).ifPresent(max -> {
        throw new IllegalArgumentException("backoff max interval " + max + " is below the base " + baseInterval);
      });
    }
  }

  /**
   * Answers with a redirect; {@code path} replaces the whole path, {@code prefixRewrite} the matched prefix.
   * {@code scheme} ({@code http} or {@code https}) and {@code port} replace the request's; {@code httpsRedirect} is
   * the same as scheme {@code https}, and the two are not set together.
   */
  record Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite, int responseCode,
      boolean httpsRedirect, Optional<String> scheme, Optional<Integer> port, boolean stripQuery)
      implements RouteAction {
    public Redirect {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(prefixRewrite, "prefixRewrite");
      Objects.requireNonNull(scheme, "scheme");
      Objects.requireNonNull(port, "port");
      if (!List.of(301, 302, 303, 307, 308).contains(responseCode)) {
        throw new IllegalArgumentException("redirect code " + responseCode + " is not one of 301, 302, 303, 307, 308");
      }
      if (httpsRedirect && scheme.isPresent()) {
        throw new IllegalArgumentException("a redirect sets httpsRedirect or a scheme, not both");
      }
      scheme.filter(s -> !s.equals("http") && !s.equals("https")).ifPresent(s -> {
        throw new IllegalArgumentException("redirect scheme " + s + " is not http or https");
      });
      port.filter(p -> p < 1 || p > 65535).ifPresent(p -> {
        throw new IllegalArgumentException("redirect port " + p + " is out of range 1-65535");
      });
    }

    /** A redirect keeping the query string. */
    public Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite, int responseCode,
        boolean httpsRedirect, Optional<String> scheme, Optional<Integer> port) {
      this(host, path, prefixRewrite, responseCode, httpsRedirect, scheme, port, false);
    }

    /** A redirect that keeps the request's port, query and (unless {@code httpsRedirect}) its scheme. */
    public Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite, int responseCode,
        boolean httpsRedirect) {
      this(host, path, prefixRewrite, responseCode, httpsRedirect, Optional.empty(), Optional.empty());
    }
  }

  /** Answers without contacting any cluster. */
  record DirectResponse(int status, Optional<String> body) implements RouteAction {
    public DirectResponse {
      Objects.requireNonNull(body, "body");
    }
  }
}
