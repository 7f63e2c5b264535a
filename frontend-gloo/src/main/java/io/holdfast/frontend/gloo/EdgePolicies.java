package io.holdfast.frontend.gloo;

import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Route;
import io.holdfast.api.RouteAction;
import io.holdfast.api.RouteOptions;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.TrafficOptions;
import io.holdfast.api.VirtualHostOptions;
import io.holdfast.ir.Finding;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gloo's external authorisation and rate-limit options of one VirtualService or RouteTable ({@code extauth},
 * {@code rateLimitConfigs}, {@code ratelimit} in a virtual host's or a route's {@code options}) as Holdfast's
 * {@code security.extAuthz} and {@code rateLimit.descriptors}.
 *
 * <p>Gloo's semantics: a route's {@code extauth} replaces its virtual host's ({@code disable: true} turns it off);
 * {@code customAuth} asks the server of Gloo's Settings ({@link GlooSettings}); {@code configRef} names an
 * AuthConfig ({@link AuthConfigReader}). Holdfast defines the service on the VirtualService, so a service only
 * routes name is lifted to it and the VirtualService's other routes turn it off; two different services in one
 * virtual host cannot be written in Holdfast and reject the object. Rate-limit actions of a route replace its
 * virtual host's unless {@code includeVhRateLimits} (Envoy's rule).
 *
 * <p><b>Fails closed.</b> A reference that does not resolve (an AuthConfig or RateLimitConfig that is missing or
 * rejected, no server in the Settings) is an error on the object's status, and every route it applies to is served
 * as a refusal (403 for authorisation, 503 for rate limits) naming the reason: the object is read as it is, and no
 * route is ever served open because of it. Being errors, these leave the object's state Rejected.
 */
final class EdgePolicies {

  static final String AUTH_CONFIG_NOT_FOUND = "AuthConfigNotFound";
  static final String AUTH_CONFIG_REJECTED = "AuthConfigRejected";
  static final String AUTH_SERVER_NOT_CONFIGURED = "ExtAuthServerNotConfigured";
  static final String RATE_LIMIT_CONFIG_NOT_FOUND = "RateLimitConfigNotFound";
  static final String RATE_LIMIT_CONFIG_REJECTED = "RateLimitConfigRejected";
  static final String RATE_LIMIT_SERVER_NOT_CONFIGURED = "RateLimitServerNotConfigured";
  /** Two different authorisation services in one virtual host. */
  static final String CONFLICTING_AUTH = "ConflictingExtAuth";

  /** What a refused route answers: authorisation that cannot be applied, and rate limits. */
  static final int AUTH_REFUSAL_STATUS = 403;
  static final int RATE_LIMIT_REFUSAL_STATUS = 503;

  private static final Set<String> EXTAUTH = Set.of("disable", "configRef", "customAuth");
  private static final Set<String> CUSTOM_AUTH = Set.of("contextExtensions", "name");
  private static final Set<String> REFS = Set.of("refs");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> HOST_RATELIMIT = Set.of("rateLimits", "localRatelimit");
  private static final Set<String> ROUTE_RATELIMIT = Set.of("rateLimits", "includeVhRateLimits", "localRatelimit");

  /** The option fields this class reads, in a virtual host's and a route's {@code options}. */
  static final Set<String> FIELDS = UpstreamReader.union(Set.of("extauth", "rateLimitConfigs", "ratelimit"),
      GlooExtProc.FIELDS);

  /** What one build read of the objects these options name, shared by every object's {@link EdgePolicies}. */
  record Context(GlooSettings.State settings, Map<ResourceKey, Optional<AuthConfigReader.PassThrough>> authConfigs,
      Map<ResourceKey, Optional<List<TrafficOptions.Descriptor>>> rateLimitConfigs, Destinations destinations) {
  }

  /** A virtual host's or route's {@code extauth}. */
  sealed interface Auth {
    /** Not set: a route takes its virtual host's. */
    record Inherit() implements Auth {
    }

    record Off() implements Auth {
    }

    record Use(SecurityOptions.ExtAuthz service) implements Auth {
    }

    /** Cannot be applied: the routes it covers refuse every request. */
    record Refuse(Finding why) implements Auth {
    }
  }

