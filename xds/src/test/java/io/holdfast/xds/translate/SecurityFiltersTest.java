package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.rbac.v3.RBAC;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.extensions.filters.http.basic_auth.v3.BasicAuth;
import io.envoyproxy.envoy.extensions.filters.http.cors.v3.Cors;
import io.envoyproxy.envoy.extensions.filters.http.ext_authz.v3.ExtAuthz;
import io.envoyproxy.envoy.extensions.filters.http.fault.v3.HTTPFault;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtAuthentication;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.JwtProvider;
import io.envoyproxy.envoy.extensions.filters.http.jwt_authn.v3.PerRouteConfig;
import io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBACPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2;
import io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2Config;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.TestManifests;
import io.holdfast.api.TlsSecretData;
import java.util.TreeMap;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The security filters in the connection manager: authentication before authorisation, both after CORS and before
 * fault injection and the Router; every typed config parses back into its Envoy message; the filters are there
 * only when a route uses them; a remote key set's cluster is served to the proxies that need it.
 */
class SecurityFiltersTest {

  private static final String VS = """
      apiVersion: gateway.holdfast.io/v1
      kind: VirtualService
      metadata: {name: api}
      spec:
        domains: ['*']
        options:
          cors: {allowOrigin: [https://app.test]}
          security:
            jwtProviders:
              - {name: idp, issuer: https://idp.test, audiences: [api],
                 remoteJwks: {uri: 'https://idp.test/jwks', upstream: idp, cacheDuration: 60s}}
            jwt: {providers: [idp]}
            extAuthz: {http: {upstream: idp, pathPrefix: /authz}, timeout: 1s}
            oauth2:
              tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp}
              authorizationEndpoint: https://idp.test/authorize
              clientId: api
              clientSecret: {name: sso}
              hmacSecret: {name: sso}
              passThroughHeaders: [{name: authorization, prefix: 'Bearer '}]
              forwardBearerToken: true
        routes:
          - match: {prefix: /admin}
            route: {upstream: app}
            options:
              faults: {abort: {percentage: 1, httpStatus: 503}}
              security:
                rbac: {rules: [{claims: [{provider: idp, name: groups, values: [admins]}]},
                               {directClientIp: [198.51.100.0/24]}]}
          - match: {prefix: /}
            route: {upstream: app}
      """;

  private static final String CLIENT_SECRET = "client-secret-value";

