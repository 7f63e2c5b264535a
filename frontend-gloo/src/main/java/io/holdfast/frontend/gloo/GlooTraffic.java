package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import io.holdfast.api.TrafficOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo's {@code csrf} and {@code bufferPerRoute} options (virtual host and route) as Holdfast's per-route traffic
 * options: both are upstream Envoy filters ({@code envoy.filters.http.csrf}, {@code envoy.filters.http.buffer})
 * that Gloo configures per route, so a route's value replaces its virtual host's, as in Holdfast. Only what
 * Holdfast can reproduce exactly is read; anything else rejects the object naming the field.
 */
final class GlooTraffic {

  /** The option fields read here, for the readers' field lists. */
  static final Set<String> FIELDS = Set.of("csrf", "bufferPerRoute");

  private static final Set<String> CSRF = Set.of("filterEnabled", "shadowEnabled", "additionalOrigins");
  private static final Set<String> RUNTIME_PERCENT = Set.of("defaultValue");
  private static final Set<String> FRACTION = Set.of("numerator", "denominator");
  private static final Set<String> ORIGIN = Set.of("exact", "prefix", "suffix", "safeRegex", "ignoreCase");
  private static final Set<String> REGEX = Set.of("regex", "googleRe2");
  private static final Set<String> BUFFER_PER_ROUTE = Set.of("buffer", "disabled");
  private static final Set<String> BUFFER = Set.of("maxRequestBytes");
  private static final Map<String, Integer> DENOMINATORS = Map.of("HUNDRED", 100, "TEN_THOUSAND", 10_000,
      "MILLION", 1_000_000, "0", 100, "1", 10_000, "2", 1_000_000);

  private GlooTraffic() {
  }

  /** The {@code csrf} and {@code bufferPerRoute} of a virtual host's or route's {@code options}. */
  static TrafficOptions.Route read(Node options) {
    Optional<TrafficOptions.Csrf> csrf = options.has("csrf") ? csrf(options.child("csrf")) : Optional.empty();
    Optional<Long> body = options.has("bufferPerRoute") ? buffer(options.child("bufferPerRoute"))
        : Optional.empty();
    return new TrafficOptions.Route(Optional.empty(), Optional.empty(), Optional.empty(), csrf, body,
        GlooExtProc.route(options));
  }

  /**
   * Gloo's {@code CsrfPolicy}. Gloo writes an absent {@code filterEnabled} as 0 % (its plugin fills in an empty
   * fraction), so {@code shadowEnabled} alone only counts. Holdfast's CSRF enforces on every request or shadows
   * every request: other percentages, and a policy doing neither (which Gloo uses to turn a virtual host's CSRF
   * off for a route), are rejected.
   */
  private static Optional<TrafficOptions.Csrf> csrf(Node csrf) {
    csrf.only("csrf", CSRF);
    int enforce = csrf.has("filterEnabled") ? percent(csrf.child("filterEnabled")) : 0;
    int shadow = csrf.has("shadowEnabled") ? percent(csrf.child("shadowEnabled")) : 0;
    List<String> origins = new ArrayList<>();
    List<TrafficOptions.OriginMatcher> matchers = new ArrayList<>();
    for (Node origin : csrf.list("additionalOrigins")) {
      origin(origin, origins, matchers);
    }
    if (enforce == 100) {
      // Envoy enforces; shadow counts nothing more
      return Optional.of(new TrafficOptions.Csrf(origins, matchers, false));
    }
    if (enforce == 0 && shadow == 100) {
      return Optional.of(new TrafficOptions.Csrf(origins, matchers, true));
    }
    if (enforce >= 0 && shadow >= 0) {
      csrf.error(csrf.path, GlooFeatures.UNSUPPORTED, "Holdfast's CSRF policy is enforced on all requests"
          + " (filterEnabled 100 %) or only counted on all (filterEnabled 0 %, shadowEnabled 100 %); got "
          + enforce + " % enforced, " + shadow + " % shadowed");
    }
    return Optional.empty();
  }

