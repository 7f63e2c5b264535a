package io.holdfast.xds.translate;

import io.envoyproxy.envoy.config.core.v3.HttpUri;
import io.envoyproxy.envoy.config.route.v3.FilterConfig;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2;
import io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2Config;
import io.envoyproxy.envoy.extensions.filters.http.oauth2.v3.OAuth2Credentials;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.type.matcher.v3.PathMatcher;
import io.envoyproxy.envoy.type.matcher.v3.StringMatcher;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Listener;
import io.holdfast.ir.OAuth2Login;
import io.holdfast.ir.VirtualHost;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The OAuth2/OIDC login filters of a connection manager ({@code envoy.filters.http.oauth2}): one per login some route
 * of the chain names, off in the connection manager and turned on by the routes that name it (an empty
 * {@code FilterConfig}), so a route whose login is disabled, or that has none, never redirects. The client secret and
 * HMAC key are named as SDS secrets fetched over ADS, never written into the listener; the proxies serving the chain
 * are the ones whose scope holds them ({@link #secrets}).
 */
final class OAuth2Filters {

  /** One filter per login: this, then {@code /} and the login's name. */
  static final String OAUTH2 = "envoy.filters.http.oauth2";

  private OAuth2Filters() {
  }

  /** The login filters of {@code chain}, in the order its security definitions list them. */
  static List<HttpFilter> filters(Listener.FilterChain.Http chain) {
    List<HttpFilter> filters = new ArrayList<>();
    for (OAuth2Login login : used(chain)) {
      filters.add(HttpFilter.newBuilder().setName(filterName(login.name())).setDisabled(true)
          .setTypedConfig(Protos.pack(OAuth2.newBuilder().setConfig(config(login)).build())).build());
    }
    return filters;
  }

  /** The token endpoints' clusters of the logins the chain's filters run, for the proxies' scopes. */
  static Set<ResourceKey> clusters(Listener.FilterChain.Http chain) {
    Set<ResourceKey> clusters = new LinkedHashSet<>();
    used(chain).forEach(login -> clusters.add(login.tokenCluster()));
    return clusters;
  }

  /** The SDS secrets the chain's login filters name: a proxy serving the chain may fetch these, no other. */
  static Set<String> secrets(Listener.FilterChain.Http chain) {
    Set<String> secrets = new LinkedHashSet<>();
    used(chain).forEach(login -> secrets.addAll(login.secretNames()));
    return secrets;
  }

  /** Turns the login filter {@code route} names on for it. */
  static void decorate(io.holdfast.ir.Route route, Route.Builder envoy) {
    route.security().oauth2().ifPresent(login -> envoy.putTypedPerFilterConfig(filterName(login),
        Protos.pack(FilterConfig.newBuilder().setConfig(com.google.protobuf.Any.getDefaultInstance()).build())));
  }

  static String filterName(String login) {
    return OAUTH2 + "/" + login;
  }

  /** The logins of the chain some route names (the others would be filters no route turns on). */
  private static List<OAuth2Login> used(Listener.FilterChain.Http chain) {
    if (chain.security().oauth2().isEmpty()) {
      return List.of();
    }
    Set<String> named = new HashSet<>();
    for (VirtualHost host : chain.virtualHosts()) {
      host.routes().forEach(route -> route.security().oauth2().ifPresent(named::add));
    }
    return chain.security().oauth2().stream().filter(login -> named.contains(login.name())).toList();
  }

  private static OAuth2Config config(OAuth2Login login) {
    OAuth2Config.Builder config = OAuth2Config.newBuilder()
        .setTokenEndpoint(HttpUri.newBuilder().setUri(login.tokenUri())
            .setCluster(EnvoyNames.cluster(login.tokenCluster())).setTimeout(Protos.duration(login.tokenTimeout())))
        .setAuthorizationEndpoint(login.authorizationEndpoint())
        .setCredentials(OAuth2Credentials.newBuilder().setClientId(login.clientId())
            .setTokenSecret(TlsTranslator.sds(login.clientSecretName()))
            .setHmacSecret(TlsTranslator.sds(login.hmacSecretName())))
        .setRedirectUri(login.redirectUri())
        .setRedirectPathMatcher(exactPath(login.redirectPath()))
        .setSignoutPath(exactPath(login.signoutPath()))
        .setForwardBearerToken(login.forwardBearerToken())
        .addAllAuthScopes(login.scopes());
    login.passThrough().forEach(header -> config.addPassThroughMatcher(RouteTranslator.header(header)));
    return config.build();
  }

  private static PathMatcher exactPath(String path) {
    return PathMatcher.newBuilder().setPath(StringMatcher.newBuilder().setExact(path)).build();
  }
}
