package io.holdfast.frontend.gloo;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Finding;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteAction;
import io.holdfast.ir.RouteTraffic;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Gloo's external authorisation and rate-limit references (issue 27, with issue 25's edge policies): Settings'
 * servers, {@code customAuth}, AuthConfigs, RateLimitConfigs; and that an unresolved one fails closed.
 */
class GlooEdgePoliciesTest {

  static final String UPSTREAMS = """
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: app, namespace: gloo-system}
      spec: {static: {hosts: [{addr: 192.0.2.10, port: 8080}]}}
      ---
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: authz, namespace: gloo-system}
      spec: {useHttp2: true, static: {hosts: [{addr: 192.0.2.11, port: 9000}]}}
      ---
      apiVersion: gloo.solo.io/v1
      kind: Upstream
      metadata: {name: rls, namespace: gloo-system}
      spec: {useHttp2: true, static: {hosts: [{addr: 192.0.2.12, port: 8081}]}}
      ---
      apiVersion: gateway.solo.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec: {bindAddress: '::', bindPort: 8080, httpGateway: {}}
      ---
      """;

  /** A Settings as Gloo's Helm chart writes it (control-plane fields included), with both servers. */
  static final String SETTINGS = """
      apiVersion: gloo.solo.io/v1
      kind: Settings
      metadata: {name: default, namespace: gloo-system}
      spec:
        discoveryNamespace: gloo-system
        kubernetesArtifactSource: {}
        kubernetesConfigSource: {}
        kubernetesSecretSource: {}
        refreshRate: 60s
        gloo: {xdsBindAddr: "0.0.0.0:9977", invalidConfigPolicy: {replaceInvalidRoutes: false}}
        gateway: {readGatewaysFromAllNamespaces: false, validation: {alwaysAccept: true}}
        ratelimit: {}
        extauth:
          extauthzServerRef: {name: authz, namespace: gloo-system}
          requestTimeout: 0.5s
          requestBody: {maxRequestBytes: 8192}
        ratelimitServer:
          ratelimitServerRef: {name: rls, namespace: gloo-system}
          denyOnFail: true
      ---
      """;

  /** The Holdfast equivalent of {@link #UPSTREAMS} and {@link #SETTINGS}' servers. */
  private static final String HOLDFAST_UPSTREAMS_AND_GATEWAY = """
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: app, namespace: gloo-system}
      spec: {static: {hosts: [{address: 192.0.2.10, port: 8080}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: authz, namespace: gloo-system}
      spec: {http2: true, static: {hosts: [{address: 192.0.2.11, port: 9000}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Upstream
      metadata: {name: rls, namespace: gloo-system}
      spec: {http2: true, static: {hosts: [{address: 192.0.2.12, port: 8081}]}}
      ---
      apiVersion: gateway.holdfast.io/v1
      kind: Gateway
      metadata: {name: gateway-proxy, namespace: gloo-system}
      spec:
        bindAddress: '::'
        port: 8080
        virtualServices: [{name: shop}]
        options:
          normalizePath: true  # Gloo's connection-manager defaults
          webSockets: true
          grpcWeb: true
          rateLimitService: {upstream: rls, domain: custom, timeout: 100ms, failOpen: false}
      ---
      """;

  private static final String RATE_LIMIT_CONFIG = """
      apiVersion: ratelimit.solo.io/v1alpha1
      kind: RateLimitConfig
      metadata: {name: per-client, namespace: gloo-system}
      spec:
        raw:
          rateLimits:
          - actions:
            - genericKey: {descriptorValue: per-client}
            - remoteAddress: {}
      ---
      """;

  private static String virtualService(String hostOptions, String routeOptions) {
    return """
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [shop.example.test]
            options: %s
            routes:
            - matchers: [{prefix: /healthz}]
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
              options: %s
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: app, namespace: gloo-system}}}
        ---
        """.formatted(hostOptions, routeOptions);
  }