  /** A virtual host's or route's rate limits: empty descriptors and no refusal means not set. */
  record Limits(Optional<List<TrafficOptions.Descriptor>> descriptors, boolean includeHost, Optional<Finding> refuse) {
    static final Limits INHERIT = new Limits(Optional.empty(), false, Optional.empty());
  }

  /** What one {@code options} object says. */
  record Read(Auth auth, Limits limits) {
    static final Read NONE = new Read(new Auth.Inherit(), Limits.INHERIT);
  }

  private final Context context;
  private final String namespace;
  private final boolean virtualService;
  private final List<Finding> refusals = new ArrayList<>();
  private Read host = Read.NONE;
  /** Services routes name on their own, to lift to the VirtualService. */
  private final Set<SecurityOptions.ExtAuthz> routeServices = new LinkedHashSet<>();
  /** Routes (by identity) with no authorisation of their own or their host's, to turn a lifted service off on. */
  private final Map<Route, Boolean> withoutAuth = new IdentityHashMap<>();
  /** Routes (by identity) whose rate limits add their virtual host's. */
  private final Map<Route, Boolean> includeHost = new IdentityHashMap<>();
  /** How to add the Upstream of each pass-through server read, by the service asking it. */
  private final Map<SecurityOptions.ExtAuthz, Runnable> addresses = new java.util.HashMap<>();
  /** The service the VirtualService asks, once finished. */
  private Optional<SecurityOptions.ExtAuthz> served = Optional.empty();

  /**
   * @param namespace      the object's namespace (the default of its references)
   * @param virtualService a VirtualService (a RouteTable's routes do not know their virtual host)
   */
  EdgePolicies(Context context, String namespace, boolean virtualService) {
    this.context = context;
    this.namespace = namespace;
    this.virtualService = virtualService;
  }

  /** The errors that leave the object served with refusing routes. */
  List<Finding> refusals() {
    return refusals;
  }

  /** Reads the virtual host's {@code options}; call before its routes are read. */
  void host(Node options) {
    host = read(options, false);
  }

  /** Reads a virtual host's or route's {@code options} (also to check an option object). */
  Read read(Node options, boolean route) {
    if (!options.json.isObject()) {
      return Read.NONE;
    }
    GlooExtProc.read(options, context.settings());
    Auth auth = options.has("extauth") ? auth(options.child("extauth").only("extauth", EXTAUTH))
        : new Auth.Inherit();
    List<TrafficOptions.Descriptor> descriptors = new ArrayList<>();
    Optional<Finding> refuse = Optional.empty();
    boolean set = false;
    boolean withHost = false;
    if (options.has("ratelimit")) {
      Node ratelimit = options.child("ratelimit").only("ratelimit", route ? ROUTE_RATELIMIT : HOST_RATELIMIT);
      if (ratelimit.has("localRatelimit")) {
        ratelimit.error(ratelimit.at("localRatelimit"), GlooFeatures.UNSUPPORTED, "localRatelimit is not read from"
            + " Gloo's kinds yet (Gloo shares one bucket per virtual host; Holdfast's buckets are per route)");
      }
      withHost = ratelimit.bool("includeVhRateLimits").orElse(false);
      if (withHost && !virtualService) {
        ratelimit.error(ratelimit.at("includeVhRateLimits"), GlooFeatures.UNSUPPORTED, "includeVhRateLimits on a"
            + " RouteTable's route: Holdfast replaces the virtual host's rate limits on a route that has its own;"
            + " write the virtual host's actions on the route");
      }
      descriptors.addAll(RateLimitActions.rateLimits(ratelimit, "rateLimits"));
      set = true;
    }
    if (options.has("rateLimitConfigs")) {
      set = true;
      Node configs = options.child("rateLimitConfigs").only("rateLimitConfigs", REFS);
      for (Node ref : configs.list("refs")) {
        ref.only("RateLimitConfig reference", REF);
        Optional<String> name = ref.requiredString("name");
        if (name.isEmpty()) {
          continue;
        }
        ResourceKey key = new ResourceKey(GlooKinds.RATELIMIT_GROUP, GlooKinds.RATE_LIMIT_CONFIG,
            ref.string("namespace").filter(n -> !n.isEmpty()).orElse(namespace), name.get());
        Optional<List<TrafficOptions.Descriptor>> found = context.rateLimitConfigs().get(key);
        if (found == null || found.isEmpty()) {
          refuse = refuse.or(() -> Optional.of(new Finding(Finding.Severity.ERROR, ref.path, found == null
              ? RATE_LIMIT_CONFIG_NOT_FOUND : RATE_LIMIT_CONFIG_REJECTED, "RateLimitConfig " + key.namespace() + "/"
              + key.name() + (found == null ? " does not exist" : " is rejected (see its status)") + "; the routes it"
              + " applies to answer " + RATE_LIMIT_REFUSAL_STATUS + " until it is fixed")));
        } else if (descriptors.size() + found.get().size() > io.holdfast.api.TrafficChecks.MAX_DESCRIPTORS) {
          // Bound: refs may repeat one config thousands of times; Holdfast serves at most this many per route.
          ref.error(ref.path, io.holdfast.api.TrafficReasons.TOO_MANY_DESCRIPTORS, "more than "
              + io.holdfast.api.TrafficChecks.MAX_DESCRIPTORS + " rate limits on one virtual host or route");
          break;
        } else {
          descriptors.addAll(found.get());
        }
      }
    }
    if (set && !descriptors.isEmpty() && refuse.isEmpty() && rateLimitServer().isEmpty()) {
      refuse = Optional.of(new Finding(Finding.Severity.ERROR, options.path, RATE_LIMIT_SERVER_NOT_CONFIGURED,
          "rate limits need a rate-limit server, and " + GlooSettings.describe(context.settings()) + " (its"
              + " ratelimitServer.ratelimitServerRef); the routes they apply to answer " + RATE_LIMIT_REFUSAL_STATUS));
    }
    Limits limits = !set ? Limits.INHERIT : new Limits(Optional.of(List.copyOf(descriptors)), withHost, refuse);
    return new Read(auth, limits);
  }

