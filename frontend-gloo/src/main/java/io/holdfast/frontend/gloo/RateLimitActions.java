package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import io.holdfast.api.TrafficOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Envoy-style rate-limit actions as Solo writes them ({@code ratelimit.api.solo.io.RateLimitActions}: in a
 * {@code RateLimitConfig}'s {@code raw.rateLimits} and in the {@code ratelimit} option's {@code rateLimits}), as
 * Holdfast descriptors: each {@code actions} list is one descriptor sent to the rate-limit server, its entries in
 * order. The limits themselves are the server's configuration ({@code raw.descriptors} and
 * {@code setDescriptors} are Solo's rate limiter's, which Holdfast cannot push to a standard RLS: they reject the
 * RateLimitConfig, naming the field).
 */
final class RateLimitActions {

  /** Envoy's default key of a {@code generic_key} entry, the only one Solo's {@code genericKey} writes. */
  static final String GENERIC_KEY = "generic_key";

  private static final Set<String> CONFIG_SPEC = Set.of("raw");
  private static final Set<String> RAW = Set.of("descriptors", "rateLimits", "setDescriptors");
  private static final Set<String> RATE_LIMIT = Set.of("actions", "setActions", "limit");
  private static final Set<String> ACTION = Set.of("remoteAddress", "genericKey", "requestHeaders",
      "sourceCluster", "destinationCluster", "headerValueMatch", "metadata");
  private static final Set<String> REQUEST_HEADERS = Set.of("headerName", "descriptorKey");
  private static final Set<String> GENERIC = Set.of("descriptorValue");

  private RateLimitActions() {
  }

  /** A RateLimitConfig's spec: its descriptors, or empty with an error (the config is rejected). */
  static Optional<List<TrafficOptions.Descriptor>> config(Node spec) {
    spec.only("RateLimitConfig", CONFIG_SPEC);
    if (!spec.has("raw")) {
      spec.error(spec.at("raw"), Reasons.MISSING_FIELD, "raw is required (Gloo Edge's only config type)");
      return Optional.empty();
    }
    Node raw = spec.child("raw").only("raw", RAW);
    for (String field : List.of("descriptors", "setDescriptors")) {
      if (!raw.list(field).isEmpty()) {
        raw.error(raw.at(field), GlooFeatures.UNSUPPORTED, field + " are the rate-limit server's own limits, which"
            + " Solo's rate limiter reads from Gloo; Holdfast speaks Envoy's RLS protocol and cannot push limits to"
            + " the server: keep them in the server's configuration (domain " + GlooSettings.RATE_LIMIT_DOMAIN
            + ") and leave only rateLimits here");
      }
    }
    List<TrafficOptions.Descriptor> descriptors = rateLimits(raw, "rateLimits");
    if (descriptors.isEmpty()) {
      raw.error(raw.at("rateLimits"), Reasons.MISSING_FIELD, "rateLimits are required: they say what Envoy sends"
          + " to the rate-limit server");
      return Optional.empty();
    }
    return Optional.of(descriptors);
  }

  /** The descriptors of {@code owner}'s list {@code field} of RateLimitActions. */
  static List<TrafficOptions.Descriptor> rateLimits(Node owner, String field) {
    List<TrafficOptions.Descriptor> out = new ArrayList<>();
    for (Node rateLimit : owner.list(field)) {
      rateLimit.only("rate limit", RATE_LIMIT);
      if (!rateLimit.list("setActions").isEmpty()) {
        rateLimit.error(rateLimit.at("setActions"), GlooFeatures.UNSUPPORTED, "setActions are matched by Solo's"
            + " rate limiter only (set-style descriptors); a standard RLS matches ordered descriptors (actions)");
      }
      if (rateLimit.has("limit")) {
        rateLimit.error(rateLimit.at("limit"), GlooFeatures.UNSUPPORTED, "limit (a limit override from dynamic"
            + " metadata) is not supported by Holdfast");
      }
      List<TrafficOptions.Entry> entries = new ArrayList<>();
      for (Node action : rateLimit.list("actions")) {
        entry(action).ifPresent(entries::add);
      }
      if (entries.isEmpty() && rateLimit.list("setActions").isEmpty()) {
        rateLimit.error(rateLimit.at("actions"), Reasons.MISSING_FIELD, "a rate limit needs at least one action");
      }
      out.add(new TrafficOptions.Descriptor(entries));
    }
    return out;
  }

  private static Optional<TrafficOptions.Entry> entry(Node action) {
    action.only("rate-limit action", ACTION);
    List<String> given = ACTION.stream().filter(action::has).sorted().toList();
    if (given.size() != 1) {
      action.error(action.path, given.isEmpty() ? Reasons.MISSING_FIELD : Reasons.CONFLICTING_FIELDS,
          "an action has exactly one type, got " + given);
      return Optional.empty();
    }
    switch (given.get(0)) {
      case "remoteAddress":
        action.child("remoteAddress").only("remoteAddress", Set.of());
        return Optional.of(new TrafficOptions.Entry.RemoteAddress());
      case "genericKey": {
        Node generic = action.child("genericKey").only("genericKey", GENERIC);
        return generic.requiredString("descriptorValue")
            .map(value -> new TrafficOptions.Entry.GenericKey(GENERIC_KEY, value));
      }
      case "requestHeaders": {
        Node headers = action.child("requestHeaders").only("requestHeaders", REQUEST_HEADERS);
        Optional<String> header = headers.requiredString("headerName");
        Optional<String> key = headers.requiredString("descriptorKey");
        return header.flatMap(h -> key.map(k -> new TrafficOptions.Entry.RequestHeader(h, k)));
      }
      default:
        action.error(action.at(given.get(0)), GlooFeatures.UNSUPPORTED, given.get(0) + " rate-limit actions are not"
            + " supported by Holdfast (remoteAddress, genericKey and requestHeaders are)");
        return Optional.empty();
    }
  }
}
