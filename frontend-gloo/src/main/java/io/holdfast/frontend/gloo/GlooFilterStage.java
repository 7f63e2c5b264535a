package io.holdfast.frontend.gloo;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo's {@code filterStage} (filters/stages.proto: a {@code stage} and a {@code predicate}) of the Settings'
 * {@code extProc}, as Holdfast's ext_proc {@code position} ({@code TrafficOptions.ExtProc.POSITIONS}).
 *
 * <p>Gloo sorts its HTTP filters by stage (Fault, Cors, Waf, AuthN, AuthZ, RateLimit, Accepted, OutAuth, Route), then
 * Before, During, After within a stage. The filters Holdfast serves for Gloo sit at these stages in Gloo: CORS at
 * Cors; external auth and JWT at AuthN; RBAC at AuthZ; the health check at AuthZ After; the rate limit at RateLimit;
 * CSRF and buffer at Route. A stage and predicate map to the one Holdfast position with the same filters before and
 * after it. Fault injection is left out of that comparison: Gloo runs it first, Holdfast after the rate limits, for
 * every ext_proc stage alike. Rejected: {@code During} a stage that holds one of those filters (Cors, AuthN, AuthZ,
 * RateLimit, Route), because Gloo orders the filters within one stage by name, which its API leaves open (and Gloo
 * Enterprise's filter names are not public), so where ext_proc runs among them is not known. Waf, Accepted and
 * OutAuth hold no filter Holdfast serves (WAF, AWS Lambda and gRPC-JSON are rejected where they are configured), so
 * every predicate there is a well-defined place.
 */
final class GlooFilterStage {

  /** The stages in Gloo's order, which is also their proto numbers (protojson accepts either spelling). */
  private static final List<String> STAGES = List.of("FaultStage", "CorsStage", "WafStage", "AuthNStage",
      "AuthZStage", "RateLimitStage", "AcceptedStage", "OutAuthStage", "RouteStage");
  /** The predicates by proto number; During is proto3's default. */
  private static final List<String> PREDICATES = List.of("During", "Before", "After");
  /** Stages holding a filter Holdfast serves at Gloo's place: During them has no defined place. */
  private static final Set<String> OCCUPIED = Set.of("CorsStage", "AuthNStage", "AuthZStage", "RateLimitStage",
      "RouteStage");
  private static final Set<String> FIELDS = Set.of("stage", "predicate");

  private GlooFilterStage() {
  }

  /**
   * Holdfast's position for {@code extProc.filterStage}; empty, with an error on {@code extProc}'s list, when Gloo
   * lacks it (it is required) or Holdfast has no such place.
   */
  static Optional<String> position(Node extProc) {
    if (!extProc.has("filterStage")) {
      extProc.error(extProc.at("filterStage"), io.holdfast.api.Reasons.MISSING_FIELD, "Gloo requires the filter"
          + " stage of its extProc filter");
      return Optional.empty();
    }
    Node stage = extProc.child("filterStage").protoNames().only("filterStage", FIELDS);
    // proto3: an absent stage is FaultStage, an absent predicate During.
    Optional<String> name = value(stage, "stage", STAGES);
    Optional<String> predicate = value(stage, "predicate", PREDICATES);
    if (name.isEmpty() || predicate.isEmpty()) {
      return Optional.empty();
    }
    if (predicate.get().equals("During") && OCCUPIED.contains(name.get())) {
      extProc.error(extProc.at("filterStage"), GlooFeatures.UNSUPPORTED, "filterStage " + name.get() + " During"
          + " puts Gloo's ext_proc filter among the stage's own filters in an order Gloo's API leaves open (its"
          + " translator sorts a stage's filters by name); Holdfast serves filters of that stage, so use Before or"
          + " After");
      return Optional.empty();
    }
    return Optional.of(place(name.get(), predicate.get()));
  }

  /** The Holdfast position for a stage and predicate that has one (see the class comment). */
  private static String place(String stage, String predicate) {
    boolean after = predicate.equals("After");
    return switch (stage) {
      case "FaultStage" -> "First";
      case "CorsStage" -> after ? "AfterCors" : "First";
      case "WafStage" -> "AfterCors";
      case "AuthNStage" -> after ? "BeforeRbac" : "AfterCors";
      case "AuthZStage" -> after ? "AfterAuthorization" : "BeforeRbac";
      case "RateLimitStage" -> after ? "AfterRateLimits" : "AfterAuthorization";
      case "RouteStage" -> after ? "Last" : "AfterRateLimits";
      default -> "AfterRateLimits"; // AcceptedStage, OutAuthStage: after the rate limits, before CSRF and buffer
    };
  }

  /** An enum field by name or proto number; the first value when absent (proto3's default). */
  private static Optional<String> value(Node stage, String field, List<String> values) {
    Optional<String> written = stage.string(field);
    if (written.isEmpty()) {
      return stage.has(field) ? Optional.empty() : Optional.of(values.get(0));
    }
    String value = written.get();
    if (value.matches("\\d{1,2}") && Integer.parseInt(value) < values.size()) {
      return Optional.of(values.get(Integer.parseInt(value)));
    }
    if (values.contains(value)) {
      return Optional.of(value);
    }
    stage.error(stage.at(field), io.holdfast.api.Reasons.INVALID_VALUE, field + " is one of " + values + ", got "
        + value);
    return Optional.empty();
  }
}
