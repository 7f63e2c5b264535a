package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The IR of an OAuth2 login: a chain holds the login its routes name, the login's credentials are generic secrets
 * of the IR and its token cluster a cluster of the IR, and no {@code toString} or invariant message shows a
 * generic secret's value.
 */
class OAuth2IrTest {

  private static final Origin GATEWAY = Origin.of(ResourceKey.gateway("demo", "gw"));
  private static final Origin VS = Origin.of(ResourceKey.virtualService("demo", "web"));
  private static final ResourceKey IDP = ResourceKey.upstream("demo", "idp");
  private static final String VALUE = "generic-secret-value-never-shown";

  private static OAuth2Login login() {
    return new OAuth2Login("demo/web", IDP, "https://idp.test/token", Duration.ofSeconds(5),
        "https://idp.test/authorize", "web", "oauth2/client", "oauth2/hmac", "https://web.test/callback",
        "/callback", "/logout", List.of("openid"), List.of(), false);
  }

  private static Listener.Socket socket(Optional<String> routeLogin) {
    Route route = new Route(VS, "r", new RouteMatch(new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()),
        new RouteAction.DirectResponse(200, Optional.empty()), RoutePolicies.HeaderMutation.NONE, Optional.empty(),
        new RouteSecurity(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), routeLogin));
    Listener.FilterChain.Http chain = new Listener.FilterChain.Http(GATEWAY, "http", Listener.ChainMatch.ANY,
        Optional.empty(), List.of(new VirtualHost(VS, List.of("*"), List.of(route))),
        new ListenerSecurity(List.of(), List.of(), List.of(), List.of(login())));
    return new Listener.Socket(GATEWAY, "0.0.0.0", 8080, List.of(chain), new java.util.TreeSet<>(List.of("p")));
  }

  private static Cluster idp() {
    return new Cluster(Origin.of(IDP), Duration.ofSeconds(1), Cluster.LbPolicy.ROUND_ROBIN, false, List.of());
  }

  private static Secret generic(String name) {
    return new Secret(VS, name, new Secret.Content.Generic(VALUE));
  }

  @Test
  void aGenericSecretNeverShowsItsValue() {
    Secret secret = generic("oauth2/client");
    assertThat(secret.toString()).doesNotContain(VALUE).contains("<redacted>");
    assertThatThrownBy(() -> new Secret.Content.Generic("")).hasMessageContaining("not empty");
  }

  @Test
  void aChainHoldsTheLoginItsRoutesName() {
    assertThatThrownBy(() -> new Listener.FilterChain.Http(GATEWAY, "http", Listener.ChainMatch.ANY, Optional.empty(),
        List.of(new VirtualHost(VS, List.of("*"), List.of(socket(Optional.of("demo/web")).virtualHosts().get(0)
            .routes().get(0)))))).hasMessageContaining("names OAuth2 login demo/web");
    assertThatThrownBy(() -> new ListenerSecurity(List.of(), List.of(), List.of(), List.of(login(), login())))
        .hasMessageContaining("defined twice");
  }

  @Test
  void theLoginsCredentialsAreGenericSecretsOfTheIr() {
    Ir ir = new Ir(List.of(socket(Optional.of("demo/web"))), List.of(idp()),
        List.of(generic("oauth2/client"), generic("oauth2/hmac")));
    assertThat(ir.secrets()).hasSize(2);
    assertThat(ir.toString()).doesNotContain(VALUE);

    assertThatThrownBy(() -> new Ir(List.of(socket(Optional.of("demo/web"))), List.of(idp()),
        List.of(generic("oauth2/client")))).isInstanceOf(IrInvariantViolation.class)
        .hasMessageContaining("refers to secret oauth2/hmac");
    IrInvariantViolation wrongKind = (IrInvariantViolation) org.assertj.core.api.Assertions.catchThrowable(() ->
        new Ir(List.of(socket(Optional.of("demo/web"))), List.of(idp()), List.of(generic("oauth2/client"),
            new Secret(VS, "oauth2/hmac", new Secret.Content.TrustedCa(VALUE)))));
    assertThat(wrongKind.getMessage()).contains("to hold Generic").doesNotContain(VALUE);
  }

  @Test
  void theTokenClusterIsInTheIr() {
    assertThatThrownBy(() -> new Ir(List.of(socket(Optional.of("demo/web"))), List.of(),
        List.of(generic("oauth2/client"), generic("oauth2/hmac")))).isInstanceOf(IrInvariantViolation.class)
        .hasMessageContaining("OAuth2 tokens through cluster");
  }

  @Test
  void aLoginIsCheckedWhenMade() {
    assertThatThrownBy(() -> new OAuth2Login("x", IDP, "https://idp.test/token", Duration.ZERO, "https://a", "id",
        "c", "h", "https://r", "/cb", "/out", List.of(), List.of(), false)).hasMessageContaining("timeout");
    assertThatThrownBy(() -> new OAuth2Login("x", IDP, "https://idp.test/token", Duration.ofSeconds(1),
        "https://a", "id", "c", "h", "https://r", "cb", "/out", List.of(), List.of(), false))
        .hasMessageContaining("absolute");
  }
}