  private Auth auth(Node extauth) {
    List<String> given = EXTAUTH.stream().filter(extauth::has).sorted().toList();
    if (given.size() > 1) {
      extauth.error(extauth.path, Reasons.CONFLICTING_FIELDS, "extauth has one of disable, configRef, customAuth,"
          + " got " + given);
      return new Auth.Inherit();
    }
    if (extauth.has("disable")) {
      return extauth.bool("disable").orElse(false) ? new Auth.Off() : new Auth.Inherit();
    }
    if (extauth.has("customAuth")) {
      Node custom = extauth.child("customAuth").only("customAuth", CUSTOM_AUTH);
      if (!custom.stringMap("contextExtensions").isEmpty()) {
        custom.error(custom.at("contextExtensions"), GlooFeatures.UNSUPPORTED, "contextExtensions (per-route"
            + " context for the authorisation server) are not supported by Holdfast");
      }
      if (custom.string("name").filter(n -> !n.isEmpty()).isPresent()) {
        custom.error(custom.at("name"), GlooFeatures.UNSUPPORTED, "customAuth.name picks one of Settings'"
            + " namedExtauth servers, which Holdfast does not read; use the Settings' extauth server");
      }
      Optional<SecurityOptions.ExtAuthz> service = context.settings() instanceof GlooSettings.State.Read read
          ? read.extAuth() : Optional.empty();
      return service.<Auth>map(Auth.Use::new).orElseGet(() -> new Auth.Refuse(new Finding(Finding.Severity.ERROR,
          custom.path, AUTH_SERVER_NOT_CONFIGURED, "customAuth asks the authorisation server of Gloo's Settings,"
              + " and " + GlooSettings.describe(context.settings()) + " (extauth.extauthzServerRef); the routes it"
              + " applies to answer " + AUTH_REFUSAL_STATUS)));
    }
    if (!extauth.has("configRef")) {
      return new Auth.Inherit();
    }
    Node ref = extauth.child("configRef").only("configRef", REF);
    Optional<String> name = ref.requiredString("name");
    if (name.isEmpty()) {
      return new Auth.Inherit();
    }
    ResourceKey key = new ResourceKey(GlooKinds.ENTERPRISE_GROUP, GlooKinds.AUTH_CONFIG,
        ref.string("namespace").filter(n -> !n.isEmpty()).orElse(namespace), name.get());
    Optional<AuthConfigReader.PassThrough> found = context.authConfigs().get(key);
    if (found == null || found.isEmpty()) {
      return new Auth.Refuse(new Finding(Finding.Severity.ERROR, ref.path, found == null ? AUTH_CONFIG_NOT_FOUND
          : AUTH_CONFIG_REJECTED, "AuthConfig " + key.namespace() + "/" + key.name() + (found == null
          ? " does not exist" : " is rejected (see its status)") + "; the routes it applies to answer "
          + AUTH_REFUSAL_STATUS + " until it is fixed"));
    }
    AuthConfigReader.PassThrough server = found.get();
    GlooSettings.State settings = context.settings();
    // Gloo's Envoy waits the Settings' requestTimeout for Solo's service, which waits at most connectionTimeout
    // for the pass-through server: asked directly, the server gets the shorter of the two.
    java.time.Duration settingsTimeout = settings instanceof GlooSettings.State.Read read ? read.authTimeout()
        : GlooSettings.AUTH_TIMEOUT;
    java.time.Duration timeout = server.timeout().compareTo(settingsTimeout) < 0 ? server.timeout() : settingsTimeout;
    Optional<Integer> body = settings instanceof GlooSettings.State.Read read ? read.authBodyBytes() : Optional.empty();
    ObjectRef upstream = Destinations.authzRef(key.namespace(), server.host(), server.port());
    SecurityOptions.ExtAuthz service = new SecurityOptions.ExtAuthz(Optional.of(upstream), Optional.empty(), timeout,
        server.failureModeAllow(), List.of(), body, false);
    // Its Upstream is added only once an accepted VirtualService uses it (commit), not for option objects or
    // objects rejected after reading.
    addresses.put(service, () -> context.destinations().authzAddress(key.namespace(), server.host(), server.port()));
    return new Auth.Use(service);
  }

