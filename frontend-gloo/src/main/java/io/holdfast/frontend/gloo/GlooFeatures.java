package io.holdfast.frontend.gloo;

import java.util.Map;
import java.util.Set;

/**
 * Why a Gloo field is not read: the message of every {@link #UNSUPPORTED} rejection. Three families, so a user
 * knows whether to wait, to rewrite, or to stay on Gloo for that object: edge policies Holdfast is building
 * (authentication, rate limits, access logs), features that need Solo's own Envoy build (transformations, WAF,
 * DLP, function destinations), and everything else the front end does not read.
 */
final class GlooFeatures {

  /** Reason of every rejection of a Gloo field Holdfast does not honour. */
  static final String UNSUPPORTED = "UnsupportedGlooFeature";

  /** Edge policies being added to Holdfast's own kinds; until then their Gloo fields are rejected. */
  static final Set<String> EDGE_POLICIES = Set.of("jwtProvidersStaged", "ratelimitRegular", "ratelimitEarly",
      "rateLimitEarlyConfigs", "rateLimitRegularConfigs", "rateLimitBeforeAuth");

  /** Filters that exist only in Solo's Envoy build (envoy-gloo / envoy-gloo-ee), or Solo's function destinations. */
  static final Set<String> SOLO_ENVOY = Set.of("transformations", "stagedTransformations", "waf", "dlp",
      "destinationSpec", "aws", "awsEc2", "azure", "consul", "rest", "grpcJsonTranscoder", "graphqlApiRef",
      "envoyMetadata", "wasm", "sanitizeClusterHeader",
      "serviceSpec", "proxyLatency", "responseTransformation", "sds",
      // Solo's rate limiter's own limits for authorised and anonymous clients: no standard-RLS equivalent.
      "ratelimitBasic",
      // Gloo Enterprise's hybridGateway matcher: TLS passthrough picked by the client's cipher list (a listener
      // filter of Solo's Envoy build).
      "passthroughCipherSuites");

  /**
   * How the message of a field Gloo's own API lacks begins: Gloo refuses such an object too (its validation reads
   * objects strictly, as its e2e test of a {@code virtualHoost} typo shows), so it is not a Gloo object Holdfast
   * fails to read.
   */
  static final String NOT_A_GLOO_FIELD = "not a field of Gloo's API";

  /**
   * Fields seen in Gloo's own documentation that its {@code gateway.solo.io/v1} protos do not have, by the reader's
   * kind label: RouteTable options (route_table.proto has routes and weight only), and the pre-1.0 API's
   * virtual-host {@code name} and route {@code routePlugins}.
   */
  private static final Map<String, Map<String, String>> NOT_GLOO = Map.of(
      "RouteTable", Map.of("options", "a RouteTable has routes and weight only (route_table.proto); set options on"
          + " each of its routes"),
      "virtualHost", Map.of("name", "a virtualHost has domains, routes, options and optionsConfigRefs"
          + " (virtual_service.proto); name is Gloo's pre-1.0 API"),
      "route", Map.of("routePlugins", "routePlugins is Gloo's pre-1.0 API; gateway.solo.io/v1 routes have options"));

  /** A protobuf field name, in either of protojson's spellings. */
  private static final java.util.regex.Pattern PROTO_FIELD_NAME =
      java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private GlooFeatures() {
  }

  /** {@code field} with every character outside printable ASCII written as a \\uXXXX escape, at most 80 of them. */
  private static String visible(String field) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length() && i < 80; i++) {
      char c = field.charAt(i);
      out.append(c >= 0x21 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c));
    }
    return field.length() > 80 ? out + "..." : out.toString();
  }

  /** The message for {@code field} of a Gloo {@code kind}'s object that Holdfast does not read. */
  static String why(String kind, String field) {
    String notGloo = NOT_GLOO.getOrDefault(kind, Map.of()).get(field);
    if (notGloo != null) {
      return NOT_A_GLOO_FIELD + ": " + notGloo + ". Gloo refuses the object too";
    }
    if (!PROTO_FIELD_NAME.matcher(field).matches()) {
      // Gloo's objects are protobuf messages: a key such as "\u00a0\u00a0accessLoggingService" (indentation with
      // no-break spaces, pasted from a web page) names no field of any message, and Gloo's decoding refuses it.
      return NOT_A_GLOO_FIELD + ": \"" + visible(field) + "\" is not a field name (protobuf field names are letters,"
          + " digits and underscores); look for no-break spaces or tabs in the indentation. Gloo refuses the object"
          + " too";
    }
    if (EDGE_POLICIES.contains(field)) {
      return field + " (an edge policy: authentication, rate limiting or access logging) is not read from Gloo's"
          + " kinds yet; the object is rejected rather than served without it";
    }
    if (field.equals("targetRefs")) {
      return "targetRefs attach options to Kubernetes Gateway API objects (Gloo Gateway's policy attachment, not"
          + " Gloo Edge's optionsConfigRefs); Holdfast reads Gateway API objects with their own filters instead";
    }
    if (GlooExtProc.FIELDS.contains(field)) {
      return field + " here configures an external processing (ext_proc) filter, which Holdfast reads only from the"
          + " Settings' extProc; the object is rejected rather than served without it";
    }
    if (SOLO_ENVOY.contains(field)) {
      return field + " needs Solo's own Envoy build (or a Solo service) and has no upstream-Envoy equivalent in"
          + " Holdfast; the object is rejected rather than served without it";
    }
    return field + " of a Gloo " + kind + " is not supported by Holdfast (or is not a Gloo field); the object is"
        + " rejected rather than served without it";
  }
}
