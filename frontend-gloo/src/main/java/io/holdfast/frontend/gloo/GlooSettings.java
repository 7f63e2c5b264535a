package io.holdfast.frontend.gloo;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TrafficOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The data-plane part of Gloo's {@code Settings} ({@code gloo.solo.io/v1}): the external authorisation server
 * ({@code spec.extauth}) that {@code customAuth} options ask, and the rate-limit server ({@code spec.ratelimitServer},
 * Envoy's RLS protocol) that rate-limit descriptors are sent to. Gloo reads one Settings object, {@code default} in
 * its install namespace; Holdfast uses the Settings named {@code default} (the one in {@code gloo-system} if several
 * namespaces hold one).
 *
 * <p>Every other Settings field configures Gloo's own processes (config and secret sources, discovery, watched
 * namespaces, the validation webhook, xDS addresses, Consul and Kubernetes clients, console, observability) and is
 * read and ignored, as documented in docs/GLOO.md, except {@code gloo.disableGrpcWeb} and
 * {@code gloo.removeUnusedFilters}, which say whether Gloo's proxies translate gRPC-Web ({@link State.Read#grpcWeb});
 * the data-plane fields Holdfast cannot honour reject the Settings when set ({@link #REJECTED_WHEN_SET}); a field
 * that is not Gloo's at all rejects it too.
 */
final class GlooSettings {

  /** The name Gloo's Helm chart gives its Settings, and the only one Gloo reads by default. */
  static final String NAME = "default";
  /** Gloo's default install namespace: the tie-breaker when several namespaces hold a {@code default} Settings. */
  static final String NAMESPACE = "gloo-system";

  /** Gloo's timeout for the authorisation call when {@code requestTimeout} is not set (also Envoy's). */
  static final Duration AUTH_TIMEOUT = Duration.ofMillis(200);
  /** Gloo's body limit when {@code requestBody} is given without {@code maxRequestBytes}. */
  static final int AUTH_BODY_BYTES = 4096;
  /** Gloo's timeout for the rate-limit call ({@code DefaultTimeout} of its rate-limit plugin). */
  static final Duration RATE_LIMIT_TIMEOUT = Duration.ofMillis(100);
  /** The RLS domain Gloo sends Envoy-style rate limits under; a standard RLS's config names it. */
  static final String RATE_LIMIT_DOMAIN = "custom";

  private static final Set<String> READ = Set.of("extauth", "ratelimitServer", "extProc");
  /**
   * Gloo's grpcweb plugin adds Envoy's {@code grpc_web} filter to every HTTP connection manager unless the Settings
   * (or the Gateway's {@code httpGateway.options.grpcWeb}) say otherwise; also what a Gateway gets when no Settings
   * is read (absent, or rejected: its other fields are not served, and this one is Gloo's default).
   */
  static final boolean GLOO_GRPC_WEB = true;
  /** Fields that configure Gloo's own processes; read (the name is Gloo's) and ignored. */
  static final Set<String> GLOO_PROCESS = Set.of("discoveryNamespace", "watchNamespaces", "watchNamespaceSelectors",
      "kubernetesConfigSource", "directoryConfigSource", "consulKvSource", "kubernetesSecretSource",
      "vaultSecretSource", "directorySecretSource", "secretOptions", "kubernetesArtifactSource",
      "directoryArtifactSource", "consulKvArtifactSource", "refreshRate", "devMode", "linkerd", "knative",
      "discovery", "gloo", "gateway", "consul", "consulDiscovery", "kubernetes", "extensions",
      "observabilityOptions", "upstreamOptions", "consoleOptions", "ipV4Only", "graphqlOptions");
  /** Data-plane fields Holdfast does not honour: set (non-empty), they reject the Settings. */
  static final Set<String> REJECTED_WHEN_SET = Set.of("namedExtauth", "ratelimit", "rbac", "cachingServer",
      "extProcEarly", "extProcLate");

  private static final Set<String> EXTAUTH = Set.of("extauthzServerRef", "httpService", "grpcService",
      "requestTimeout", "failureModeAllow", "requestBody", "transportApiVersion", "statusOnError", "statPrefix",
      "userIdHeader", "clearRouteCache");
  private static final Set<String> HTTP_SERVICE = Set.of("pathPrefix", "request", "response");
  private static final Set<String> HTTP_REQUEST = Set.of("allowedHeaders");
  private static final Set<String> HTTP_RESPONSE = Set.of("allowedUpstreamHeaders", "allowedClientHeaders");
  private static final Set<String> GRPC_SERVICE = Set.of("authority");
  private static final Set<String> BODY = Set.of("maxRequestBytes", "allowPartialMessage", "packAsBytes");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> RATELIMIT_SERVER = Set.of("ratelimitServerRef", "requestTimeout", "denyOnFail",
      "enableXRatelimitHeaders", "rateLimitBeforeAuth", "grpcService");

  /** What the Settings in use says, as far as Holdfast reads it. */
  sealed interface State {
    /** No Settings named {@code default}: no servers configured. */
    record Absent() implements State {
    }

    /** The Settings in use is rejected (its status says why): its servers are not used. */
    record Rejected(ResourceKey key) implements State {
    }

    /**
     * @param extAuth    the {@code customAuth} service, with Gloo's defaults; empty without {@code extauthzServerRef}
     * @param rateLimit  the rate-limit server; empty without {@code ratelimitServerRef}
     * @param authTimeout     the authorisation call's timeout (also bounds a pass-through service's)
     * @param authBodyBytes   the request body sent to the authorisation service, if any
     * @param extProc         the {@code extProc} filter's service; empty without {@code extProc}
     * @param grpcWeb         whether a Gateway that does not say ({@code httpGateway.options.grpcWeb}) translates
     *                        gRPC-Web: {@code gloo.disableGrpcWeb} negated, or, unset, {@code removeUnusedFilters}
     *                        negated (Gloo's grpcweb plugin); both unset, {@link #GLOO_GRPC_WEB}
     */
    record Read(ResourceKey key, Optional<SecurityOptions.ExtAuthz> extAuth,
        Optional<TrafficOptions.RateLimitService> rateLimit, Duration authTimeout, Optional<Integer> authBodyBytes,
        Optional<TrafficOptions.ExtProc> extProc, boolean grpcWeb) implements State {

      /** This Settings with {@code value} as the gRPC-Web default, every other field as it is. */
      Read withGrpcWeb(boolean value) {
        return new Read(key, extAuth, rateLimit, authTimeout, authBodyBytes, extProc, value);
      }
    }
  }

  private GlooSettings() {
  }

  /** Which of the Settings objects (by key) Gloo would read; empty if none is named {@code default}. */
  static Optional<ResourceKey> inUse(Set<ResourceKey> settings) {
    List<ResourceKey> named = settings.stream().filter(k -> k.name().equals(NAME)).toList();
    if (named.size() == 1) {
      return Optional.of(named.get(0));
    }
    return named.stream().filter(k -> k.namespace().equals(NAMESPACE)).findFirst();
  }

  /** Reads one Settings' spec; findings go to {@code spec}'s list (errors reject the Settings). */
  static State.Read read(ResourceKey key, Node spec) {
    for (String field : spec.json.isObject() ? spec.json.propertyNames() : List.<String>of()) {
      if (READ.contains(field) || GLOO_PROCESS.contains(field)) {
        continue;
      }
      if (REJECTED_WHEN_SET.contains(field)) {
        if (isSet(spec.json.get(field), field)) {
          spec.error(spec.at(field), GlooFeatures.UNSUPPORTED, rejectedWhy(field));
        }
        continue;
      }
      spec.error(spec.at(field), GlooFeatures.UNSUPPORTED, GlooFeatures.why("Settings", field));
    }
    Node extauth = spec.child("extauth").only("Settings' extauth", EXTAUTH);
    Duration timeout = extauth.duration("requestTimeout").orElse(AUTH_TIMEOUT);
    Optional<Integer> body = Optional.empty();
    if (extauth.has("requestBody")) {
      Node requestBody = extauth.child("requestBody").only("requestBody", BODY);
      refuseTrue(requestBody, "allowPartialMessage", "Holdfast's ext_authz sends a body only up to its limit and"
          + " answers 413 beyond it");
      refuseTrue(requestBody, "packAsBytes", "Holdfast sends the body as text");
      int bytes = requestBody.integer("maxRequestBytes").filter(b -> b > 0).orElse(AUTH_BODY_BYTES);
      body = Optional.of(bytes);
    }
    Optional<SecurityOptions.ExtAuthz> service = Optional.empty();
    if (extauth.has("extauthzServerRef")) {
      service = Optional.of(extAuth(extauth, ref(extauth.child("extauthzServerRef"), key.namespace()), timeout,
          body));
    }
    Optional<TrafficOptions.RateLimitService> rateLimit = Optional.empty();
    Node server = spec.child("ratelimitServer").only("ratelimitServer", RATELIMIT_SERVER);
    refuseTrue(server, "enableXRatelimitHeaders", "Holdfast's rate-limit filter does not add X-RateLimit headers");
    refuseTrue(server, "rateLimitBeforeAuth", "Holdfast runs rate limits after authentication and authorisation");
    emptyOrAbsent(server.child("grpcService").only("grpcService", GRPC_SERVICE), "authority");
    if (server.has("ratelimitServerRef")) {
      rateLimit = Optional.of(new TrafficOptions.RateLimitService(ref(server.child("ratelimitServerRef"),
          key.namespace()), RATE_LIMIT_DOMAIN, Optional.of(server.duration("requestTimeout")
          .orElse(RATE_LIMIT_TIMEOUT)), !server.bool("denyOnFail").orElse(false)));
    }
    Optional<TrafficOptions.ExtProc> extProc = spec.has("extProc")
        ? GlooExtProc.settings(spec.child("extProc"), key.namespace()) : Optional.empty();
    return new State.Read(key, service, rateLimit, timeout, body, extProc, grpcWeb(spec.child("gloo")));
  }

  /**
   * Gloo's grpcweb plugin: {@code disableGrpcWeb} (a BoolValue) decides when set; unset, the filter is left out when
   * {@code removeUnusedFilters} is true. The rest of {@code gloo} configures Gloo's own process and is not read.
   */
  private static boolean grpcWeb(Node gloo) {
    Optional<Boolean> disable = gloo.bool("disableGrpcWeb");
    return !disable.orElseGet(() -> gloo.bool("removeUnusedFilters").orElse(!GLOO_GRPC_WEB));
  }

  /** Whether a Gateway that does not say translates gRPC-Web under {@code settings} ({@link State.Read#grpcWeb}). */
  static boolean grpcWeb(State settings) {
    return settings instanceof State.Read read ? read.grpcWeb() : GLOO_GRPC_WEB;
  }

  /** The {@code customAuth} service: gRPC unless {@code httpService} is given, as in Gloo. */
  private static SecurityOptions.ExtAuthz extAuth(Node extauth, ObjectRef upstream, Duration timeout,
      Optional<Integer> body) {
    refuseTrue(extauth, "clearRouteCache", "Holdfast's routes are chosen before authorisation and not again");
    emptyOrAbsent(extauth, "userIdHeader");
    Optional<Integer> status = extauth.integer("statusOnError");
    if (status.isPresent() && status.get() != 0 && status.get() != 403) {
      extauth.error(extauth.at("statusOnError"), GlooFeatures.UNSUPPORTED, "statusOnError " + status.get()
          + ": Holdfast answers 403 when the authorisation service fails (Gloo's default)");
    }
    Optional<String> version = extauth.string("transportApiVersion");
    if (version.isPresent() && !version.get().equals("V3") && !version.get().equals("0")) {
      extauth.error(extauth.at("transportApiVersion"), GlooFeatures.UNSUPPORTED, "only V3 (Gloo's only value)");
    }
    boolean failureModeAllow = extauth.bool("failureModeAllow").orElse(false);
    if (extauth.has("httpService") && extauth.has("grpcService")) {
      extauth.error(extauth.path, io.holdfast.api.Reasons.CONFLICTING_FIELDS,
          "one of httpService and grpcService");
    }
    if (extauth.has("httpService")) {
      Node http = extauth.child("httpService").only("httpService", HTTP_SERVICE);
      Node request = http.child("request");
      request.only("httpService.request", HTTP_REQUEST);
      Node response = http.child("response").only("httpService.response", HTTP_RESPONSE);
      SecurityOptions.HttpAuthz httpAuthz = new SecurityOptions.HttpAuthz(upstream,
          http.string("pathPrefix").orElse(""), response.strings("allowedUpstreamHeaders"),
          response.strings("allowedClientHeaders"));
      return new SecurityOptions.ExtAuthz(Optional.empty(), Optional.of(httpAuthz), timeout, failureModeAllow,
          request.strings("allowedHeaders"), body, false);
    }
    emptyOrAbsent(extauth.child("grpcService").only("grpcService", GRPC_SERVICE), "authority");
    return new SecurityOptions.ExtAuthz(Optional.of(upstream), Optional.empty(), timeout, failureModeAllow,
        List.of(), body, false);
  }

  static ObjectRef ref(Node ref, String defaultNamespace) {
    ref.only("reference", REF);
    return new ObjectRef(ref.requiredString("name").orElse(""),
        Optional.of(ref.string("namespace").filter(n -> !n.isEmpty()).orElse(defaultNamespace)));
  }

  private static void refuseTrue(Node node, String field, String why) {
    if (node.bool(field).orElse(false)) {
      node.error(node.at(field), GlooFeatures.UNSUPPORTED, field + ": " + why + "; the Settings is rejected"
          + " rather than served otherwise");
    }
  }

  private static void emptyOrAbsent(Node node, String field) {
    if (node.string(field).filter(s -> !s.isEmpty()).isPresent()) {
      node.error(node.at(field), GlooFeatures.UNSUPPORTED, field + " is not supported by Holdfast; the Settings is"
          + " rejected rather than served without it");
    }
  }

  /** Whether a {@link #REJECTED_WHEN_SET} field asks for anything (Gloo's Helm chart writes some of them empty). */
  private static boolean isSet(tools.jackson.databind.JsonNode value, String field) {
    if (value == null || value.isNull()) {
      return false;
    }
    if (field.equals("rbac")) {
      return value.path("requireRbac").asBoolean(false) || value.size() > 1
          || (value.size() == 1 && !value.has("requireRbac"));
    }
    if (field.equals("ratelimit")) {
      return value.path("descriptors").size() > 0 || value.path("setDescriptors").size() > 0
          || value.propertyNames().stream().anyMatch(n -> !n.equals("descriptors") && !n.equals("setDescriptors"));
    }
    return !value.isObject() || value.size() > 0;
  }

  private static String rejectedWhy(String field) {
    return switch (field) {
      case "ratelimit" -> "ratelimit holds the rate-limit server's own limits (Solo's rate limiter reads them from"
          + " Gloo); Holdfast speaks Envoy's RLS protocol and cannot push limits to the server: keep them in the"
          + " server's configuration and remove them here";
      case "rbac" -> "rbac.requireRbac (refuse every virtual host without rbac options) is not honoured by Holdfast;"
          + " the Settings is rejected rather than serving those virtual hosts open";
      case "namedExtauth" -> "namedExtauth (several authorisation servers chosen by customAuth.name) is not"
          + " supported by Holdfast: configure one server in extauth";
      default -> field + " needs Solo's own Envoy build or a Solo service; the Settings is rejected rather than"
          + " served without it";
    };
  }

  /** The Settings' findings as one message for referrers (e.g. a customAuth VirtualService). */
  static String describe(State state) {
    if (state instanceof State.Rejected r) {
      return "Settings " + r.key().namespace() + "/" + r.key().name() + " is rejected; see its status";
    }
    if (state instanceof State.Read r) {
      return "Settings " + r.key().namespace() + "/" + r.key().name() + " does not configure it";
    }
    return "no Settings named " + NAME + " configures it";
  }
}