  /** A whole percentage 0-100 of a RuntimeFractionalPercent's default; -1 (with an error) otherwise. */
  private static int percent(Node runtime) {
    runtime.only("runtime fractional percent (runtimeKey is not read)", RUNTIME_PERCENT);
    Node fraction = runtime.child("defaultValue").only("fractional percent", FRACTION);
    int numerator = fraction.integer("numerator").orElse(0);
    String denominatorName = fraction.string("denominator").orElse("HUNDRED");
    Integer denominator = DENOMINATORS.get(denominatorName);
    if (denominator == null || numerator < 0) {
      fraction.error(fraction.path, Reasons.INVALID_VALUE, "a fraction is numerator >= 0 over HUNDRED,"
          + " TEN_THOUSAND or MILLION");
      return -1;
    }
    long scaled = Math.min(numerator, denominator) * 100L; // Envoy caps a fraction at 100 %
    if (scaled % denominator != 0) {
      fraction.error(fraction.path, GlooFeatures.UNSUPPORTED, "a fraction of a percent is not supported here");
      return -1;
    }
    return (int) (scaled / denominator);
  }

  /**
   * One additional origin, Envoy's StringMatcher as Gloo passes it on: an exact, case-sensitive origin is one of
   * Holdfast's exact origins, anything else an origin matcher. A regex's {@code googleRe2} (a deprecated program
   * size hint) is read and has no effect, as in current Envoy.
   */
  private static void origin(Node origin, List<String> exact, List<TrafficOptions.OriginMatcher> matchers) {
    origin.only("CSRF origin matcher", ORIGIN);
    List<String> given = TrafficOptions.MatchType.FIELDS.stream().filter(origin::has).toList();
    if (given.size() != 1) {
      origin.error(origin.path, given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "an origin matcher needs one of exact, prefix, suffix or safeRegex" + (given.isEmpty() ? ""
              : ", not " + given));
      return;
    }
    boolean ignoreCase = origin.bool("ignoreCase").orElse(false);
    Optional<String> value = given.get(0).equals("safeRegex")
        ? origin.child("safeRegex").only("safeRegex", REGEX).requiredString("regex")
        : origin.string(given.get(0));
    if (value.isEmpty()) {
      return;
    }
    if (given.get(0).equals("exact") && !ignoreCase) {
      exact.add(value.get());
      return;
    }
    TrafficOptions.MatchType type = TrafficOptions.MatchType.ofField(given.get(0));
    matchers.add(new TrafficOptions.OriginMatcher(type, value.get(), ignoreCase));
  }

  /**
   * Gloo's {@code BufferPerRoute}: {@code buffer.maxRequestBytes} is Holdfast's request body limit. {@code
   * disabled} turns the buffer off where a virtual host or listener turned it on; Holdfast cannot turn an inherited
   * limit off per route, so it is rejected rather than limiting bodies Gloo would pass.
   */
  private static Optional<Long> buffer(Node perRoute) {
    perRoute.only("bufferPerRoute", BUFFER_PER_ROUTE);
    if (perRoute.bool("disabled").orElse(false)) {
      perRoute.error(perRoute.at("disabled"), GlooFeatures.UNSUPPORTED, "turning the buffer off for a route is"
          + " not supported by Holdfast (a route inherits its virtual host's body limit); remove the limit where"
          + " it should not apply");
      return Optional.empty();
    }
    if (!perRoute.has("buffer")) {
      perRoute.error(perRoute.path, Reasons.MISSING_FIELD, "bufferPerRoute has buffer (or disabled: true)");
      return Optional.empty();
    }
    Node buffer = perRoute.child("buffer").only("buffer", BUFFER);
    if (!buffer.has("maxRequestBytes")) {
      buffer.error(buffer.at("maxRequestBytes"), Reasons.MISSING_FIELD, "maxRequestBytes is required");
      return Optional.empty();
    }
    // Range (1 to 2^31-1) is Holdfast's own check, with its reason, after reading.
    return buffer.integer("maxRequestBytes").map(Integer::longValue);
  }
}
