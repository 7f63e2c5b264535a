package io.holdfast.api;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A route's {@code options}: the policies Gloo Edge users configure beside matching and forwarding. Everything is
 * optional; {@link #NONE} sets nothing. Header manipulation and CORS also have VirtualService-wide defaults
 * ({@link VirtualHostOptions}). Rewrites, timeouts, faults, hash policies and mirroring apply to forwarding
 * actions only.
 *
 * @param hostRewrite       replaces the Host ({@code :authority}) header before forwarding
 * @param autoHostRewrite   replaces it with the host name of the chosen upstream endpoint (DNS upstreams)
 * @param idleTimeout       how long the stream may stay without activity
 * @param maxStreamDuration how long the stream may last at all (also the deadline gRPC clients apply)
 * @param hashPolicies      what RING_HASH upstreams hash on to pick an endpoint, evaluated in order
 * @param security          authentication and authorisation ({@code security}); replaces the VirtualService's
 * @param traffic           rate limits, compression, CSRF and body limit ({@link TrafficOptions.Route#NONE})
 * @param appendXForwardedHost when the Host header is rewritten, keep the original in {@code x-forwarded-host}
 */
public record RouteOptions(Optional<HeaderManipulation> headerManipulation, Optional<String> hostRewrite,
    boolean autoHostRewrite, Optional<RegexRewrite> regexRewrite, Optional<Cors> cors,
    Optional<Duration> idleTimeout, Optional<Duration> maxStreamDuration, Optional<Faults> faults,
    List<HashPolicy> hashPolicies, Optional<Mirror> mirror, SecurityOptions security,
    TrafficOptions.Route traffic, boolean appendXForwardedHost) {

  /** These options with other security settings, every other field as it is. */
  public RouteOptions withSecurity(SecurityOptions value) {
    return new RouteOptions(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout,
        maxStreamDuration, faults, hashPolicies, mirror, value, traffic, appendXForwardedHost);
  }

  /** These options with other traffic settings, every other field as it is. */
  public RouteOptions withTraffic(TrafficOptions.Route value) {
    return new RouteOptions(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout,
        maxStreamDuration, faults, hashPolicies, mirror, security, value, appendXForwardedHost);
  }

  /** These options with {@code value} as the mirror, every other field as it is. */
  public RouteOptions withMirror(Optional<Mirror> value) {
    return new RouteOptions(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout,
        maxStreamDuration, faults, hashPolicies, value, security, traffic, appendXForwardedHost);
  }

  /** Without {@code appendXForwardedHost}. */
  public RouteOptions(Optional<HeaderManipulation> headerManipulation, Optional<String> hostRewrite,
      boolean autoHostRewrite, Optional<RegexRewrite> regexRewrite, Optional<Cors> cors,
      Optional<Duration> idleTimeout, Optional<Duration> maxStreamDuration, Optional<Faults> faults,
      List<HashPolicy> hashPolicies, Optional<Mirror> mirror, SecurityOptions security,
      TrafficOptions.Route traffic) {
    this(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout, maxStreamDuration,
        faults, hashPolicies, mirror, security, traffic, false);
  }

  /** Without security or traffic options. */
  public RouteOptions(Optional<HeaderManipulation> headerManipulation, Optional<String> hostRewrite,
      boolean autoHostRewrite, Optional<RegexRewrite> regexRewrite, Optional<Cors> cors,
      Optional<Duration> idleTimeout, Optional<Duration> maxStreamDuration, Optional<Faults> faults,
      List<HashPolicy> hashPolicies, Optional<Mirror> mirror) {
    this(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout, maxStreamDuration,
        faults, hashPolicies, mirror, SecurityOptions.NONE, TrafficOptions.Route.NONE);
  }

  /** Without traffic options. */
  public RouteOptions(Optional<HeaderManipulation> headerManipulation, Optional<String> hostRewrite,
      boolean autoHostRewrite, Optional<RegexRewrite> regexRewrite, Optional<Cors> cors,
      Optional<Duration> idleTimeout, Optional<Duration> maxStreamDuration, Optional<Faults> faults,
      List<HashPolicy> hashPolicies, Optional<Mirror> mirror, SecurityOptions security) {
    this(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout, maxStreamDuration,
        faults, hashPolicies, mirror, security, TrafficOptions.Route.NONE);
  }

  /** Without security options. */
  public RouteOptions(Optional<HeaderManipulation> headerManipulation, Optional<String> hostRewrite,
      boolean autoHostRewrite, Optional<RegexRewrite> regexRewrite, Optional<Cors> cors,
      Optional<Duration> idleTimeout, Optional<Duration> maxStreamDuration, Optional<Faults> faults,
      List<HashPolicy> hashPolicies, Optional<Mirror> mirror, TrafficOptions.Route traffic) {
    this(headerManipulation, hostRewrite, autoHostRewrite, regexRewrite, cors, idleTimeout, maxStreamDuration,
        faults, hashPolicies, mirror, SecurityOptions.NONE, traffic);
  }

  public static final RouteOptions NONE = new RouteOptions(Optional.empty(), Optional.empty(), false,
      Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(),
      Optional.empty());

  public RouteOptions {
    Objects.requireNonNull(headerManipulation, "headerManipulation");
    Objects.requireNonNull(hostRewrite, "hostRewrite");
    Objects.requireNonNull(regexRewrite, "regexRewrite");
    Objects.requireNonNull(cors, "cors");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(maxStreamDuration, "maxStreamDuration");
    Objects.requireNonNull(faults, "faults");
    hashPolicies = List.copyOf(hashPolicies);
    Objects.requireNonNull(mirror, "mirror");
    Objects.requireNonNull(security, "security");
    Objects.requireNonNull(traffic, "traffic");
  }

  /** Headers to add to and remove from requests (before forwarding) and responses (before answering). */
  public record HeaderManipulation(List<HeaderValue> requestHeadersToAdd, List<String> requestHeadersToRemove,
      List<HeaderValue> responseHeadersToAdd, List<String> responseHeadersToRemove) {
    public HeaderManipulation {
      requestHeadersToAdd = List.copyOf(requestHeadersToAdd);
      requestHeadersToRemove = List.copyOf(requestHeadersToRemove);
      responseHeadersToAdd = List.copyOf(responseHeadersToAdd);
      responseHeadersToRemove = List.copyOf(responseHeadersToRemove);
    }
  }

  /**
   * One header to add; the value is literal.
   *
   * @param append true (default): add another value beside any present; false: replace them
   */
  public record HeaderValue(String name, String value, boolean append) {
    public HeaderValue {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(value, "value");
    }
  }

  /** Rewrites the path: every match of the RE2 {@code pattern} is replaced by {@code substitution} (\1 etc.). */
  public record RegexRewrite(String pattern, String substitution) {
    public RegexRewrite {
      Objects.requireNonNull(pattern, "pattern");
      Objects.requireNonNull(substitution, "substitution");
    }
  }

  /**
   * A CORS policy: which origins may call, with which methods and headers.
   *
   * @param allowOrigin      exact origins, e.g. {@code https://app.example.test}
   * @param allowOriginRegex RE2 regexes matched against the whole origin
   * @param maxAge           how long browsers may cache the preflight answer (whole seconds)
   */
  public record Cors(List<String> allowOrigin, List<String> allowOriginRegex, List<String> allowMethods,
      List<String> allowHeaders, List<String> exposeHeaders, Optional<Duration> maxAge,
      Optional<Boolean> allowCredentials) {
    public Cors {
      allowOrigin = List.copyOf(allowOrigin);
      allowOriginRegex = List.copyOf(allowOriginRegex);
      allowMethods = List.copyOf(allowMethods);
      allowHeaders = List.copyOf(allowHeaders);
      exposeHeaders = List.copyOf(exposeHeaders);
      Objects.requireNonNull(maxAge, "maxAge");
      Objects.requireNonNull(allowCredentials, "allowCredentials");
    }
  }

  /** Fault injection for chaos testing: abort and/or delay a percentage of the requests. */
  public record Faults(Optional<Abort> abort, Optional<Delay> delay) {
    public Faults {
      Objects.requireNonNull(abort, "abort");
      Objects.requireNonNull(delay, "delay");
    }
  }

  /**
   * Answers {@code percentage} of the requests with an error instead of forwarding them: exactly one of an HTTP
   * status or a gRPC status code.
   *
   * @param percentage 0-100, fractions allowed
   */
  public record Abort(double percentage, Optional<Integer> httpStatus, Optional<Integer> grpcStatus) {
    public Abort {
      Objects.requireNonNull(httpStatus, "httpStatus");
      Objects.requireNonNull(grpcStatus, "grpcStatus");
    }
  }

  /** Holds {@code percentage} of the requests for {@code fixedDelay} before forwarding them. */
  public record Delay(double percentage, Duration fixedDelay) {
    public Delay {
      Objects.requireNonNull(fixedDelay, "fixedDelay");
    }
  }

  /** One input of the consistent hash; {@code terminal}: stop at this one when it yields a hash. */
  public sealed interface HashPolicy {
    boolean terminal();
  }

  /** Hash on a request header's value. */
  public record HeaderHash(String header, boolean terminal) implements HashPolicy {
    public HeaderHash {
      Objects.requireNonNull(header, "header");
    }
  }

  /**
   * Hash on a cookie's value; with a {@code ttl}, the proxy sets the cookie when the request lacks it.
   */
  public record CookieHash(String name, Optional<Duration> ttl, Optional<String> path, boolean terminal)
      implements HashPolicy {
    public CookieHash {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(ttl, "ttl");
      Objects.requireNonNull(path, "path");
    }
  }

  /** Hash on the client's IP address. */
  public record SourceIpHash(boolean terminal) implements HashPolicy {
  }

  /**
   * Sends a copy of {@code percentage} of the requests to another upstream, not waiting for its answers.
   *
   * @param percentage 0-100, fractions allowed; default 100
   */
  public record Mirror(ObjectRef upstream, double percentage) {
    public Mirror {
      Objects.requireNonNull(upstream, "upstream");
    }
  }
}
