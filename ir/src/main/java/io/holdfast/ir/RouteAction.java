package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
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
   * @param prefixRewrite replaces the matched path prefix before forwarding
   */
  record ForwardPolicy(Optional<Duration> timeout, Optional<Retries> retries, Optional<String> prefixRewrite) {
    public static final ForwardPolicy NONE = new ForwardPolicy(Optional.empty(), Optional.empty(), Optional.empty());

    public ForwardPolicy {
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(retries, "retries");
      Objects.requireNonNull(prefixRewrite, "prefixRewrite");
    }
  }

  /**
   * @param attempts retries after the first try
   * @param retryOn  proxy retry conditions ({@code 5xx}, {@code reset}, ...) and gRPC ones ({@code unavailable}, ...)
   */
  record Retries(int attempts, Optional<Duration> perTryTimeout, List<String> retryOn) {
    public Retries {
      Objects.requireNonNull(perTryTimeout, "perTryTimeout");
      retryOn = List.copyOf(retryOn);
    }
  }

  /** Answers with a redirect; {@code path} replaces the whole path, {@code prefixRewrite} the matched prefix. */
  record Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite, int responseCode,
      boolean httpsRedirect) implements RouteAction {
    public Redirect {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(prefixRewrite, "prefixRewrite");
      if (!List.of(301, 302, 303, 307, 308).contains(responseCode)) {
        throw new IllegalArgumentException("redirect code " + responseCode + " is not one of 301, 302, 303, 307, 308");
      }
    }
  }

  /** Answers without contacting any cluster. */
  record DirectResponse(int status, Optional<String> body) implements RouteAction {
    public DirectResponse {
      Objects.requireNonNull(body, "body");
    }
  }
}