  private static List<Route> routes(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> ((Listener.Socket) l).filterChains().stream())
        .filter(c -> c instanceof Listener.FilterChain.Http).map(c -> (Listener.FilterChain.Http) c)
        .flatMap(c -> c.virtualHosts().stream()).flatMap(h -> h.routes().stream()).toList();
  }

  private static Listener.FilterChain.Http chain(IrBuilder.Result result) {
    return result.ir().listeners().stream().filter(l -> l instanceof Listener.Socket)
        .flatMap(l -> ((Listener.Socket) l).filterChains().stream())
        .filter(c -> c instanceof Listener.FilterChain.Http).map(c -> (Listener.FilterChain.Http) c)
        .findFirst().orElseThrow(() -> new AssertionError("no HTTP chain: " + result.statuses()));
  }

  private static List<Finding> errors(ObjectStatus status) {
    return status.findings().stream().filter(f -> f.severity() == Finding.Severity.ERROR).toList();
  }

  @Test
  void customAuthAndRateLimitConfigsLowerAsTheHandWrittenHoldfastEquivalent() {
    String gloo = UPSTREAMS + SETTINGS + RATE_LIMIT_CONFIG + virtualService("""
        {extauth: {customAuth: {}}, rateLimitConfigs: {refs: [{name: per-client, namespace: gloo-system}]}}""",
        """
        {extauth: {disable: true}, ratelimit: {rateLimits: [{actions: [{requestHeaders: {headerName: x-tenant,\
         descriptorKey: tenant}}]}]}}""");
    String holdfast = HOLDFAST_UPSTREAMS_AND_GATEWAY + """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          domains: [shop.example.test]
          options:
            security:
              extAuthz:
                grpc: {upstream: authz}
                timeout: 500ms
                withRequestBody: {maxRequestBytes: 8192}
            rateLimit:
              descriptors:
              - entries: [{genericKey: {key: generic_key, value: per-client}}, {remoteAddress: {}}]
          routes:
          - match: {prefix: /healthz}
            route: {upstream: app}
            options:
              security: {extAuthz: {disabled: true}}
              rateLimit:
                descriptors:
                - entries: [{requestHeader: {header: x-tenant, key: tenant}}]
          - match: {prefix: /}
            route: {upstream: app}
        """;
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());

    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(gloo));
    assertThat(chain(result).security().extAuthz()).singleElement().satisfies(service -> {
      assertThat(service.cluster().name()).isEqualTo("authz");
      assertThat(service.timeout()).hasMillis(500);
      assertThat(service.failureModeAllow()).as("Gloo's default").isFalse();
    });
    assertThat(chain(result).options().rateLimitService()).hasValueSatisfying(rls -> {
      assertThat(rls.domain()).isEqualTo("custom");
      assertThat(rls.failOpen()).as("denyOnFail: true").isFalse();
    });
    assertThat(routes(result)).extracting(r -> r.security().extAuthz().isPresent()).containsExactly(false, true);
    assertThat(routes(result).get(1).traffic().rateLimits()).singleElement().satisfies(d -> assertThat(d.entries())
        .containsExactly(new RouteTraffic.Entry.GenericKey("generic_key", "per-client"),
            new RouteTraffic.Entry.RemoteAddress()));
  }

  @Test
  void passThroughGrpcAuthConfigIsAskedDirectlyOverHttp2() {
    String yaml = UPSTREAMS + """
        apiVersion: enterprise.gloo.solo.io/v1
        kind: AuthConfig
        metadata: {name: passthrough-auth, namespace: gloo-system}
        spec:
          configs:
          - passThroughAuth:
              grpc:
                address: example-grpc-auth-service.default.svc.cluster.local:9001
                connectionTimeout: 3s
              failureModeAllow: true
        ---
        """ + virtualService("{extauth: {configRef: {name: passthrough-auth}}}", "{}");
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "shop").isAccepted()).isTrue();
    assertThat(GlooFixtures.status(result, GlooKinds.ENTERPRISE_GROUP, GlooKinds.AUTH_CONFIG, "gloo-system",
        "passthrough-auth").isAccepted()).isTrue();
    assertThat(chain(result).security().extAuthz()).singleElement().satisfies(service -> {
      assertThat(service.cluster()).isEqualTo(new ResourceKey(GlooKinds.GLOO_GROUP, GlooKinds.AUTHZ_ADDRESS,
          "gloo-system", "example-grpc-auth-service.default.svc.cluster.local:9001"));
      assertThat(service.timeout()).as("Settings' default 200ms, shorter than connectionTimeout").hasMillis(200);
      assertThat(service.failureModeAllow()).isTrue();
    });
    Cluster cluster = result.ir().clusters().stream().filter(c -> c.origin().object().kind()
        .equals(GlooKinds.AUTHZ_ADDRESS)).findFirst().orElseThrow();
    assertThat(cluster.toString()).contains("example-grpc-auth-service.default.svc.cluster.local");
    assertThat(routes(result)).allSatisfy(r -> assertThat(r.security().extAuthz()).isPresent());
  }

  @Test
  void aMissingAuthConfigFailsClosedWithANamedReason() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS
        + virtualService("{extauth: {configRef: {name: not-there, namespace: gloo-system}}}", "{}")));
    ObjectStatus vs = GlooFixtures.virtualService(result, "gloo-system", "shop");
    assertThat(errors(vs)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(EdgePolicies.AUTH_CONFIG_NOT_FOUND);
      assertThat(f.field()).isEqualTo("spec.virtualHost.options.extauth.configRef");
    });
    // Served as it is, but no route is open: each refuses with 403.
    assertThat(routes(result)).hasSize(2).allSatisfy(r -> assertThat(r.action())
        .isInstanceOfSatisfying(RouteAction.DirectResponse.class, d -> assertThat(d.status()).isEqualTo(403)));
  }

  @Test
  void aRouteThatTurnsAuthorisationOffIsNotRefusedByItsHostsMissingAuthConfig() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS
        + virtualService("{extauth: {configRef: {name: not-there}}}", "{extauth: {disable: true}}")));
    assertThat(routes(result).get(0).action()).isInstanceOf(RouteAction.Forward.class);
    assertThat(routes(result).get(1).action()).isInstanceOf(RouteAction.DirectResponse.class);
  }

  @Test
  void authConfigsThatNeedSolosServiceAreRejectedNamingTheFieldAndTheirReferrersFailClosed() {
    Map<String, String> configs = Map.of(
        "oauth2", "oauth2: {oidcAuthorizationCode: {issuerUrl: 'https://idp.example.test/'}}",
        "basicAuth", "basicAuth: {realm: gloo, apr: {users: {user: {salt: s, hashedPassword: h}}}}",
        "apiKeyAuth", "apiKeyAuth: {labelSelector: {team: a}}",
        "opaAuth", "opaAuth: {query: data.test.allow}",
        "http", "passThroughAuth: {http: {url: 'http://auth.example.test:9001/auth'}}");
    configs.forEach((field, config) -> {
      IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + """
          apiVersion: enterprise.gloo.solo.io/v1
          kind: AuthConfig
          metadata: {name: ac, namespace: gloo-system}
          spec:
            configs:
            - %s
          ---
          """.formatted(config) + virtualService("{extauth: {configRef: {name: ac}}}", "{}")));
      ObjectStatus authConfig = GlooFixtures.status(result, GlooKinds.ENTERPRISE_GROUP, GlooKinds.AUTH_CONFIG,
          "gloo-system", "ac");
      assertThat(errors(authConfig)).as(field).anySatisfy(f -> {
        assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED);
        assertThat(f.field()).endsWith("." + field);
      });
      assertThat(errors(GlooFixtures.virtualService(result, "gloo-system", "shop"))).as(field)
          .extracting(Finding::reason).containsExactly(EdgePolicies.AUTH_CONFIG_REJECTED);
      assertThat(routes(result)).as(field).allSatisfy(r -> assertThat(r.action())
          .isInstanceOf(RouteAction.DirectResponse.class));
    });
  }

  @Test
  void customAuthWithoutAnAuthServerInSettingsFailsClosed() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS
        + virtualService("{}", "{extauth: {customAuth: {}}}")));
    assertThat(errors(GlooFixtures.virtualService(result, "gloo-system", "shop"))).extracting(Finding::reason)
        .containsExactly(EdgePolicies.AUTH_SERVER_NOT_CONFIGURED);
    assertThat(routes(result).get(0).action()).isInstanceOf(RouteAction.DirectResponse.class);
    assertThat(routes(result).get(1).action()).isInstanceOf(RouteAction.Forward.class);
  }

  @Test
  void aRoutesOwnServiceIsLiftedToTheVirtualServiceAndTheOtherRoutesTurnItOff() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS
        + virtualService("{}", "{extauth: {customAuth: {}}}")));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "shop").isAccepted()).isTrue();
    assertThat(routes(result)).extracting(r -> r.security().extAuthz().isPresent()).containsExactly(true, false);
  }

  @Test
  void rateLimitConfigsWithTheServersOwnLimitsAreRejectedAndTheirReferrersRefuseWith503() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS + """
        apiVersion: ratelimit.solo.io/v1alpha1
        kind: RateLimitConfig
        metadata: {name: limits, namespace: gloo-system}
        spec:
          raw:
            descriptors:
            - key: generic_key
              value: counter
              rateLimit: {requestsPerUnit: 10, unit: MINUTE}
            rateLimits:
            - actions: [{genericKey: {descriptorValue: counter}}]
        ---
        """ + virtualService("{}", "{rateLimitConfigs: {refs: [{name: limits}]}}")));
    ObjectStatus config = GlooFixtures.status(result, GlooKinds.RATELIMIT_GROUP, GlooKinds.RATE_LIMIT_CONFIG,
        "gloo-system", "limits");
    assertThat(errors(config)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED);
      assertThat(f.field()).isEqualTo("spec.raw.descriptors");
    });
    assertThat(errors(GlooFixtures.virtualService(result, "gloo-system", "shop"))).extracting(Finding::reason)
        .containsExactly(EdgePolicies.RATE_LIMIT_CONFIG_REJECTED);
    assertThat(routes(result).get(0).action()).isInstanceOfSatisfying(RouteAction.DirectResponse.class,
        d -> assertThat(d.status()).isEqualTo(503));
    assertThat(routes(result).get(1).action()).isInstanceOf(RouteAction.Forward.class);
  }

  @Test
  void rateLimitsWithoutARateLimitServerFailClosed() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + RATE_LIMIT_CONFIG
        + virtualService("{rateLimitConfigs: {refs: [{name: per-client}]}}", "{}")));
    assertThat(errors(GlooFixtures.virtualService(result, "gloo-system", "shop"))).extracting(Finding::reason)
        .containsExactly(EdgePolicies.RATE_LIMIT_SERVER_NOT_CONFIGURED);
    assertThat(routes(result)).allSatisfy(r -> assertThat(r.action()).isInstanceOf(RouteAction.DirectResponse.class));
  }

  @Test
  void settingsRejectDataPlaneFieldsHoldfastDoesNotHonourAndFieldsThatAreNotGloos() {
    for (String field : List.of("namedExtauth: {other: {extauthzServerRef: {name: authz}}}",
        "rbac: {requireRbac: true}", "ratelimit: {descriptors: [{key: generic_key, value: a}]}",
        "extauth: {extauthzServerRef: {name: authz}, userIdHeader: x-user-id}", "discoveryNamespacee: typo")) {
      IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + """
          apiVersion: gloo.solo.io/v1
          kind: Settings
          metadata: {name: default, namespace: gloo-system}
          spec:
            %s
          ---
          """.formatted(field) + virtualService("{extauth: {customAuth: {}}}", "{}")));
      ObjectStatus settings = GlooFixtures.status(result, GlooKinds.GLOO_GROUP, GlooKinds.SETTINGS, "gloo-system",
          "default");
      assertThat(errors(settings)).as(field).isNotEmpty()
          .allSatisfy(f -> assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED));
      // Its server is not used: customAuth fails closed.
      assertThat(errors(GlooFixtures.virtualService(result, "gloo-system", "shop"))).as(field)
          .extracting(Finding::reason).containsExactly(EdgePolicies.AUTH_SERVER_NOT_CONFIGURED);
    }
  }

  @Test
  void aSettingsNotNamedDefaultIsNotUsed() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS.replace("name: default",
        "name: other") + virtualService("{extauth: {customAuth: {}}}", "{}")));
    ObjectStatus settings = GlooFixtures.status(result, GlooKinds.GLOO_GROUP, GlooKinds.SETTINGS, "gloo-system",
        "other");
    assertThat(settings.isAccepted()).isTrue();
    assertThat(settings.findings()).extracting(Finding::reason).containsExactly(EdgeObjects.SETTINGS_NOT_USED);
    assertThat(errors(GlooFixtures.virtualService(result, "gloo-system", "shop"))).extracting(Finding::reason)
        .containsExactly(EdgePolicies.AUTH_SERVER_NOT_CONFIGURED);
  }

  @Test
  void aRouteTableRouteCanTurnAuthorisationOffButNotNameAService() {
    String table = """
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: routes, namespace: gloo-system}
        spec:
          routes:
          - matchers: [{prefix: /a}]
            routeAction: {single: {upstream: {name: app}}}
            options: {extauth: %s}
        ---
        """;
    IrBuilder.Result off = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS + table.formatted(
        "{disable: true}")));
    assertThat(GlooFixtures.status(off, GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "gloo-system", "routes")
        .isAccepted()).isTrue();
    IrBuilder.Result service = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS + table.formatted(
        "{customAuth: {}}")));
    assertThat(errors(GlooFixtures.status(service, GlooKinds.GATEWAY_GROUP, GlooKinds.ROUTE_TABLE, "gloo-system",
        "routes"))).singleElement().satisfies(f -> {
          assertThat(f.reason()).isEqualTo(GlooFeatures.UNSUPPORTED);
          assertThat(f.field()).isEqualTo("spec.routes[0].options.extauth");
        });
  }

  @Test
  void repeatedRateLimitConfigReferencesAreBoundedByHoldfastsDescriptorLimit() {
    String refs = "{name: per-client}, ".repeat(io.holdfast.api.TrafficChecks.MAX_DESCRIPTORS + 1);
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS + RATE_LIMIT_CONFIG
        + virtualService("{rateLimitConfigs: {refs: [" + refs + "]}}", "{}")));
    ObjectStatus vs = GlooFixtures.virtualService(result, "gloo-system", "shop");
    assertThat(errors(vs)).singleElement().satisfies(f -> {
      assertThat(f.reason()).isEqualTo(io.holdfast.api.TrafficReasons.TOO_MANY_DESCRIPTORS);
      assertThat(f.field()).isEqualTo("spec.virtualHost.options.rateLimitConfigs.refs[16]");
    });
  }

  @Test
  void aServiceLiftedFromARouteIsOffOnRoutesUnderAHostThatDisablesIt() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS
        + virtualService("{extauth: {disable: true}}", "{extauth: {customAuth: {}}}")));
    assertThat(routes(result)).extracting(r -> r.security().extAuthz().isPresent()).containsExactly(true, false);
  }

  @Test
  void aRateLimitServerUpstreamThatDoesNotExistRejectsTheGatewaysAsInGloo() {
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS.replace("name: rls,", "name: other,")
        + SETTINGS + virtualService("{}", "{}")));
    assertThat(errors(GlooFixtures.gateway(result, "gloo-system", "gateway-proxy"))).extracting(Finding::reason)
        .containsExactly(io.holdfast.api.TrafficReasons.RATE_LIMIT_SERVICE_NOT_FOUND);
  }

  @Test
  void mutatedSettingsAuthConfigsAndRateLimitConfigsNeverThrow() {
    io.holdfast.api.GatewayConfig base = GlooFixtures.load(UPSTREAMS + SETTINGS + RATE_LIMIT_CONFIG + """
        apiVersion: enterprise.gloo.solo.io/v1
        kind: AuthConfig
        metadata: {name: pass, namespace: gloo-system}
        spec:
          configs:
          - passThroughAuth: {grpc: {address: 'auth.example.test:9001', connectionTimeout: 1s}}
        ---
        """ + virtualService("{extauth: {configRef: {name: pass}}, rateLimitConfigs: {refs: [{name: per-client}]}}",
        "{extauth: {customAuth: {}}, ratelimit: {includeVhRateLimits: true, rateLimits: [{actions: "
            + "[{requestHeaders: {headerName: x-a, descriptorKey: a}}]}]}}"));
    java.util.Random random = new java.util.Random(25);
    for (int round = 0; round < 300; round++) {
      io.holdfast.api.GatewayConfig.Builder config = io.holdfast.api.GatewayConfig.builder();
      for (io.holdfast.api.ApiObject object : base.apiObjects()) {
        tools.jackson.databind.node.ObjectNode body = object.bodyCopy();
        GlooHostileInputTest.mutate(body, random);
        config.add(new io.holdfast.api.ApiObject(object.key(), object.generation(), body));
      }
      IrBuilder builder = new IrBuilder();
      new GlooFrontEnd().lower(config.build(), builder);
      IrBuilder.Result result = builder.build();
      for (io.holdfast.api.ApiObject object : base.apiObjects()) {
        assertThat(result.statuses()).containsKey(object.key());
        assertThat(result.statuses().get(object.key()).findings()).as("round %d: %s", round, object.key())
            .noneSatisfy(f -> assertThat(f.reason()).isEqualTo("InternalError"));
      }
    }
  }

  @Test
  void aPassThroughServerIsOnlyServedForAnAcceptedVirtualService() {
    String authConfig = """
        apiVersion: enterprise.gloo.solo.io/v1
        kind: AuthConfig
        metadata: {name: pass, namespace: gloo-system}
        spec: {configs: [{passThroughAuth: {grpc: {address: 'auth.example.test:9001'}}}]}
        ---
        """;
    IrBuilder.Result rejected = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + authConfig
        + virtualService("{extauth: {configRef: {name: pass}}, waf: {}}", "{}")));
    assertThat(GlooFixtures.virtualService(rejected, "gloo-system", "shop").isAccepted()).isFalse();
    assertThat(rejected.ir().clusters()).noneSatisfy(c -> assertThat(c.origin().object().kind())
        .isEqualTo(GlooKinds.AUTHZ_ADDRESS));
  }

  @Test
  void optionObjectsCarryExtauthAndRateLimitsAsGlooMergesThem() {
    String yaml = UPSTREAMS + SETTINGS + RATE_LIMIT_CONFIG + """
        apiVersion: gateway.solo.io/v1
        kind: VirtualHostOption
        metadata: {name: auth, namespace: gloo-system}
        spec: {options: {extauth: {customAuth: {}}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteOption
        metadata: {name: open-and-limited, namespace: gloo-system}
        spec: {options: {extauth: {disable: true}, rateLimitConfigs: {refs: [{name: per-client}]}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          virtualHost:
            domains: [shop.example.test]
            optionsConfigRefs: {delegateOptions: [{name: auth}]}
            routes:
            - matchers: [{prefix: /public}]
              routeAction: {single: {upstream: {name: app}}}
              optionsConfigRefs: {delegateOptions: [{name: open-and-limited}]}
            - matchers: [{prefix: /}]
              routeAction: {single: {upstream: {name: app}}}
        """;
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(yaml));
    assertThat(GlooFixtures.virtualService(result, "gloo-system", "shop").isAccepted()).isTrue();
    assertThat(routes(result)).extracting(r -> r.security().extAuthz().isPresent()).containsExactly(false, true);
    assertThat(routes(result)).extracting(r -> r.traffic().rateLimits().size()).containsExactly(1, 0);
  }

  @Test
  void includeVhRateLimitsAddsTheVirtualHostsActionsToTheRoutesOwn() {
    String own = "ratelimit: {rateLimits: [{actions: [{requestHeaders: {headerName: x-a, descriptorKey: a}}]}]";
    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS + RATE_LIMIT_CONFIG
        + virtualService("{rateLimitConfigs: {refs: [{name: per-client}]}}", "{" + own
            + ", includeVhRateLimits: true}}")));
    assertThat(routes(result).get(0).traffic().rateLimits()).extracting(d -> d.entries().get(0))
        .containsExactly(new RouteTraffic.Entry.GenericKey("generic_key", "per-client"),
            new RouteTraffic.Entry.RequestHeader("x-a", "a"));
    IrBuilder.Result replaced = GlooFixtures.build(GlooFixtures.load(UPSTREAMS + SETTINGS + RATE_LIMIT_CONFIG
        + virtualService("{rateLimitConfigs: {refs: [{name: per-client}]}}", "{" + own + "}}")));
    assertThat(routes(replaced).get(0).traffic().rateLimits()).extracting(d -> d.entries().get(0))
        .containsExactly(new RouteTraffic.Entry.RequestHeader("x-a", "a"));
  }

  /**
   * Gloo's two JWT stages around external auth (the Auth0/Okta guides' unstaged jwt after extauth, plus a
   * beforeExtAuth stage): the same xDS as Holdfast's jwt and jwtAfterAuthz, a route turning off only the second.
   */
  @Test
  void jwtBeforeAndAfterExternalAuthLowerAsTheHandWrittenHoldfastEquivalent() {
    String jwks = "'{\"keys\":[{\"kty\":\"RSA\",\"n\":\"sXchDaQebHnPiGvyDOAT4saGEUetSyo9\",\"e\":\"AQAB\"}]}'";
    String gloo = UPSTREAMS + SETTINGS + virtualService("""
        {extauth: {customAuth: {}}, jwtStaged: {
          beforeExtAuth: {providers: {idp: {issuer: https://idp.example.test, jwks: {local: {key: %1$s}}}}},
          afterExtAuth: {providers: {session: {issuer: https://authz.example.test, jwks: {local: {key: %1$s}},
            tokenSource: {headers: [{header: x-session-jwt}]}}}}}}""".formatted(jwks),
        "{jwtStaged: {afterExtAuth: {disable: true}}}");
    String holdfast = HOLDFAST_UPSTREAMS_AND_GATEWAY + """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: shop, namespace: gloo-system}
        spec:
          domains: [shop.example.test]
          options:
            security:
              jwtProviders:
                - {name: idp, issuer: https://idp.example.test, localJwks: {inline: %1$s}}
                - {name: session, issuer: https://authz.example.test, localJwks: {inline: %1$s},
                   fromHeaders: [{name: x-session-jwt, prefix: ""}]}
              jwt: {providers: [idp]}
              extAuthz:
                grpc: {upstream: authz}
                timeout: 500ms
                withRequestBody: {maxRequestBytes: 8192}
              jwtAfterAuthz: {providers: [session]}
          routes:
          - match: {prefix: /healthz}
            route: {upstream: app}
            options:
              security: {jwtAfterAuthz: {mode: Disabled}}
          - match: {prefix: /}
            route: {upstream: app}
        """.formatted(jwks);
    Equivalence.assertSameXds(GlooFixtures.load(gloo), GlooFixtures.load(holdfast), Map.of());

    IrBuilder.Result result = GlooFixtures.build(GlooFixtures.load(gloo));
    assertThat(routes(result)).extracting(r -> r.security().jwt().map(j -> j.providers()).orElse(List.of()))
        .containsExactly(List.of("gloo-system/shop/idp"), List.of("gloo-system/shop/idp"));
    assertThat(routes(result)).extracting(r -> r.security().jwtAfterAuthz().map(j -> j.providers())
        .orElse(List.of())).containsExactly(List.of(), List.of("gloo-system/shop/session"));
  }
}
