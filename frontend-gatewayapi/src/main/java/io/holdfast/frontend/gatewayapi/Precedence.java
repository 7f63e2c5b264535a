package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.ResourceKey;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * Where one match of a route rule ranks among all matches of the routes attached to a host, as the Gateway API
 * defines it: the most specific match first ({@link Specificity}), then the oldest route, then the route first in
 * {@code namespace/name} order, then the rule and match first in the route. Smaller sorts first.
 *
 * @param createdAt the route's creationTimestamp; absent counts as newest
 * @param route     the route object
 * @param rule      index of the rule in the route
 * @param match     index of the match in the rule
 */
public record Precedence(Specificity specificity, Optional<Instant> createdAt, ResourceKey route, int rule,
    int match) implements Comparable<Precedence> {

  private static final Comparator<Optional<Instant>> OLDEST_FIRST =
      Comparator.comparing(created -> created.orElse(Instant.MAX));

  private static final Comparator<Precedence> ORDER = Comparator
      .comparing(Precedence::specificity, Specificity.MOST_SPECIFIC_FIRST)
      .thenComparing(Precedence::createdAt, OLDEST_FIRST)
      .thenComparing(p -> p.route().namespace() + "/" + p.route().name())
      .thenComparingInt(Precedence::rule)
      .thenComparingInt(Precedence::match);

  public Precedence {
    Objects.requireNonNull(specificity, "specificity");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(route, "route");
  }

  @Override
  public int compareTo(Precedence other) {
    return ORDER.compare(this, other);
  }

  /** How specific a match is; HTTP and gRPC matches rank by different measures. */
  public sealed interface Specificity {

    /**
     * HTTP matches before gRPC ones (the front end does not mix them on one host: the order between the two is
     * only made total).
     */
    Comparator<Specificity> MOST_SPECIFIC_FIRST = (a, b) -> {
      if (a instanceof Http httpA && b instanceof Http httpB) {
        return Http.ORDER.compare(httpA, httpB);
      }
      if (a instanceof Grpc grpcA && b instanceof Grpc grpcB) {
        return Grpc.ORDER.compare(grpcA, grpcB);
      }
      return a instanceof Http ? -1 : 1;
    };

    /**
     * An HTTPRoute match, ranked by: an Exact path, then (Holdfast's choice, the specification leaves it open) a
     * RegularExpression path, then a PathPrefix; within a type the longer value; then a method match; then more
     * header matches; then more query parameter matches.
     *
     * @param pathLength characters of the path value
     */
    record Http(PathType pathType, int pathLength, boolean method, int headers, int queryParams)
        implements Specificity {
      static final Comparator<Http> ORDER = Comparator.comparing(Http::pathType)
          .thenComparing(Comparator.<Http>comparingInt(Http::pathLength).reversed())
          .thenComparing(Http::method, Comparator.reverseOrder())
          .thenComparing(Comparator.<Http>comparingInt(Http::headers).reversed())
          .thenComparing(Comparator.<Http>comparingInt(Http::queryParams).reversed());

      public Http {
        Objects.requireNonNull(pathType, "pathType");
      }
    }

    /**
     * A GRPCRoute match, ranked by more characters in the matched service, then in the matched method, then more
     * header matches.
     */
    record Grpc(int serviceLength, int methodLength, int headers) implements Specificity {
      static final Comparator<Grpc> ORDER = Comparator.<Grpc>comparingInt(Grpc::serviceLength).reversed()
          .thenComparing(Comparator.<Grpc>comparingInt(Grpc::methodLength).reversed())
          .thenComparing(Comparator.<Grpc>comparingInt(Grpc::headers).reversed());
    }
  }

  /** Path match types, most specific first. */
  public enum PathType {
    EXACT, REGULAR_EXPRESSION, PATH_PREFIX
  }
}
