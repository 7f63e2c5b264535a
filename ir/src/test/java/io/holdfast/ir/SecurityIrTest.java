package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.ResourceKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The invariants of RouteSecurity and ListenerSecurity: a chain holds what its routes name, names are unique. */
class SecurityIrTest {

  private static final Origin GATEWAY = Origin.of(ResourceKey.gateway("demo", "gw"));
  private static final Origin VS = Origin.of(ResourceKey.virtualService("demo", "web"));
  private static final ResourceKey UPSTREAM = ResourceKey.upstream("demo", "idp");

  private static Route route(RouteSecurity security) {
    return new Route(VS, "r", new RouteMatch(new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()),
        new RouteAction.DirectResponse(200, Optional.empty()), RoutePolicies.HeaderMutation.NONE, Optional.empty(),
        security);
  }

  private static ListenerSecurity.JwtProvider provider(String name) {
    return new ListenerSecurity.JwtProvider(name, "https://idp.test", List.of(), new ListenerSecurity.RemoteJwks(
        "https://idp.test/jwks", UPSTREAM, Duration.ofSeconds(1), Duration.ofMinutes(1)), List.of(), List.of(),
        false);
  }

  private static Listener.FilterChain.Http chain(ListenerSecurity security, Route route) {
    return new Listener.FilterChain.Http(GATEWAY, "http", Listener.ChainMatch.ANY, Optional.empty(),
        List.of(new VirtualHost(VS, List.of("*"), List.of(route))), security);
  }

  @Test
  void aChainHoldsEveryProviderAndServiceItsRoutesName() {
    RouteSecurity needsIdp = new RouteSecurity(Optional.of(new RouteSecurity.JwtRequirement(List.of("idp"), false)),
        Optional.empty());
    assertThatThrownBy(() -> chain(ListenerSecurity.NONE, route(needsIdp)))
        .hasMessageContaining("names JWT provider idp");
    assertThat(chain(new ListenerSecurity(List.of(provider("idp"))), route(needsIdp)).security().jwtProviders())
        .hasSize(1);
    RouteSecurity claim = new RouteSecurity(Optional.empty(), Optional.of(new RouteSecurity.AccessRules(
        RouteSecurity.Action.ALLOW, List.of(new RouteSecurity.Rule(List.of(new RouteSecurity.Claim("other",
            List.of("sub"), List.of("me"))))))));
    assertThatThrownBy(() -> chain(new ListenerSecurity(List.of(provider("idp"))), route(claim)))
        .hasMessageContaining("names JWT provider other");
    RouteSecurity authz = new RouteSecurity(Optional.empty(), Optional.empty(), Optional.of("demo/web"));
    assertThatThrownBy(() -> chain(ListenerSecurity.NONE, route(authz)))
        .hasMessageContaining("external authorisation service demo/web");
  }

  /** The stage after external authorisation names providers of the chain too; the wither keeps the rest. */
  @Test
  void theStageAfterAuthorisationNamesProvidersOfTheChain() {
    RouteSecurity afterAuthz = new RouteSecurity(Optional.of(new RouteSecurity.JwtRequirement(List.of("idp"),
        false)), Optional.empty(), Optional.of("demo/web"), Optional.empty())
        .withJwtAfterAuthz(Optional.of(new RouteSecurity.JwtRequirement(List.of("session", "idp"), true)));
    assertThat(afterAuthz.jwt()).isPresent();
    assertThat(afterAuthz.extAuthz()).contains("demo/web");
    assertThat(afterAuthz.providers()).containsExactly("idp", "session");
    assertThat(afterAuthz.isNone()).isFalse();
    assertThat(RouteSecurity.NONE.withJwtAfterAuthz(afterAuthz.jwtAfterAuthz()).isNone()).isFalse();
    ListenerSecurity idpOnly = new ListenerSecurity(List.of(provider("idp")), List.of(
        new ListenerSecurity.ExtAuthzService("demo/web", ListenerSecurity.AuthzProtocol.GRPC, UPSTREAM, "",
            Duration.ofSeconds(1), false, List.of(), List.of(), List.of(), Optional.empty())));
    assertThatThrownBy(() -> chain(idpOnly, route(afterAuthz))).hasMessageContaining("names JWT provider session");
  }

  @Test
  void namesAreUniqueAndValuesBounded() {
    assertThatThrownBy(() -> new ListenerSecurity(List.of(provider("a"), provider("a"))))
        .hasMessageContaining("defined twice");
    assertThatThrownBy(() -> new RouteSecurity.IpRange("192.0.2.0", 33)).hasMessageContaining("out of range");
    assertThatThrownBy(() -> new RouteSecurity.IpRange("not-an-ip", 8)).hasMessageContaining("not an IP");
    assertThatThrownBy(() -> new RouteSecurity.Rule(List.of())).hasMessageContaining("at least one condition");
    assertThatThrownBy(() -> new RouteSecurity.JwtRequirement(List.of("a", "a"), false))
        .hasMessageContaining("listed twice");
  }

  @Test
  void clientListenersCarryNoSecurityAndAnInlineKeySetIsNotPrinted() {
    VirtualHost host = new VirtualHost(VS, List.of("web.test"), List.of(route(new RouteSecurity(Optional.empty(),
        Optional.of(RouteSecurity.AccessRules.denyAll())))));
    assertThat(RouteSecurity.withoutSecurity(host).routes()).allMatch(r -> r.security().isNone());
    VirtualHost plain = new VirtualHost(VS, List.of("web.test"), List.of(route(RouteSecurity.NONE)));
    assertThat(RouteSecurity.withoutSecurity(plain)).isSameAs(plain);
    assertThat(new ListenerSecurity.InlineJwks("{\"keys\":[{\"k\":\"secret-value\"}]}").toString())
        .doesNotContain("secret-value");
  }

  @Test
  void aRouteNamesOnlyUserSetsOfItsChainAndTheUsersAreNeverPrinted() {
    ListenerSecurity.BasicAuthUsers users = new ListenerSecurity.BasicAuthUsers("demo/web",
        "alice:{SHA}g2YDYHBhl9R/ddqtGep+ipAO4aU=\n", Optional.of("x-user"));
    RouteSecurity basic = new RouteSecurity(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of("demo/web"));
    assertThat(basic.isNone()).isFalse();
    assertThatThrownBy(() -> chain(ListenerSecurity.NONE, route(basic)))
        .hasMessageContaining("basic-auth user set demo/web");
    Listener.FilterChain.Http chain = chain(new ListenerSecurity(List.of(), List.of(), List.of(users)), route(basic));
    assertThat(chain.security().basicAuth("demo/web")).contains(users);
    assertThat(chain.toString()).contains("BasicAuthUsers[name=demo/web, htpasswd=<redacted 40 chars>")
        .doesNotContain("alice").doesNotContain("g2YDYHBhl9R");
    assertThatThrownBy(() -> new ListenerSecurity(List.of(), List.of(), List.of(users, users)))
        .hasMessageContaining("defined twice");
    assertThatThrownBy(() -> new ListenerSecurity.BasicAuthUsers("demo/web", "", Optional.empty()))
        .hasMessageContaining("non-empty");
    assertThat(RouteSecurity.withoutSecurity(new VirtualHost(VS, List.of("*"), List.of(route(basic))))
        .routes().get(0).security()).isEqualTo(RouteSecurity.NONE);
  }
}