  private Optional<TrafficOptions.RateLimitService> rateLimitServer() {
    return context.settings() instanceof GlooSettings.State.Read read ? read.rateLimit() : Optional.empty();
  }

  /**
   * The Holdfast route for a Gloo route whose options read as {@code own}: a refusal when its authorisation or
   * rate limits (its own, or its virtual host's it inherits) cannot be applied, else {@code route} with them.
   */
  Route route(Route route, Read own, Node at) {
    Auth auth = own.auth() instanceof Auth.Inherit && virtualService ? host.auth() : own.auth();
    Limits limits = own.limits().equals(Limits.INHERIT) && virtualService ? host.limits() : own.limits();
    if (auth instanceof Auth.Refuse refuse) {
      return refused(route, refuse.why(), AUTH_REFUSAL_STATUS);
    }
    if (limits.refuse().isPresent()) {
      return refused(route, limits.refuse().get(), RATE_LIMIT_REFUSAL_STATUS);
    }
    RouteOptions options = route.options();
    SecurityOptions security = options.security();
    if (own.auth() instanceof Auth.Off) {
      security = withExtAuthz(security, disabled());
    } else if (own.auth() instanceof Auth.Use use && !virtualService) {
      at.error(at.at("options.extauth"), GlooFeatures.UNSUPPORTED, "an authorisation service on a RouteTable's"
          + " route: Holdfast defines the service on the VirtualService (as its extauth option); a RouteTable's"
          + " route can only turn it off (disable: true)");
    } else if (own.auth() instanceof Auth.Use use) {
      if (host.auth() instanceof Auth.Use hostUse && !hostUse.service().equals(use.service())) {
        at.error(at.at("options.extauth"), CONFLICTING_AUTH, "this route's authorisation service differs from"
            + " its virtual host's; Holdfast asks one service per VirtualService");
      }
      routeServices.add(use.service());
    } else if (virtualService && !(host.auth() instanceof Auth.Use)) {
      withoutAuth.put(route, true); // may need turning off if a route's service is lifted to the host
    }
    TrafficOptions.Route traffic = options.traffic();
    if (!own.limits().equals(Limits.INHERIT)) {
      traffic = withRateLimits(traffic, own.limits().descriptors().orElse(List.of()));
    }
    Route out = route.withOptions(withSecurityAndTraffic(options, security, traffic));
    if (own.limits().includeHost() && virtualService) {
      includeHost.put(out, true);
    }
    if (withoutAuth.containsKey(route)) {
      withoutAuth.remove(route);
      withoutAuth.put(out, true);
    }
    return out;
  }

