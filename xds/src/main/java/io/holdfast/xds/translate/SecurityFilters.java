package io.holdfast.xds.translate;

import com.google.protobuf.Empty;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.CidrRange;
import io.envoyproxy.envoy.config.core.v3.GrpcService;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.extensions.filters.http.basic_auth.v3.BasicAuth;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.AuthorizationResponse;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.BufferSettings;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.HttpService;
import io.envoyproxy.envoy.type.matcher.v3.ListStringMatcher;
import io.envoyproxy.envoy.config.core.v3.DataSource;
import io.envoyproxy.envoy.config.core.v3.HttpUri;
import io.envoyproxy.envoy.config.rbac.v3.Permission;
import io.envoyproxy.envoy.config.rbac.v3.Policy;
import io.envoyproxy.envoy.config.rbac.v3.Principal;
import io.envoyproxy.envoy.config.rbac.v3.RBAC;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtClaimToHeader;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtHeader;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtProvider;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtRequirement;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtRequirementOrList;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.RemoteJwks;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.matcher.v3.ListMatcher;
import io.envoyproxy.envoy.type.matcher.v3.MetadataMatcher;
import io.envoyproxy.envoy.type.matcher.v3.OrMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.envoyproxy.envoy.type.matcher.v3.ValueMatcher;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ListenerSecurity;
import io.holdfast.ir.RouteSecurity;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The security filters of a connection manager, in the order Envoy runs them after CORS: authentication (the
 * OAuth2 logins, {@link OAuth2Filters}, then {@code jwt_authn}, as Envoy Gateway orders them: a login's forwarded
 * bearer token can then be verified; then one {@code basic_auth} per user set), one {@code ext_authz} per service,
 * a second {@code jwt_authn} ({@link #JWT_AFTER_AUTHZ}: tokens the authorisation service may have put in the
 * request), then {@code rbac}, so the access rules can read the claims of tokens either stage verified. Each
 * filter is there only when some route of the chain uses it; its connection-manager config holds
 * what routes share (the JWT providers and the requirements routes name) and does nothing on its own, and each
 * route that uses it carries its settings in {@code typed_per_filter_config}. Envoy listeners only: gRPC
 * clients get none of these (their routes carry no security per-filter configs either).
 */
final class SecurityFilters {

  static final String JWT_AUTHN = "envoy.filters.http.jwt_authn";
  /**
   * The second {@code jwt_authn} instance, after external authorisation. Envoy finds a route's per-filter config
   * by this name; both instances write payloads to the same metadata namespace ({@link #JWT_METADATA}, the
   * extension's name, not the instance's), one entry per provider, so claim rules read either stage alike.
   */
  static final String JWT_AFTER_AUTHZ = JWT_AUTHN + "/after-ext-authz";
  static final String RBAC_FILTER = "envoy.filters.http.rbac";
  /** One filter per authorisation service: this, then {@code /} and the service's name. */
  static final String EXT_AUTHZ = "envoy.filters.http.ext_authz";
  /** One filter per basic-auth user set: this, then {@code /} and the set's name. */
  static final String BASIC_AUTH = "envoy.filters.http.basic_auth";
  /** Where Envoy's jwt_authn writes verified payloads, one entry per provider (its payload_in_metadata). */
  private static final String JWT_METADATA = JWT_AUTHN;

  private SecurityFilters() {
  }

  /** The security filters for {@code chain}, in order; empty when no route uses any. */
  static List<HttpFilter> filters(Listener.FilterChain.Http chain) {
    Map<String, JwtRequirement> requirements = new LinkedHashMap<>();
    Map<String, JwtRequirement> afterAuthz = new LinkedHashMap<>();
    Set<String> services = new java.util.HashSet<>();
    Set<String> userSets = new java.util.HashSet<>();
    boolean rbac = false;
    for (VirtualHost host : chain.virtualHosts()) {
      for (io.holdfast.ir.Route route : host.routes()) {
        RouteSecurity security = route.security();
        security.jwt().ifPresent(jwt -> requirements.putIfAbsent(requirementName(jwt), requirement(jwt)));
        security.jwtAfterAuthz().ifPresent(jwt -> afterAuthz.putIfAbsent(requirementName(jwt), requirement(jwt)));
        security.extAuthz().ifPresent(services::add);
        security.basicAuth().ifPresent(userSets::add);
        rbac |= security.rbac().isPresent();
      }
    }
    List<HttpFilter> filters = new ArrayList<>(OAuth2Filters.filters(chain));
    // A route's claim rules read payloads its own requirement verified (the front end sees to that).
    if (!requirements.isEmpty()) {
      filters.add(HttpFilter.newBuilder().setName(JWT_AUTHN)
          .setTypedConfig(Protos.pack(jwtAuthentication(chain.security(), requirements))).build());
    }
    // Authentication: each user set's filter is off by default, as the authorisation services' below.
    for (ListenerSecurity.BasicAuthUsers users : chain.security().basicAuth()) {
      if (userSets.contains(users.name())) {
        filters.add(HttpFilter.newBuilder().setName(basicAuthFilter(users.name())).setDisabled(true)
            .setTypedConfig(Protos.pack(basicAuth(users))).build());
      }
    }
    // Each service's filter is off by default, so only the routes that name it (and turn it on) call it.
    for (ListenerSecurity.ExtAuthzService service : chain.security().extAuthz()) {
      if (services.contains(service.name())) {
        filters.add(HttpFilter.newBuilder().setName(extAuthzFilter(service.name())).setDisabled(true)
            .setTypedConfig(Protos.pack(extAuthz(service))).build());
      }
    }
    if (!afterAuthz.isEmpty()) {
      filters.add(HttpFilter.newBuilder().setName(JWT_AFTER_AUTHZ)
          .setTypedConfig(Protos.pack(jwtAuthentication(chain.security(), afterAuthz))).build());
    }
    if (rbac) {
      // No rules at the connection manager: a route without its own RBACPerRoute is not checked.
      filters.add(HttpFilter.newBuilder().setName(RBAC_FILTER)
          .setTypedConfig(Protos.pack(io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.getDefaultInstance()))
          .build());
    }
    return filters;
  }

  /** The clusters the chain's security definitions fetch from (remote JWKS), for the proxies' scopes. */
  static Set<ResourceKey> clusters(Listener.FilterChain.Http chain) {
    Set<ResourceKey> clusters = new LinkedHashSet<>();
    for (ListenerSecurity.JwtProvider provider : chain.security().jwtProviders()) {
      if (provider.jwks() instanceof ListenerSecurity.RemoteJwks remote) {
        clusters.add(remote.cluster());
      }
    }
    chain.security().extAuthz().forEach(service -> clusters.add(service.cluster()));
    clusters.addAll(OAuth2Filters.clusters(chain));
    return clusters;
  }

  /** The SDS secrets the chain's security filters name (OAuth2 credentials), for the proxies' scopes. */
  static Set<String> secrets(Listener.FilterChain.Http chain) {
    return OAuth2Filters.secrets(chain);
  }

  /** The per-route configs of {@code route}'s security on the Envoy route. */
  static void decorate(io.holdfast.ir.Route route, Route.Builder envoy) {
    RouteSecurity security = route.security();
    OAuth2Filters.decorate(route, envoy);
    security.jwt().ifPresent(jwt -> envoy.putTypedPerFilterConfig(JWT_AUTHN,
        Protos.pack(PerRouteConfig.newBuilder().setRequirementName(requirementName(jwt)).build())));
    security.jwtAfterAuthz().ifPresent(jwt -> envoy.putTypedPerFilterConfig(JWT_AFTER_AUTHZ,
        Protos.pack(PerRouteConfig.newBuilder().setRequirementName(requirementName(jwt)).build())));
    // An empty config in a FilterConfig turns on a filter that is off by default (Envoy's per-filter configs).
    security.extAuthz().ifPresent(service -> envoy.putTypedPerFilterConfig(extAuthzFilter(service),
        Protos.pack(FilterConfig.newBuilder().setConfig(com.google.protobuf.Any.getDefaultInstance()).build())));
    security.basicAuth().ifPresent(users -> envoy.putTypedPerFilterConfig(basicAuthFilter(users),
        Protos.pack(FilterConfig.newBuilder().setConfig(com.google.protobuf.Any.getDefaultInstance()).build())));
    security.rbac().ifPresent(rules -> envoy.putTypedPerFilterConfig(RBAC_FILTER, Protos.pack(rbacPerRoute(rules))));
  }

  /** The per-route config of authorisation rules, as {@link #decorate} puts it on a route. */
  static RBACPerRoute rbacPerRoute(RouteSecurity.AccessRules rules) {
    return RBACPerRoute.newBuilder().setRbac(
        io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.newBuilder().setRules(rbac(rules))).build();
  }

  static String extAuthzFilter(String service) {
    return EXT_AUTHZ + "/" + service;
  }

  static String basicAuthFilter(String userSet) {
    return BASIC_AUTH + "/" + userSet;
  }

  /** The users inline (Envoy reads them from no secret service); its config dump redacts the field. */
  private static BasicAuth basicAuth(ListenerSecurity.BasicAuthUsers users) {
    BasicAuth.Builder config = BasicAuth.newBuilder()
        .setUsers(DataSource.newBuilder().setInlineString(users.htpasswd()));
    users.forwardUsernameHeader().ifPresent(config::setForwardUsernameHeader);
    return config.build();
  }

  private static ExtAuthz extAuthz(ListenerSecurity.ExtAuthzService service) {
    ExtAuthz.Builder config = ExtAuthz.newBuilder()
        .setTransportApiVersion(ApiVersion.V3)
        .setFailureModeAllow(service.failureModeAllow());
    if (!service.headersToAuthz().isEmpty()) {
      config.setAllowedHeaders(exact(service.headersToAuthz()));
    }
    service.maxRequestBytes().ifPresent(bytes -> config.setWithRequestBody(BufferSettings.newBuilder()
        .setMaxRequestBytes(bytes)));
    String cluster = EnvoyNames.cluster(service.cluster());
    if (service.protocol() == ListenerSecurity.AuthzProtocol.GRPC) {
      config.setGrpcService(GrpcService.newBuilder()
          .setEnvoyGrpc(GrpcService.EnvoyGrpc.newBuilder().setClusterName(cluster))
          .setTimeout(Protos.duration(service.timeout())));
    } else {
      AuthorizationResponse.Builder response = AuthorizationResponse.newBuilder();
      if (!service.headersToUpstream().isEmpty()) {
        response.setAllowedUpstreamHeaders(exact(service.headersToUpstream()));
      }
      if (!service.headersToClient().isEmpty()) {
        response.setAllowedClientHeaders(exact(service.headersToClient()));
      }
      // The URI's host only names the request's authority; the cluster decides where it goes.
      config.setHttpService(HttpService.newBuilder()
          .setServerUri(HttpUri.newBuilder().setUri("http://" + cluster.replace('/', '.'))
              .setCluster(cluster).setTimeout(Protos.duration(service.timeout())))
          .setPathPrefix(service.pathPrefix())
          .setAuthorizationResponse(response));
    }
    return config.build();
  }

  private static ListStringMatcher exact(List<String> names) {
    ListStringMatcher.Builder list = ListStringMatcher.newBuilder();
    names.forEach(n -> list.addPatterns(StringMatcher.newBuilder().setExact(n).setIgnoreCase(true)));
    return list.build();
  }

  private static JwtAuthentication jwtAuthentication(ListenerSecurity security,
      Map<String, JwtRequirement> requirements) {
    JwtAuthentication.Builder config = JwtAuthentication.newBuilder();
    for (ListenerSecurity.JwtProvider provider : security.jwtProviders()) {
      config.putProviders(provider.name(), provider(provider));
    }
    config.putAllRequirementMap(requirements);
    return config.build();
  }

  private static JwtProvider provider(ListenerSecurity.JwtProvider provider) {
    JwtProvider.Builder envoy = JwtProvider.newBuilder()
        .setIssuer(provider.issuer())
        .addAllAudiences(provider.audiences())
        .setForward(provider.forward())
        // Authorisation rules on claims read the payload from the request's dynamic metadata under this name.
        .setPayloadInMetadata(provider.name());
    if (provider.jwks() instanceof ListenerSecurity.RemoteJwks remote) {
      envoy.setRemoteJwks(RemoteJwks.newBuilder()
          .setHttpUri(HttpUri.newBuilder().setUri(remote.uri()).setCluster(EnvoyNames.cluster(remote.cluster()))
              .setTimeout(Protos.duration(remote.timeout())))
          .setCacheDuration(Protos.duration(remote.cacheDuration())));
    } else if (provider.jwks() instanceof ListenerSecurity.InlineJwks inline) {
      envoy.setLocalJwks(DataSource.newBuilder().setInlineString(inline.json()));
    } else if (provider.jwks() instanceof ListenerSecurity.FileJwks file) {
      envoy.setLocalJwks(DataSource.newBuilder().setFilename(file.path()));
    }
    for (ListenerSecurity.TokenSource source : provider.from()) {
      if (source instanceof ListenerSecurity.HeaderToken header) {
        envoy.addFromHeaders(JwtHeader.newBuilder().setName(header.name()).setValuePrefix(header.prefix()));
      } else if (source instanceof ListenerSecurity.CookieToken cookie) {
        envoy.addFromCookies(cookie.name());
      } else if (source instanceof ListenerSecurity.QueryToken query) {
        envoy.addFromParams(query.name());
      }
    }
    provider.claimsToHeaders().forEach(c -> envoy.addClaimToHeaders(JwtClaimToHeader.newBuilder()
        .setClaimName(c.claim()).setHeaderName(c.header())));
    return envoy.build();
  }

  /** A name that is the same for equal requirements, so routes requiring the same share one map entry. */
  static String requirementName(RouteSecurity.JwtRequirement jwt) {
    return (jwt.allowMissing() ? "optional:" : "required:") + String.join(",", jwt.providers());
  }

  private static JwtRequirement requirement(RouteSecurity.JwtRequirement jwt) {
    if (jwt.providers().size() == 1 && !jwt.allowMissing()) {
      return JwtRequirement.newBuilder().setProviderName(jwt.providers().get(0)).build();
    }
    JwtRequirementOrList.Builder any = JwtRequirementOrList.newBuilder();
    jwt.providers().forEach(p -> any.addRequirements(JwtRequirement.newBuilder().setProviderName(p)));
    if (jwt.allowMissing()) {
      any.addRequirements(JwtRequirement.newBuilder().setAllowMissing(Empty.getDefaultInstance()));
    }
    return JwtRequirement.newBuilder().setRequiresAny(any).build();
  }

  /** One policy per rule (any matching rule matches), each the conjunction of its conditions. */
  private static RBAC rbac(RouteSecurity.AccessRules rules) {
    RBAC.Builder rbac = RBAC.newBuilder().setAction(rules.action() == RouteSecurity.Action.ALLOW
        ? RBAC.Action.ALLOW : RBAC.Action.DENY);
    for (int i = 0; i < rules.rules().size(); i++) {
      Principal.Set.Builder all = Principal.Set.newBuilder();
      rules.rules().get(i).all().forEach(c -> all.addIds(principal(c)));
      rbac.putPolicies("rule-" + i, Policy.newBuilder()
          .addPermissions(Permission.newBuilder().setAny(true))
          .addPrincipals(Principal.newBuilder().setAndIds(all))
          .build());
    }
    return rbac.build();
  }

  private static Principal principal(RouteSecurity.Condition condition) {
    if (condition instanceof RouteSecurity.ClientIp ip) {
      Principal.Set.Builder any = Principal.Set.newBuilder();
      for (RouteSecurity.IpRange range : ip.ranges()) {
        CidrRange cidr = CidrRange.newBuilder().setAddressPrefix(range.address())
            .setPrefixLen(com.google.protobuf.UInt32Value.of(range.prefixLength())).build();
        any.addIds(ip.direct() ? Principal.newBuilder().setDirectRemoteIp(cidr)
            : Principal.newBuilder().setRemoteIp(cidr));
      }
      return Principal.newBuilder().setOrIds(any).build();
    }
    if (condition instanceof RouteSecurity.Header header) {
      return Principal.newBuilder().setHeader(RouteTranslator.header(header.match())).build();
    }
    RouteSecurity.Claim claim = (RouteSecurity.Claim) condition;
    MetadataMatcher.Builder metadata = MetadataMatcher.newBuilder().setFilter(JWT_METADATA)
        .addPath(MetadataMatcher.PathSegment.newBuilder().setKey(claim.provider()));
    claim.path().forEach(key -> metadata.addPath(MetadataMatcher.PathSegment.newBuilder().setKey(key)));
    // A string claim equal to a value, or a list claim (e.g. scopes, groups) holding one.
    OrMatcher.Builder values = OrMatcher.newBuilder();
    for (String value : claim.values()) {
      ValueMatcher exact = ValueMatcher.newBuilder().setStringMatch(StringMatcher.newBuilder().setExact(value)).build();
      values.addValueMatchers(exact);
      values.addValueMatchers(ValueMatcher.newBuilder().setListMatch(ListMatcher.newBuilder().setOneOf(exact)));
    }
    return Principal.newBuilder().setMetadata(metadata.setValue(ValueMatcher.newBuilder().setOrMatch(values)))
        .build();
  }
}
