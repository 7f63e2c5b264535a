package io.holdfast.api;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The shape rules of {@code security.oauth2} ({@link OAuth2Options}), for both front ends (a VirtualService's options
 * and a SecurityPolicy's spec): what Envoy's {@code oauth2} filter would reject, and what would send credentials in
 * clear text or leave a route without the login written, is an error on the object that wrote it. The token
 * endpoint's Upstream is each front end's to resolve; the two Secrets are in {@link SecurityOptions#secretRefs},
 * checked with the other options' by {@link SecretChecks}. Secret values are never read here.
 */
public final class OAuth2Checks {

  /** Scopes are sent in every authorisation redirect; more than this is a mistake, not a login. */
  public static final int MAX_SCOPES = 32;
  /** Pass-through matchers are evaluated on every request before the session check. */
  public static final int MAX_PASS_THROUGH_HEADERS = 16;

  /** An endpoint the browser or Envoy sends the code or the client secret to is not {@code https://}. */
  public static final String ENDPOINT_NOT_HTTPS = "OAuth2EndpointNotHttps";
  public static final String INVALID_REDIRECT = "InvalidOAuth2Redirect";
  /** The callback or sign-out path reaches no route that runs the login. */
  public static final String PATH_NOT_ROUTED = "OAuth2PathNotRouted";

  private static final Pattern SECRET_NAME = Pattern.compile("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?");
  private static final Pattern SECRET_KEY = Pattern.compile("[-._a-zA-Z0-9]{1,253}");
  /** What a client id may hold: it is put into the authorisation redirect's query as is. */
  private static final Pattern CLIENT_ID = Pattern.compile("[\\x21-\\x7e]{1,256}");
  private static final Pattern SCOPE = Pattern.compile("[\\x21\\x23-\\x5b\\x5d-\\x7e]{1,128}");

  private OAuth2Checks() {
  }

  /** {@code oauth2} written at {@code at} ({@code spec.options.security.oauth2}, {@code spec.oauth2}). */
  public static void check(OAuth2Options oauth2, String at, SecurityChecks.Report sink) {
    if (oauth2.disabled()) {
      if (oauth2.tokenEndpoint().isPresent() || oauth2.clientId().isPresent()
          || oauth2.authorizationEndpoint().isPresent()) {
        sink.warn(at, Reasons.FIELD_IGNORED, "a login means nothing with disabled: true");
      }
      return;
    }
    Optional<OAuth2Options.TokenEndpoint> token = required(oauth2.tokenEndpoint(), at + ".tokenEndpoint", sink);
    token.ifPresent(t -> {
      https(t.uri(), at + ".tokenEndpoint.uri", "the token endpoint receives the client secret", sink);
      SecurityChecks.positive(t.timeout(), at + ".tokenEndpoint.timeout", sink);
    });
    required(oauth2.authorizationEndpoint(), at + ".authorizationEndpoint", sink).ifPresent(uri ->
        https(uri, at + ".authorizationEndpoint", "the browser is sent there to log in", sink));
    required(oauth2.clientId(), at + ".clientId", sink).filter(id -> !CLIENT_ID.matcher(id).matches())
        .ifPresent(id -> sink.error(at + ".clientId", Reasons.INVALID_VALUE,
            "a client id is 1-256 visible ASCII characters, without spaces"));
    required(oauth2.clientSecret(), at + ".clientSecret", sink)
        .ifPresent(ref -> secretRef(ref, at + ".clientSecret", sink));
    required(oauth2.hmacSecret(), at + ".hmacSecret", sink)
        .ifPresent(ref -> secretRef(ref, at + ".hmacSecret", sink));
    oauth2.redirectUri().ifPresent(uri -> redirectUri(uri, oauth2.redirectPath(), at + ".redirectUri", sink));
    path(oauth2.redirectPath(), at + ".redirectPath", sink);
    path(oauth2.signoutPath(), at + ".signoutPath", sink);
    if (oauth2.redirectPath().equals(oauth2.signoutPath())) {
      sink.error(at + ".signoutPath", Reasons.CONFLICTING_FIELDS, "the sign-out path must differ from the"
          + " redirect path " + oauth2.redirectPath());
    }
    scopes(oauth2.scopes(), at + ".scopes", sink);
    passThrough(oauth2.passThroughHeaders(), at + ".passThroughHeaders", sink);
  }

  /**
   * The callback and sign-out paths must reach a route that runs the login: Envoy's filter answers them only there.
   * A warning names the path when the first route that surely takes it turns the login off, or when no route
   * takes it (Envoy then answers 404 and the login never completes). Routes with header, method or query
   * conditions, regex paths and delegations are not judged (whether they take the path depends on the request or
   * on other objects). Linear in the VirtualService's routes.
   */
  public static void checkPathsRouted(OAuth2Options oauth2, List<Route> routes, String at,
      SecurityChecks.Report sink) {
    if (oauth2.disabled()) {
      return;
    }
    checkPathRouted(oauth2.redirectPath(), "redirectPath", routes, at, sink);
    checkPathRouted(oauth2.signoutPath(), "signoutPath", routes, at, sink);
  }

  private static void checkPathRouted(String path, String field, List<Route> routes, String at,
      SecurityChecks.Report sink) {
    for (int i = 0; i < routes.size(); i++) {
      Route route = routes.get(i);
      RouteMatch match = route.match();
      boolean conditional = !match.headers().isEmpty() || !match.methods().isEmpty()
          || !match.queryParameters().isEmpty();
      Optional<Boolean> takes = match.path().map(p -> p instanceof PathMatch.Prefix prefix
          ? Optional.of(prefix.matches(path))
          : p instanceof PathMatch.Exact exact ? Optional.of(exact.matches(path)) : Optional.<Boolean>empty())
          .orElse(Optional.of(true));
      if (takes.isPresent() && !takes.get() || conditional) {
        continue; // never takes it, or only some requests: a later route may take the browser's
      }
      if (takes.isEmpty() || route.action() instanceof RouteAction.Delegate) {
        return; // a regex, or another object's routes: not judged
      }
      if (route.options().security().oauth2().map(OAuth2Options::disabled).orElse(false)) {
        sink.warn(at + "." + field, PATH_NOT_ROUTED, "spec.routes[" + i + "] takes " + path + " and turns the"
            + " login off, so Envoy's OAuth2 filter never answers it");
      }
      return;
    }
    sink.warn(at + "." + field, PATH_NOT_ROUTED, "no route takes " + path + " for every request: Envoy answers"
        + " it with 404 before the OAuth2 filter runs");
  }

  private static <T> Optional<T> required(Optional<T> value, String at, SecurityChecks.Report sink) {
    if (value.isEmpty()) {
      sink.error(at, Reasons.MISSING_FIELD, "required unless disabled: true");
    }
    return value;
  }

  private static void https(String uri, String at, String why, SecurityChecks.Report sink) {
    SecurityChecks.headerSafe(uri, at, sink);
    URI parsed;
    try {
      parsed = new URI(uri);
    } catch (URISyntaxException e) {
      sink.error(at, Reasons.INVALID_VALUE, "not a URL: " + e.getReason());
      return;
    }
    if (!"https".equalsIgnoreCase(parsed.getScheme())) {
      sink.error(at, ENDPOINT_NOT_HTTPS, "must be an https:// URL: " + why);
    } else if (parsed.getHost() == null || parsed.getHost().isEmpty()) {
      sink.error(at, Reasons.INVALID_VALUE, "an https:// URL needs a host");
    }
  }

  /** An absolute URL, or one built with Envoy's command operators ({@code %REQ(:authority)%}). */
  private static void redirectUri(String uri, String redirectPath, String at, SecurityChecks.Report sink) {
    SecurityChecks.headerSafe(uri, at, sink);
    if (!uri.startsWith("https://") && !uri.startsWith("http://") && !uri.startsWith("%")) {
      sink.error(at, INVALID_REDIRECT, "the redirect URI is an absolute http(s) URL, or starts with an Envoy"
          + " command operator such as %REQ(x-forwarded-proto)%");
      return;
    }
    if (uri.startsWith("http://")) {
      sink.warn(at, ENDPOINT_NOT_HTTPS, "the authorisation code comes back over plain http");
    }
    // Without command operators the URL is fixed: the provider must send the browser to the path Envoy answers,
    // or every login ends at the upstream (or loops back to the provider).
    if (!uri.contains("%")) {
      try {
        String path = new URI(uri).getRawPath();
        if (!redirectPath.equals(path)) {
          sink.error(at, INVALID_REDIRECT, "the redirect URI's path " + (path == null || path.isEmpty() ? "(none)"
              : path) + " is not the redirect path " + redirectPath);
        }
      } catch (URISyntaxException e) {
        sink.error(at, Reasons.INVALID_VALUE, "not a URL: " + e.getReason());
      }
    }
  }

  private static void path(String path, String at, SecurityChecks.Report sink) {
    if (!path.startsWith("/")) {
      sink.error(at, INVALID_REDIRECT, "a path is absolute (starts with /)");
    } else if (path.contains("?") || path.contains("#")) {
      sink.error(at, INVALID_REDIRECT, "a path has no query or fragment");
    }
    SecurityChecks.headerSafe(path, at, sink);
  }

  private static void secretRef(SecurityOptions.SecretKeyRef ref, String at, SecurityChecks.Report sink) {
    if (!SECRET_NAME.matcher(ref.secret().name()).matches()) {
      sink.error(at + ".name", Reasons.INVALID_NAME, "\"" + ref.secret().name() + "\" is not a Secret name");
    }
    if (!SECRET_KEY.matcher(ref.key()).matches()) {
      sink.error(at + ".key", Reasons.INVALID_NAME, "\"" + ref.key() + "\" is not a Secret data key");
    }
  }

  private static void scopes(List<String> scopes, String at, SecurityChecks.Report sink) {
    if (scopes.size() > MAX_SCOPES) {
      sink.error(at, SecurityChecks.TOO_MANY, scopes.size() + " scopes; at most " + MAX_SCOPES);
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < scopes.size(); i++) {
      String scope = scopes.get(i);
      if (!SCOPE.matcher(scope).matches()) {
        sink.error(at + "[" + i + "]", Reasons.INVALID_VALUE, "a scope is 1-128 visible ASCII characters"
            + " other than \" and \\ (RFC 6749)");
      } else if (!seen.add(scope)) {
        sink.error(at + "[" + i + "]", Reasons.INVALID_VALUE, "scope " + scope + " is listed twice");
      }
    }
  }

  private static void passThrough(List<HeaderMatch> headers, String at, SecurityChecks.Report sink) {
    if (headers.size() > MAX_PASS_THROUGH_HEADERS) {
      sink.error(at, SecurityChecks.TOO_MANY, headers.size() + " pass-through matchers; at most "
          + MAX_PASS_THROUGH_HEADERS);
      return;
    }
    for (int i = 0; i < headers.size(); i++) {
      HeaderMatch header = headers.get(i);
      String h = at + "[" + i + "]";
      SecurityChecks.headerName(header.name(), h + ".name", sink);
      if (header.condition() instanceof HeaderMatch.Regex regex) {
        Re2Check.refusal(regex.value(), sink.limits()).ifPresent(r -> sink.error(h + ".regex", r.reason(),
            r.message()));
      } else if (header.condition() instanceof HeaderMatch.Prefix prefix && prefix.value().isEmpty()) {
        sink.error(h + ".prefix", Reasons.EMPTY_MATCHER, "empty prefix matches everything; use present: true");
      } else if (header.condition() instanceof HeaderMatch.Exact exact) {
        SecurityChecks.headerSafe(exact.value(), h + ".exact", sink);
      }
    }
  }
}
