package io.holdfast.ir;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The HTTP policies a route carries beside matching and forwarding: header mutations and CORS on any route
 * ({@link Route}), and rewrites, faults, hashing and mirroring on forwarding routes
 * ({@link RouteAction.ForwardPolicy}). Front ends merge any per-virtual-host defaults into each route, so every
 * value here is the effective one.
 */
public final class RoutePolicies {

  private RoutePolicies() {
  }

  /** A share of requests, in parts per million (0 to 1,000,000). */
  public record Percent(int perMillion) {
    public static final int MILLION = 1_000_000;
    public static final Percent ALL = new Percent(MILLION);

    public Percent {
      if (perMillion < 0 || perMillion > MILLION) {
        throw new IllegalArgumentException("a share of " + perMillion + " per million is out of range");
      }
    }

    /** {@code percentage} (0-100) rounded to the nearest part per million. */
    public static Percent of(double percentage) {
      return new Percent((int) Math.round(percentage * (MILLION / 100)));
    }
  }

  /**
   * Headers to add to and remove from requests and responses; names lower case, values literal.
   */
  public record HeaderMutation(List<HeaderValue> requestAdd, List<String> requestRemove,
      List<HeaderValue> responseAdd, List<String> responseRemove) {
    public static final HeaderMutation NONE = new HeaderMutation(List.of(), List.of(), List.of(), List.of());

    public HeaderMutation {
      requestAdd = List.copyOf(requestAdd);
      requestRemove = List.copyOf(requestRemove);
      responseAdd = List.copyOf(responseAdd);
      responseRemove = List.copyOf(responseRemove);
      for (String name : requestRemove) {
        requireLowerCase(name);
      }
      for (String name : responseRemove) {
        requireLowerCase(name);
      }
    }

    public boolean isEmpty() {
      return equals(NONE);
    }
  }

  /** {@code append} adds a value beside existing ones; otherwise the value replaces them. */
  public record HeaderValue(String name, String value, boolean append) {
    public HeaderValue {
      requireLowerCase(name);
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * A CORS policy.
   *
   * @param originRegexes RE2, full match
   * @param methods       upper case
   * @param maxAge        whole seconds
   */
  public record Cors(List<String> origins, List<String> originRegexes, List<String> methods, List<String> headers,
      List<String> exposeHeaders, Optional<Duration> maxAge, Optional<Boolean> allowCredentials) {
    public Cors {
      origins = List.copyOf(origins);
      originRegexes = List.copyOf(originRegexes);
      methods = List.copyOf(methods);
      headers = List.copyOf(headers);
      exposeHeaders = List.copyOf(exposeHeaders);
      Objects.requireNonNull(maxAge, "maxAge");
      Objects.requireNonNull(allowCredentials, "allowCredentials");
      if (origins.isEmpty() && originRegexes.isEmpty()) {
        throw new IllegalArgumentException("a CORS policy needs at least one origin");
      }
      maxAge.filter(age -> age.isNegative() || age.getNano() != 0).ifPresent(age -> {
        throw new IllegalArgumentException("CORS max age must be whole, non-negative seconds, got " + age);
      });
    }
  }

  /** Rewrites the path: matches of {@code pattern} (RE2) are replaced by {@code substitution}. */
  public record RegexRewrite(String pattern, String substitution) {
    public RegexRewrite {
      Objects.requireNonNull(pattern, "pattern");
      Objects.requireNonNull(substitution, "substitution");
    }
  }

  /** How the Host header is rewritten before forwarding; the original kept in x-forwarded-host when asked. */
  public sealed interface HostRewrite {
    boolean appendXForwardedHost();
  }

  public record LiteralHost(String host, boolean appendXForwardedHost) implements HostRewrite {
    public LiteralHost {
      Objects.requireNonNull(host, "host");
    }

    public LiteralHost(String host) {
      this(host, false);
    }
  }

  /** The host name of the chosen upstream endpoint. */
  public record UpstreamHost(boolean appendXForwardedHost) implements HostRewrite {
    public UpstreamHost() {
      this(false);
    }
  }

  /** Injected faults: an abort, a delay, or both. */
  public record Fault(Optional<Abort> abort, Optional<Delay> delay) {
    public Fault {
      Objects.requireNonNull(abort, "abort");
      Objects.requireNonNull(delay, "delay");
      if (abort.isEmpty() && delay.isEmpty()) {
        throw new IllegalArgumentException("a fault needs an abort or a delay");
      }
    }
  }

  /** Exactly one of an HTTP status (200-599) and a gRPC status code. */
  public record Abort(Percent percent, Optional<Integer> httpStatus, Optional<Integer> grpcStatus) {
    public Abort {
      Objects.requireNonNull(percent, "percent");
      Objects.requireNonNull(httpStatus, "httpStatus");
      Objects.requireNonNull(grpcStatus, "grpcStatus");
      if (httpStatus.isPresent() == grpcStatus.isPresent()) {
        throw new IllegalArgumentException("an abort has exactly one of an HTTP and a gRPC status");
      }
      httpStatus.filter(code -> code < 200 || code > 599).ifPresent(code -> {
        throw new IllegalArgumentException("abort status " + code + " is not in 200-599");
      });
    }
  }

  public record Delay(Percent percent, Duration fixedDelay) {
    public Delay {
      Objects.requireNonNull(percent, "percent");
      if (fixedDelay.isZero() || fixedDelay.isNegative()) {
        throw new IllegalArgumentException("a fault delay must be greater than 0, got " + fixedDelay);
      }
    }
  }

  /** One input of a consistent hash; {@code terminal} stops at it when it yields a hash. */
  public sealed interface HashPolicy {
    boolean terminal();
  }

  /** @param header lower case */
  public record HeaderHash(String header, boolean terminal) implements HashPolicy {
    public HeaderHash {
      requireLowerCase(header);
    }
  }

  /** With a {@code ttl}, the proxy sets the cookie when a request lacks it. */
  public record CookieHash(String name, Optional<Duration> ttl, Optional<String> path, boolean terminal)
      implements HashPolicy {
    public CookieHash {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(ttl, "ttl");
      Objects.requireNonNull(path, "path");
    }
  }

  public record SourceIpHash(boolean terminal) implements HashPolicy {
  }

  /** A copy of {@code percent} of the requests goes to {@code cluster}, whose answers are ignored. */
  public record Mirror(ResourceKey cluster, Percent percent) {
    public Mirror {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(percent, "percent");
    }
  }

  private static void requireLowerCase(String name) {
    if (name.isEmpty() || !name.equals(name.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("header names are non-empty and lower case, got \"" + name + "\"");
    }
  }
}
