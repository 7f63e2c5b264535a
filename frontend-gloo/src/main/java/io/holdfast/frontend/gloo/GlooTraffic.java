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
  private static final Set<String> ORIGIN = Set.of("exact", "ignoreCase");
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
    return new TrafficOptions.Route(Optional.empty(), Optional.empty(), Optional.empty(), csrf, body);
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
    for (Node origin : csrf.list("additionalOrigins")) {
      origin(origin).ifPresent(origins::add);
    }
    if (enforce == 100) {
      return Optional.of(new TrafficOptions.Csrf(origins, false)); // Envoy enforces; shadow counts nothing more
    }
    if (enforce == 0 && shadow == 100) {
      return Optional.of(new TrafficOptions.Csrf(origins, true));
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

  /** One additional origin: Holdfast compares origins exactly and case-sensitively. */
  private static Optional<String> origin(Node origin) {
    origin.only("CSRF origin matcher (only exact is supported)", ORIGIN);
    if (origin.bool("ignoreCase").orElse(false)) {
      origin.error(origin.at("ignoreCase"), GlooFeatures.UNSUPPORTED, "Holdfast compares CSRF origins"
          + " case-sensitively; the object is rejected rather than refusing origins Gloo allows");
    }
    if (!origin.has("exact")) {
      origin.error(origin.path, Reasons.MISSING_FIELD, "an origin matcher needs exact");
    }
    return origin.string("exact");
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