  private Route refused(Route route, Finding why, int status) {
    if (!refusals.contains(why)) {
      refusals.add(why);
    }
    return new Route(route.name(), route.match(), new RouteAction.DirectResponse(status, Optional.of(
        "refused by Holdfast: " + why.reason() + "\n")), Optional.empty(), Optional.empty(), Optional.empty(),
        RouteOptions.NONE, route.inheritPath()); // the refusal covers the path the route would have served
  }

  /** The virtual host's options and routes once every route is read (a VirtualService's only). */
  record Host(VirtualHostOptions options, List<Route> routes) {
  }

  Host finish(VirtualHostOptions options, List<Route> routes, Node at) {
    Optional<SecurityOptions.ExtAuthz> service = host.auth() instanceof Auth.Use use ? Optional.of(use.service())
        : Optional.empty();
    if (service.isEmpty() && routeServices.size() > 1) {
      at.error(at.at("routes"), CONFLICTING_AUTH, routeServices.size() + " different authorisation services on"
          + " routes of one virtual host; Holdfast asks one service per VirtualService");
    }
    if (service.isEmpty() && !routeServices.isEmpty()) {
      service = Optional.of(routeServices.iterator().next());
    }
    SecurityOptions security = options.security();
    if (service.isPresent()) {
      security = withExtAuthz(security, service.get());
    }
    served = service;
    TrafficOptions.Route traffic = options.traffic();
    List<TrafficOptions.Descriptor> hostLimits = host.limits().descriptors().orElse(List.of());
    if (host.limits().descriptors().isPresent() && host.limits().refuse().isEmpty()) {
      traffic = withRateLimits(traffic, hostLimits);
    }
    // A service only routes name: the routes without one of their own (host Inherit or Off) turn it off.
    boolean lifted = !(host.auth() instanceof Auth.Use) && service.isPresent();
    List<Route> out = new ArrayList<>();
    for (Route route : routes) {
      Route r = route;
      if (lifted && withoutAuth.containsKey(route)) {
        r = r.withOptions(r.options().withSecurity(withExtAuthz(r.options().security(), disabled())));
      }
      if (includeHost.containsKey(route)) {
        List<TrafficOptions.Descriptor> all = new ArrayList<>(hostLimits);
        all.addAll(r.options().traffic().rateLimits().orElse(List.of()));
        r = r.withOptions(r.options().withTraffic(withRateLimits(r.options().traffic(), all)));
      }
      out.add(r);
    }
    return new Host(new VirtualHostOptions(options.headerManipulation(), options.cors(), options.retries(), security,
        traffic), out);
  }

  /** Adds what the accepted VirtualService's service needs to the config (a pass-through server's Upstream). */
  void commit() {
    served.map(addresses::get).ifPresent(Runnable::run);
  }

  private static SecurityOptions.ExtAuthz disabled() {
    return new SecurityOptions.ExtAuthz(Optional.empty(), Optional.empty(), SecurityOptions.DEFAULT_AUTHZ_TIMEOUT,
        false, List.of(), Optional.empty(), true);
  }

  private static SecurityOptions withExtAuthz(SecurityOptions security, SecurityOptions.ExtAuthz authz) {
    return security.withExtAuthz(Optional.of(authz));
  }

  private static TrafficOptions.Route withRateLimits(TrafficOptions.Route traffic,
      List<TrafficOptions.Descriptor> descriptors) {
    return traffic.withRateLimits(Optional.of(descriptors));
  }

  private static RouteOptions withSecurityAndTraffic(RouteOptions o, SecurityOptions security,
      TrafficOptions.Route traffic) {
    return o.withSecurity(security).withTraffic(traffic);
  }
}
