package io.holdfast.ir;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The traffic policies of one route: a local token bucket, descriptors for a global rate-limit service, response
 * compression, CSRF protection and a request body limit. Front ends merge virtual-host defaults into each route,
 * so each value is the effective one; {@link #NONE} sets nothing.
 *
 * @param rateLimits          each a descriptor sent to the listener's rate-limit service
 *                            ({@link HttpListenerOptions#rateLimitService()}); the request is limited if any is
 * @param compression         the algorithms responses may be compressed with (the client's Accept-Encoding
 *                            chooses); empty: none
 * @param maxRequestBodyBytes requests with a larger body get 413 (the body is buffered before forwarding)
 * @param extProc             the route's setting for its chain's external processing service
 *                            ({@link HttpListenerOptions#extProc()}); without a service it changes nothing
 */
public record RouteTraffic(Optional<LocalRateLimit> localRateLimit, List<Descriptor> rateLimits,
    Set<Compression> compression, Optional<Csrf> csrf, Optional<Integer> maxRequestBodyBytes,
    Optional<ExtProc.PerRoute> extProc) {

  public static final RouteTraffic NONE = new RouteTraffic(Optional.empty(), List.of(), Set.of(), Optional.empty(),
      Optional.empty(), Optional.empty());

  /** Without an external processing setting. */
  public RouteTraffic(Optional<LocalRateLimit> localRateLimit, List<Descriptor> rateLimits,
      Set<Compression> compression, Optional<Csrf> csrf, Optional<Integer> maxRequestBodyBytes) {
    this(localRateLimit, rateLimits, compression, csrf, maxRequestBodyBytes, Optional.empty());
  }

  /** This route's traffic with {@code value} as its external processing setting, every other field as it is. */
  public RouteTraffic withExtProc(Optional<ExtProc.PerRoute> value) {
    return new RouteTraffic(localRateLimit, rateLimits, compression, csrf, maxRequestBodyBytes, value);
  }

  public RouteTraffic {
    Objects.requireNonNull(localRateLimit, "localRateLimit");
    rateLimits = List.copyOf(rateLimits);
    compression = compression.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(compression));
    Objects.requireNonNull(csrf, "csrf");
    Objects.requireNonNull(maxRequestBodyBytes, "maxRequestBodyBytes");
    Objects.requireNonNull(extProc, "extProc");
    maxRequestBodyBytes.filter(b -> b < 1).ifPresent(b -> {
      throw new IllegalArgumentException("maxRequestBodyBytes " + b + " is not positive");
    });
  }

  public boolean isEmpty() {
    return equals(NONE);
  }

  /**
   * A token bucket in each proxy (not shared between proxies): it holds up to {@code maxTokens}, gains
   * {@code tokensPerFill} every {@code fillInterval}; a request takes one token or gets 429.
   *
   * @param responseHeaders add the {@code x-ratelimit-limit}, {@code -remaining} and {@code -reset} headers
   */
  public record LocalRateLimit(int maxTokens, int tokensPerFill, Duration fillInterval, boolean responseHeaders) {
    /** Envoy refuses a shorter fill interval. */
    public static final Duration MIN_FILL_INTERVAL = Duration.ofMillis(50);

    public LocalRateLimit {
      Objects.requireNonNull(fillInterval, "fillInterval");
      if (maxTokens < 1 || tokensPerFill < 1) {
        throw new IllegalArgumentException("a token bucket needs at least one token and one token per fill, got "
            + maxTokens + " and " + tokensPerFill);
      }
      if (fillInterval.compareTo(MIN_FILL_INTERVAL) < 0) {
        throw new IllegalArgumentException("fill interval " + fillInterval + " is below Envoy's " + MIN_FILL_INTERVAL);
      }
    }
  }

  /** One rate-limit descriptor: the entries, in order, the service counts a request under. */
  public record Descriptor(List<Entry> entries) {
    public Descriptor {
      entries = List.copyOf(entries);
      if (entries.isEmpty()) {
        throw new IllegalArgumentException("a rate-limit descriptor needs at least one entry");
      }
    }
  }

  /** One entry of a descriptor; a request lacking the header or metadata an entry reads sends no descriptor. */
  public sealed interface Entry {
    /** {@code remote_address}: the client address (after trusted X-Forwarded-For hops). */
    record RemoteAddress() implements Entry {
    }

    /** The value of request header {@code header} under {@code key}. */
    record RequestHeader(String header, String key) implements Entry {
      public RequestHeader {
        requireNonEmpty(header, "header");
        requireNonEmpty(key, "key");
      }
    }

    /** A fixed {@code value} under {@code key}. */
    record GenericKey(String key, String value) implements Entry {
      public GenericKey {
        requireNonEmpty(key, "key");
        requireNonEmpty(value, "value");
      }
    }

    /**
     * A value of the request's dynamic metadata ({@code filter} namespace, then {@code path}) under {@code key};
     * a JWT claim is read from the payload the JWT filter stores there.
     */
    record Metadata(String key, String filter, List<String> path) implements Entry {
      public Metadata {
        requireNonEmpty(key, "key");
        requireNonEmpty(filter, "filter");
        path = List.copyOf(path);
        if (path.isEmpty()) {
          throw new IllegalArgumentException("a metadata descriptor entry needs a path");
        }
      }
    }

    private static void requireNonEmpty(String value, String field) {
      Objects.requireNonNull(value, field);
      if (value.isEmpty()) {
        throw new IllegalArgumentException("descriptor entry " + field + " must not be empty");
      }
    }
  }

  /** A response compression algorithm; the filter chain holds them in this order. */
  public enum Compression {
    BROTLI, ZSTD, GZIP
  }

  /**
   * Cross-site request forgery protection: a mutating request whose {@code Origin} is neither the destination
   * host nor one of {@code additionalOrigins} (exact values) nor matched by one of {@code originMatchers} gets 403.
   * Origins are compared as the Origin header's host[:port], without its scheme.
   *
   * @param shadow only count such requests in Envoy's stats, let them through
   */
  public record Csrf(List<String> additionalOrigins, List<OriginMatcher> originMatchers, boolean shadow) {
    public Csrf {
      additionalOrigins = List.copyOf(additionalOrigins);
      originMatchers = List.copyOf(originMatchers);
    }

    /** Exact origins only. */
    public Csrf(List<String> additionalOrigins, boolean shadow) {
      this(additionalOrigins, List.of(), shadow);
    }
  }

  /** A CSRF origin matched by {@code type} (SAFE_REGEX: an RE2 regex of the whole value), optionally ignoring case. */
  public record OriginMatcher(MatchType type, String value, boolean ignoreCase) {
    public OriginMatcher {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(value, "value");
      if (value.isEmpty()) {
        throw new IllegalArgumentException("a CSRF origin matcher needs a value");
      }
    }
  }

  /** How an {@link OriginMatcher} compares. */
  public enum MatchType {
    EXACT, PREFIX, SUFFIX, SAFE_REGEX
  }
}