  private static Translation translate(String... docs) {
    String[] all = new String[docs.length + 3];
    all[0] = TestManifests.upstream("app", 9101);
    all[1] = TestManifests.upstream("idp", 9443);
    all[2] = """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: edge}
        spec: {port: 8080}
        """;
    System.arraycopy(docs, 0, all, 3, docs.length);
    // The OAuth2 login's credentials, as a Secret of any type reaches the config.
    GatewayConfig config = TestManifests.config(all).toBuilder().secret(TlsSecretData.secretKey("default", "sso"),
        new TlsSecretData(new TreeMap<>(Map.of("client-secret", CLIENT_SECRET, "hmac-secret", "hmac-key-value"))))
        .build();
    ValidationResult result = new Validator().validate(config);
    assertThat(result.statuses().values()).allMatch(ResourceStatus::isServed, "all served");
    return EnvoyConstraints.checked(new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted())));
  }

  private static HttpConnectionManager connectionManager(Translation translation) throws Exception {
    Listener listener = (Listener) translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL)
        .get("gateway/default/edge");
    return listener.getFilterChains(0).getFilters(0).getTypedConfig().unpack(HttpConnectionManager.class);
  }

  private static List<Route> routes(Translation translation) {
    return ((RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("gateway/default/edge")).getVirtualHosts(0).getRoutesList();
  }

  @Test
  void authenticationComesBeforeAuthorisationBetweenCorsAndFault() throws Exception {
    HttpConnectionManager hcm = connectionManager(translate(VS));
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName).containsExactly(
        "envoy.filters.http.cors", "envoy.filters.http.oauth2/default/api", "envoy.filters.http.jwt_authn",
        "envoy.filters.http.ext_authz/default/api", "envoy.filters.http.rbac", "envoy.filters.http.fault",
        "envoy.filters.http.router");
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getDisabled)
        .containsExactly(false, true, false, true, false, false, false);
    Map<String, Class<? extends Message>> types = Map.of(
        "envoy.filters.http.cors", Cors.class,
        "envoy.filters.http.oauth2/default/api", OAuth2.class,
        "envoy.filters.http.jwt_authn", JwtAuthentication.class,
        "envoy.filters.http.ext_authz/default/api", ExtAuthz.class,
        "envoy.filters.http.rbac", io.envoyproxy.envoy.extensions.filters.http.rbac.v3.RBAC.class,
        "envoy.filters.http.fault", HTTPFault.class,
        "envoy.filters.http.router", Router.class);
    for (HttpFilter filter : hcm.getHttpFiltersList()) {
      assertThat(filter.getTypedConfig().is(types.get(filter.getName()))).as(filter.getName()).isTrue();
      unpack(filter.getTypedConfig(), types.get(filter.getName()));
    }
  }

  /**
   * Both halves of the edge policies on one VirtualService: authentication, then authorisation, then the rate
   * limits and the other traffic filters, then fault and compression, then the Router. A rate limit must never
   * spend a caller's budget on a request authentication refuses, and authorisation reads the verified claims.
   */
  @Test
  void authenticationThenAuthorisationThenRateLimitsThenRoutingFilters() throws Exception {
    String vs = VS.replace("""
          - match: {prefix: /}
            route: {upstream: app}
      """, """
          - match: {prefix: /}
            route: {upstream: app}
            options:
              rateLimit:
                local: {maxTokens: 10, fillInterval: 1s}
              csrf: {additionalOrigins: [app.test]}
              maxRequestBodyBytes: 65536
              compression: [gzip]
      """);
    assertThat(vs).as("the fixture was extended").isNotEqualTo(VS);
    HttpConnectionManager hcm = connectionManager(translate(vs));
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName).containsExactly(
        "envoy.filters.http.cors", "envoy.filters.http.oauth2/default/api",
        "envoy.filters.http.jwt_authn", "envoy.filters.http.ext_authz/default/api", "envoy.filters.http.rbac",
        TrafficFilters.LOCAL_RATE_LIMIT, TrafficFilters.CSRF, TrafficFilters.BUFFER,
        "envoy.filters.http.fault", "envoy.filters.http.compressor.gzip", "envoy.filters.http.router");
  }

  @Test
  void everyTypedConfigParsesBackIntoItsEnvoyMessage() throws Exception {
    Translation translation = translate(VS);
    JwtAuthentication jwt = connectionManager(translation).getHttpFilters(2).getTypedConfig()
        .unpack(JwtAuthentication.class);
    JwtProvider provider = jwt.getProvidersOrThrow("default/api/idp");
    assertThat(provider.getIssuer()).isEqualTo("https://idp.test");
    assertThat(provider.getAudiencesList()).containsExactly("api");
    assertThat(provider.getRemoteJwks().getHttpUri().getCluster()).isEqualTo("default/idp");
    assertThat(provider.getRemoteJwks().getCacheDuration().getSeconds()).isEqualTo(60);
    assertThat(provider.getPayloadInMetadata()).isEqualTo("default/api/idp");
    assertThat(provider.getForward()).isFalse();
    assertThat(jwt.getRequirementMapMap()).containsOnlyKeys("required:default/api/idp");

    List<Route> routes = routes(translation);
    PerRouteConfig perRoute = routes.get(0).getTypedPerFilterConfigOrThrow("envoy.filters.http.jwt_authn")
        .unpack(PerRouteConfig.class);
    assertThat(perRoute.getRequirementName()).isEqualTo("required:default/api/idp");
    RBAC rules = routes.get(0).getTypedPerFilterConfigOrThrow("envoy.filters.http.rbac")
        .unpack(RBACPerRoute.class).getRbac().getRules();
    assertThat(rules.getAction()).isEqualTo(RBAC.Action.ALLOW);
    assertThat(rules.getPoliciesMap()).containsOnlyKeys("rule-0", "rule-1");
    var claim = rules.getPoliciesOrThrow("rule-0").getPrincipals(0).getAndIds().getIds(0).getMetadata();
    assertThat(claim.getFilter()).isEqualTo("envoy.filters.http.jwt_authn");
    assertThat(claim.getPathList()).extracting(s -> s.getKey()).containsExactly("default/api/idp", "groups");
    var peer = rules.getPoliciesOrThrow("rule-1").getPrincipals(0).getAndIds().getIds(0).getOrIds().getIds(0);
    assertThat(peer.getDirectRemoteIp().getAddressPrefix()).isEqualTo("198.51.100.0");
    assertThat(peer.getDirectRemoteIp().getPrefixLen().getValue()).isEqualTo(24);
    ExtAuthz authz = connectionManager(translation).getHttpFilters(3).getTypedConfig().unpack(ExtAuthz.class);
    assertThat(authz.getFailureModeAllow()).isFalse();
    assertThat(authz.getHttpService().getServerUri().getCluster()).isEqualTo("default/idp");
    assertThat(authz.getHttpService().getServerUri().getTimeout().getSeconds()).isEqualTo(1);
    assertThat(authz.getHttpService().getPathPrefix()).isEqualTo("/authz");
    for (Route route : routes) {
      FilterConfig enable = route.getTypedPerFilterConfigOrThrow("envoy.filters.http.ext_authz/default/api")
          .unpack(FilterConfig.class);
      assertThat(enable.hasConfig()).isTrue();
      assertThat(enable.getConfig().getTypeUrl()).isEmpty();
      assertThat(enable.getDisabled()).isFalse();
    }
    // The second route has a requirement and no rules: the rbac filter leaves it alone.
    assertThat(routes.get(1).getTypedPerFilterConfigMap()).containsKey("envoy.filters.http.jwt_authn")
        .doesNotContainKey("envoy.filters.http.rbac");
    for (Route route : routes) {
      for (Any config : route.getTypedPerFilterConfigMap().values()) {
        assertThat(config.getTypeUrl()).startsWith("type.googleapis.com/envoy.");
      }
    }
    assertThat(translation.snapshot().scopes().byProxy().get("gateway-proxy").names()
        .get(Resources.V3.CLUSTER_TYPE_URL)).contains("default/idp");
  }

  /** The fixture with basic authentication on the VirtualService, off on its first route. */
  private static final String BASIC = VS.replace("""
            extAuthz: {http: {upstream: idp, pathPrefix: /authz}, timeout: 1s}
      """, """
            extAuthz: {http: {upstream: idp, pathPrefix: /authz}, timeout: 1s}
            basicAuth: {users: {name: api-users}, forwardUsernameHeader: x-user}
      """).replace("\n        security:\n          rbac:",
      "\n        security:\n          basicAuth: {disabled: true}\n          rbac:");

  /** The users: a CRLF line, a comment and an empty line, as an edited file may hold them. */
  private static final String USERS = """
      apiVersion: v1
      kind: Secret
      metadata: {name: api-users, namespace: default}
      stringData:
        .htpasswd: "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\\r\\n# comment\\n\\nbob:{SHA}bOWgjgJew8XNjPXTyFghAc+ha1M="
      """;

  /** Basic authentication is authentication: after the OAuth2 login and jwt_authn, before authorisation. */
  @Test
  void basicAuthComesAfterJwtAndBeforeAuthorisation() throws Exception {
    assertThat(BASIC).as("the fixture was extended").contains("basicAuth: {users").contains("basicAuth: {disabled");
    Translation translation = translate(BASIC, USERS);
    HttpConnectionManager hcm = connectionManager(translation);
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName).containsExactly(
        "envoy.filters.http.cors", "envoy.filters.http.oauth2/default/api", "envoy.filters.http.jwt_authn",
        "envoy.filters.http.basic_auth/default/api", "envoy.filters.http.ext_authz/default/api",
        "envoy.filters.http.rbac", "envoy.filters.http.fault", "envoy.filters.http.router");
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getDisabled)
        .containsExactly(false, true, false, true, true, false, false, false);

    // The users inline, normalised (CR, comment and empty lines dropped), with the forwarded user header.
    BasicAuth basic = hcm.getHttpFilters(3).getTypedConfig().unpack(BasicAuth.class);
    assertThat(basic.getUsers().getInlineString())
        .isEqualTo("alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\nbob:{SHA}bOWgjgJew8XNjPXTyFghAc+ha1M=\n");
    assertThat(basic.getForwardUsernameHeader()).isEqualTo("x-user");
    List<Route> routes = routes(translation);
    // The first route turns it off (the filter stays off there); the second turns it on.
    assertThat(routes.get(0).getTypedPerFilterConfigMap())
        .doesNotContainKey("envoy.filters.http.basic_auth/default/api");
    FilterConfig enable = routes.get(1).getTypedPerFilterConfigOrThrow("envoy.filters.http.basic_auth/default/api")
        .unpack(FilterConfig.class);
    assertThat(enable.hasConfig()).isTrue();
    assertThat(enable.getDisabled()).isFalse();
  }

  /**
   * The fixture with a second provider whose token the authorisation service puts in {@code x-session-jwt},
   * verified after authorisation: {@code /admin} keeps both stages and reads a claim of the second provider,
   * {@code /public} turns the second stage off.
   */
  private static final String AFTER_AUTHZ = VS.replace("""
            jwt: {providers: [idp]}
      """, """
              - {name: session, issuer: https://authz.test, fromHeaders: [{name: x-session-jwt}],
                 localJwks: {file: /etc/session-jwks.json}}
            jwt: {providers: [idp]}
            jwtAfterAuthz: {providers: [session]}
      """).replace("values: [admins]}]}", "values: [admins]}, {provider: session, name: role, values: [ops]}]}")
      .replace("""
          - match: {prefix: /}
            route: {upstream: app}
      """, """
          - match: {prefix: /public}
            route: {upstream: app}
            options:
              security:
                jwtAfterAuthz: {mode: Disabled}
          - match: {prefix: /}
            route: {upstream: app}
      """);

  /** The second jwt_authn runs after external authorisation and before the access rules, which read its claims. */
  @Test
  void jwtAfterAuthzRunsBetweenExtAuthzAndRbac() throws Exception {
    assertThat(AFTER_AUTHZ).as("the fixture was extended").contains("jwtAfterAuthz: {providers")
        .contains("provider: session").contains("mode: Disabled");
    Translation translation = translate(AFTER_AUTHZ);
    HttpConnectionManager hcm = connectionManager(translation);
    // The shared fixture also has an OAuth2 login, which runs first of the authentication filters.
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName).containsExactly(
        "envoy.filters.http.cors", "envoy.filters.http.oauth2/default/api", "envoy.filters.http.jwt_authn",
        "envoy.filters.http.ext_authz/default/api", SecurityFilters.JWT_AFTER_AUTHZ, "envoy.filters.http.rbac",
        "envoy.filters.http.fault", "envoy.filters.http.router");
    assertThat(SecurityFilters.JWT_AFTER_AUTHZ).isEqualTo("envoy.filters.http.jwt_authn/after-ext-authz");
    JwtAuthentication first = hcm.getHttpFilters(2).getTypedConfig().unpack(JwtAuthentication.class);
    JwtAuthentication second = hcm.getHttpFilters(4).getTypedConfig().unpack(JwtAuthentication.class);
    assertThat(first.getRequirementMapMap()).containsOnlyKeys("required:default/api/idp");
    assertThat(second.getRequirementMapMap()).containsOnlyKeys("required:default/api/session");
    JwtProvider session = second.getProvidersOrThrow("default/api/session");
    assertThat(session.getFromHeaders(0).getName()).isEqualTo("x-session-jwt");
    assertThat(session.getPayloadInMetadata()).isEqualTo("default/api/session");

    List<Route> routes = routes(translation);
    assertThat(routes).hasSize(3);
    // /admin and / verify both stages; /public turns the second off.
    for (Route route : List.of(routes.get(0), routes.get(2))) {
      assertThat(route.getTypedPerFilterConfigOrThrow(SecurityFilters.JWT_AFTER_AUTHZ).unpack(PerRouteConfig.class)
          .getRequirementName()).isEqualTo("required:default/api/session");
      assertThat(route.getTypedPerFilterConfigOrThrow("envoy.filters.http.jwt_authn").unpack(PerRouteConfig.class)
          .getRequirementName()).isEqualTo("required:default/api/idp");
    }
    assertThat(routes.get(1).getTypedPerFilterConfigMap()).containsKey("envoy.filters.http.jwt_authn")
        .doesNotContainKey(SecurityFilters.JWT_AFTER_AUTHZ);
    // Both instances write to the extension's metadata namespace, so a claim of the second stage reads the same way.
    RBAC rules = routes.get(0).getTypedPerFilterConfigOrThrow("envoy.filters.http.rbac")
        .unpack(RBACPerRoute.class).getRbac().getRules();
    var claim = rules.getPoliciesOrThrow("rule-0").getPrincipals(0).getAndIds().getIds(1).getMetadata();
    assertThat(claim.getFilter()).isEqualTo("envoy.filters.http.jwt_authn");
    assertThat(claim.getPathList()).extracting(s -> s.getKey()).containsExactly("default/api/session", "role");
  }

  /** A claim rule on a provider neither stage verifies on the route is refused, as for the first stage alone. */
  @Test
  void aClaimOfAProviderNoStageVerifiesIsRefused() {
    String vs = AFTER_AUTHZ.replace("""
                jwtAfterAuthz: {mode: Disabled}
      """, """
                jwtAfterAuthz: {mode: Disabled}
                rbac: {rules: [{claims: [{provider: session, name: role, values: [ops]}]}]}
      """);
    assertThat(vs).as("the fixture was extended").isNotEqualTo(AFTER_AUTHZ);
    ValidationResult result = new Validator().validate(TestManifests.config(TestManifests.upstream("app", 9101),
        TestManifests.upstream("idp", 9443), vs));
    assertThat(result.statuses().values()).anySatisfy(status -> assertThat(status.problems())
        .anySatisfy(p -> assertThat(p.toString()).contains("ClaimWithoutJwt").contains("spec.routes[1]")));
  }

  @Test
  void usersThatCannotBeReadRejectTheVirtualService() {
    ValidationResult result = new Validator().validate(TestManifests.config(TestManifests.upstream("app", 9101),
        TestManifests.upstream("idp", 9443), BASIC));
    assertThat(result.statuses().values()).anySatisfy(status -> assertThat(status.problems())
        .anySatisfy(p -> assertThat(p.toString()).contains("SecretNotFound").contains("basicAuth.users")));
    assertThat(result.accepted().virtualServices()).isEmpty();
  }

  @Test
  void theOAuth2LoginParsesBackAndNamesItsCredentialsOverSds() throws Exception {
    Translation translation = translate(VS);
    OAuth2Config config = connectionManager(translation).getHttpFilters(1).getTypedConfig().unpack(OAuth2.class)
        .getConfig();
    assertThat(config.getTokenEndpoint().getUri()).isEqualTo("https://idp.test/token");
    assertThat(config.getTokenEndpoint().getCluster()).isEqualTo("default/idp");
    assertThat(config.getTokenEndpoint().getTimeout().getSeconds()).isEqualTo(5);
    assertThat(config.getAuthorizationEndpoint()).isEqualTo("https://idp.test/authorize");
    assertThat(config.getCredentials().getClientId()).isEqualTo("api");
    String clientSecret = "oauth2/VirtualService/default/api/client-secret";
    String hmac = "oauth2/VirtualService/default/api/hmac-secret";
    assertThat(config.getCredentials().getTokenSecret().getName()).isEqualTo(clientSecret);
    assertThat(config.getCredentials().getTokenSecret().getSdsConfig().hasAds()).isTrue();
    assertThat(config.getCredentials().getHmacSecret().getName()).isEqualTo(hmac);
    assertThat(config.getRedirectUri()).isEqualTo("%REQ(x-forwarded-proto)%://%REQ(:authority)%/oauth2/callback");
    assertThat(config.getRedirectPathMatcher().getPath().getExact()).isEqualTo("/oauth2/callback");
    assertThat(config.getSignoutPath().getPath().getExact()).isEqualTo("/logout");
    assertThat(config.getAuthScopesList()).containsExactly("openid");
    assertThat(config.getForwardBearerToken()).isTrue();
    assertThat(config.getPassThroughMatcher(0).getName()).isEqualTo("authorization");
    assertThat(config.getPassThroughMatcher(0).getStringMatch().getPrefix()).isEqualTo("Bearer ");
    // The listener names the credentials; only the SDS Secrets hold them, as generic secrets.
    assertThat(translation.snapshot().ofType(Resources.V3.LISTENER_TYPE_URL).toString())
        .doesNotContain(CLIENT_SECRET).doesNotContain("hmac-key-value");
    Secret secret = (Secret) translation.snapshot().ofType(Resources.V3.SECRET_TYPE_URL).get(clientSecret);
    assertThat(secret.getGenericSecret().getSecret().getInlineString()).isEqualTo(CLIENT_SECRET);
    assertThat(translation.snapshot().scopes().byProxy().get("gateway-proxy").ofType(Resources.V3.SECRET_TYPE_URL))
        .containsExactly(clientSecret, hmac);
    for (Route route : routes(translation)) {
      FilterConfig enable = route.getTypedPerFilterConfigOrThrow("envoy.filters.http.oauth2/default/api")
          .unpack(FilterConfig.class);
      assertThat(enable.hasConfig()).isTrue();
      assertThat(enable.getDisabled()).isFalse();
    }
  }

  @Test
  void aRouteThatDisablesTheLoginDoesNotTurnItsFilterOn() {
    String vs = VS.replace("rbac: {rules:", "oauth2: {disabled: true}\n          rbac: {rules:");
    assertThat(vs).isNotEqualTo(VS);
    List<Route> routes = routes(translate(vs));
    assertThat(routes.get(0).getTypedPerFilterConfigMap()).doesNotContainKey("envoy.filters.http.oauth2/default/api")
        .containsKey("envoy.filters.http.rbac");
    assertThat(routes.get(1).getTypedPerFilterConfigMap()).containsKey("envoy.filters.http.oauth2/default/api");
  }

  @Test
  void theRemoteKeySetClusterIsInTheProxyScope() {
    Translation translation = translate(VS);
    assertThat(translation.snapshot().scopes().byProxy().get("gateway-proxy").names()
        .get(Resources.V3.CLUSTER_TYPE_URL)).contains("default/idp", "default/app");
  }

  @Test
  void withoutSecurityTheConnectionManagerIsAsBefore() throws Exception {
    HttpConnectionManager hcm = connectionManager(translate("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: api}
        spec:
          domains: ['*']
          options:
            security:
              jwtProviders: [{name: idp, issuer: https://idp.test, localJwks: {file: /etc/jwks.json}}]
          routes: [{match: {prefix: /}, route: {upstream: app}}]
        """));
    // Providers alone ask nothing of any route: no filter is added.
    assertThat(hcm.getHttpFiltersList()).extracting(HttpFilter::getName)
        .containsExactly("envoy.filters.http.router");
  }

  private static void unpack(Any any, Class<? extends Message> type) throws InvalidProtocolBufferException {
    assertThat(any.unpack(type)).isNotNull();
  }
}
