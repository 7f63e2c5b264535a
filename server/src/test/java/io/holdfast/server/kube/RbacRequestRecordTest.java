package io.holdfast.server.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.api.InputLimits;
import io.holdfast.api.ResourceKey;
import io.holdfast.election.ElectionSettings;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.server.HoldfastServer;
import io.holdfast.server.cli.LogFormat;
import io.holdfast.server.cli.ServeSettings;
import io.holdfast.testkit.ApiRequest;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import io.holdfast.testkit.RbacRules;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The RBAC files in deploy/ are derived from what Holdfast really asks the API for: a Kubernetes-mode server (leader
 * election, every Holdfast and Gateway API kind, certificates and CA bundles, a --gateway-service) runs against the
 * emulated API until it has written every kind of status, and every request it made (user agent
 * {@code holdfast/<identity>}) must be allowed by deploy/rbac.yaml, or, watching two namespaces, by
 * deploy/rbac-namespaced/ alone. Conversely every verb those files grant on a resource was used, but for the
 * {@code get}s listed in {@link #GRANTED_BUT_NOT_EXERCISED} with their reason.
 */
class RbacRequestRecordTest {
  private static final Duration CONVERGE = Duration.ofSeconds(60);
  private static final String IDENTITY = "replica-1";
  private static final Path DEPLOY = Path.of("..", "deploy");
  /**
   * Granted, and needed, but a run without conflicts does not exercise them: the status writer reads an object by
   * name (get) only when its cached copy is missing or a write met a conflict (409).
   */
  private static final Set<String> GRANTED_BUT_NOT_EXERCISED = Set.of("get");

  /** Objects in {@code ns}: every Holdfast kind, a Gateway API Gateway and route, Services, two Secret types. */
  private static String objects(String ns) {
    return """
        apiVersion: v1
        kind: Namespace
        metadata: {name: %1$s, labels: {team: %1$s}}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: web-tls, namespace: %1$s}
        type: kubernetes.io/tls
        stringData: {tls.crt: not-a-certificate, tls.key: not-a-key}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: clients, namespace: %1$s}
        type: Opaque
        stringData: {ca.crt: not-a-ca}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web, namespace: %1$s}
        spec: {ports: [{name: http, port: 8080}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: web, namespace: %1$s}
        spec: {kube: {name: web, port: 8080}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: %1$s, labels: {expose: public}}
        spec:
          domains: [web.%1$s.test]
          routes: [{match: {prefix: /}, route: {upstream: web}}]
          sslConfig: {secretRef: {name: web-tls}, clientCa: {secretRef: {name: clients}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: public, namespace: %1$s}
        spec: {port: 10080, selector: {matchLabels: {expose: public}}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: passthrough, namespace: %1$s}
        spec: {port: 10444, hosts: [{name: default, upstream: {name: web}}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: RouteTable
        metadata: {name: table, namespace: %1$s}
        spec: {routes: [{match: {prefix: /t}, route: {upstream: web}}]}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: edge, namespace: %1$s}
        spec:
          gatewayClassName: holdfast
          listeners:
          - {name: http, port: 10090, protocol: HTTP}
          - name: https
            port: 10443
            protocol: HTTPS
            tls: {mode: Terminate, certificateRefs: [{name: web-tls}]}
          - {name: tls, port: 10445, protocol: TLS, tls: {mode: Passthrough}}
          - {name: tcp, port: 10446, protocol: TCP}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: GRPCRoute
        metadata: {name: web, namespace: %1$s}
        spec:
          parentRefs: [{name: edge, sectionName: http}]
          hostnames: [grpc.%1$s.test]
          rules: [{backendRefs: [{name: web, port: 8080}]}]
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: TLSRoute
        metadata: {name: web, namespace: %1$s}
        spec:
          parentRefs: [{name: edge, sectionName: tls}]
          hostnames: [tls.%1$s.test]
          rules: [{backendRefs: [{name: web, port: 8080}]}]
        ---
        apiVersion: gateway.networking.k8s.io/v1alpha2
        kind: TCPRoute
        metadata: {name: web, namespace: %1$s}
        spec:
          parentRefs: [{name: edge, sectionName: tcp}]
          rules: [{backendRefs: [{name: web, port: 8080}]}]
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: web, namespace: %1$s}
        spec:
          parentRefs: [{name: edge, sectionName: http}]
          hostnames: [http.%1$s.test]
          rules: [{backendRefs: [{name: web, port: 8080}]}]
        ---
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: grant, namespace: %1$s}
        spec:
          from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: other}]
          to: [{group: "", kind: Service}]
        ---
        apiVersion: gloo.solo.io/v1
        kind: Upstream
        metadata: {name: gloo, namespace: %1$s}
        spec: {kube: {serviceName: web, servicePort: 8080}}
        ---
        apiVersion: gloo.solo.io/v1
        kind: UpstreamGroup
        metadata: {name: gloo, namespace: %1$s}
        spec: {destinations: [{destination: {upstream: {name: gloo}}, weight: 1}]}
        ---
        apiVersion: gloo.solo.io/v1
        kind: Settings
        metadata: {name: gloo, namespace: %1$s}
        spec: {discoveryNamespace: %1$s}
        ---
        apiVersion: enterprise.gloo.solo.io/v1
        kind: AuthConfig
        metadata: {name: gloo, namespace: %1$s}
        spec: {configs: [{passThroughAuth: {grpc: {address: 'authz.%1$s.test:9001'}}}]}
        ---
        apiVersion: ratelimit.solo.io/v1alpha1
        kind: RateLimitConfig
        metadata: {name: gloo, namespace: %1$s}
        spec: {raw: {rateLimits: [{actions: [{remoteAddress: {}}]}]}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteOption
        metadata: {name: gloo, namespace: %1$s}
        spec: {options: {timeout: 5s}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualHostOption
        metadata: {name: gloo, namespace: %1$s}
        spec: {options: {headerManipulation: {responseHeadersToRemove: [server]}}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: RouteTable
        metadata: {name: gloo, namespace: %1$s}
        spec:
          routes:
          - matchers: [{prefix: /gloo/api}]
            routeAction: {upstreamGroup: {name: gloo}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: VirtualService
        metadata: {name: gloo, namespace: %1$s}
        spec:
          virtualHost:
            domains: [gloo.%1$s.test]
            optionsConfigRefs: {delegateOptions: [{name: gloo}]}
            routes:
            - matchers: [{prefix: /gloo}]
              delegateAction: {ref: {name: gloo}}
        ---
        apiVersion: gateway.solo.io/v1
        kind: Gateway
        metadata: {name: gloo, namespace: %1$s}
        spec: {bindAddress: 0.0.0.0, bindPort: 18080, httpGateway: {virtualServiceNamespaces: [%1$s]}}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: web, namespace: %1$s}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
          rbac: {action: Deny, rules: [{clientIp: [192.0.2.0/24]}]}
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: TrafficPolicy
        metadata: {name: web, namespace: %1$s}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: web}]
          compression: [gzip]
        ---
        apiVersion: gateway.holdfast.io/v1
        kind: ClientTrafficPolicy
        metadata: {name: web, namespace: %1$s}
        spec:
          targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
          idleTimeout: 30s
        """.formatted(ns);
  }

  private static final String CLUSTER_OBJECTS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: holdfast}
      spec: {controllerName: holdfast.io/gateway-controller}
      ---
      apiVersion: v1
      kind: Service
      metadata: {name: front, namespace: team-a}
      spec: {type: LoadBalancer, ports: [{port: 443}]}
      """;

  @Test
  void everyRequestOfAClusterWideServerIsAllowedByRbacYaml() throws Exception {
    List<HasMetadata> rbac = manifests(DEPLOY.resolve("rbac.yaml"));
    List<ApiRequest> requests = run(List.of());
    assertAllowed(requests, rbac);
    assertEveryGrantUsed(requests, rbac);
  }

  @Test
  void everyRequestOfAServerWatchingTwoNamespacesIsAllowedByTheNamespacedRoles() throws Exception {
    List<HasMetadata> rbac = new ArrayList<>();
    try (Stream<Path> files = Files.list(DEPLOY.resolve("rbac-namespaced"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
        rbac.addAll(manifests(f));
      }
    }
    List<ApiRequest> requests = run(List.of("team-a", "team-b"));
    assertAllowed(requests, rbac);
    assertEveryGrantUsed(requests, rbac);
    // Nothing namespaced was read cluster-wide, and nothing at all in the unwatched namespace.
    assertThat(requests).noneMatch(r -> r.resourcePath().contains("/namespaces/team-c"));
    assertThat(requests).filteredOn(r -> RbacRules.attributes(r).map(a -> a.namespace().isEmpty()).orElse(false))
        .extracting(r -> RbacRules.attributes(r).orElseThrow().resource())
        .containsOnly("gatewayclasses", "namespaces");
  }

  /** Runs a server until every kind's status was written; returns the server's requests. */
  private static List<ApiRequest> run(List<String> watched) throws Exception {
    try (MockKubeApi api = MockKubeApi.start()) {
      KubernetesClient admin = api.admin();
      for (String file : List.of("upstreams", "virtualservices", "gateways", "tcpgateways", "routetables",
          "clienttrafficpolicies", "trafficpolicies", "securitypolicies")) {
        try (InputStream in = Files.newInputStream(DEPLOY.resolve("crds").resolve("gateway.holdfast.io_" + file
            + ".yaml"))) {
          admin.apiextensions().v1().customResourceDefinitions().resource(admin.getKubernetesSerialization()
              .unmarshal(in, CustomResourceDefinition.class)).create();
        }
      }
      GatewayApiCrds.install(admin);
      installGlooCrds(admin);
      apply(admin, CLUSTER_OBJECTS);
      for (String ns : List.of("team-a", "team-b", "team-c")) {
        apply(admin, objects(ns));
      }
      ElectionSettings election = ElectionSettings.builder().identity(IDENTITY).leaseNamespace("holdfast-system")
          .leaseDuration(Duration.ofSeconds(2)).renewDeadline(Duration.ofMillis(1500))
          .retryPeriod(Duration.ofMillis(300)).lockTimeout(Duration.ofMillis(500))
          .leaderRequestTimeout(Duration.ofMillis(300)).fenceSlack(Duration.ofMillis(150)).build();
      ServeSettings settings = new ServeSettings(null, "127.0.0.1", 0, "127.0.0.1", 0, Optional.empty(),
          LogFormat.TEXT, Optional.empty(), Optional.of(new ServeSettings.KubernetesSource(watched,
          Optional.of("http://127.0.0.1:" + api.port()), Optional.empty())), election, Optional.empty(),
          Optional.empty(), "holdfast.io/gateway-controller", InputLimits.DEFAULTS,
          new ServeSettings.GatewayAddressing(List.of(), Optional.of("team-a/front")));
      List<String> expected = watched.isEmpty() ? List.of("team-a", "team-b", "team-c") : watched;
      try (HoldfastServer ignored = HoldfastServer.start(settings, Clock.systemUTC())) {
        await().atMost(CONVERGE).untilAsserted(() -> {
          assertThat(status(admin, GatewayCrds.GATEWAY_CLASS, "", "holdfast")).isNotEmpty();
          for (String ns : expected) {
            for (ResourceDefinitionContext kind : List.of(GatewayCrds.UPSTREAM, GatewayCrds.VIRTUAL_SERVICE,
                GatewayCrds.GATEWAY, GatewayCrds.TCP_GATEWAY, GatewayCrds.ROUTE_TABLE,
                GatewayCrds.GATEWAY_API_GATEWAY, GatewayCrds.HTTP_ROUTE, GatewayCrds.GRPC_ROUTE, GatewayCrds.TLS_ROUTE,
                GatewayCrds.TCP_ROUTE, GatewayCrds.SECURITY_POLICY, GatewayCrds.TRAFFIC_POLICY,
                GatewayCrds.CLIENT_TRAFFIC_POLICY)) {
              assertThat(status(admin, kind, ns, name(kind))).as(kind.getKind() + " in " + ns).isNotEmpty();
            }
            for (ResourceDefinitionContext kind : GatewayCrds.GLOO.stream()
                .filter(k -> !k.getGroup().equals("ratelimit.solo.io")).toList()) { // its status is the rate limiter's
              assertThat(status(admin, kind, ns, "gloo").get("statuses")).as(kind.getKind() + "." + kind.getGroup()
                  + " in " + ns).asString().contains("holdfast-system=");
            }
          }
        });
        // The policies reached the Gateway API front end from the cluster and attached to their targets.
        for (ResourceDefinitionContext kind : List.of(GatewayCrds.SECURITY_POLICY, GatewayCrds.TRAFFIC_POLICY,
            GatewayCrds.CLIENT_TRAFFIC_POLICY)) {
          assertThat(status(admin, kind, expected.get(0), "web").get("conditions")).as(kind.getKind())
              .asString().contains("type=Accepted").contains("status=True");
        }
        // The unwatched namespace gets no status: the server never saw it.
        if (!watched.isEmpty()) {
          assertThat(status(admin, GatewayCrds.VIRTUAL_SERVICE, "team-c", "web")).isEmpty();
        }
      }
      List<ApiRequest> ours = api.requests().stream().filter(r -> r.userAgent().equals("holdfast/" + IDENTITY))
          .toList();
      assertThat(ours).as("the server's requests were recorded").hasSizeGreaterThan(20);
      return ours;
    }
  }

  /**
   * Gloo Edge's kinds as deploy/crds-gloo defines them: like Gloo's own CRDs, without a status subresource, so the
   * run exercises (and the RBAC must allow) the status write through the object.
   */
  private static void installGlooCrds(KubernetesClient admin) throws IOException {
    for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
      try (InputStream in = Files.newInputStream(DEPLOY.resolve("crds-gloo").resolve(kind.getGroup() + "_"
          + kind.getPlural() + ".yaml"))) {
        admin.apiextensions().v1().customResourceDefinitions().resource(admin.getKubernetesSerialization()
            .unmarshal(in, CustomResourceDefinition.class)).create();
      }
    }
  }

  private static String name(ResourceDefinitionContext kind) {
    return switch (kind.getKind()) {
      case "Gateway" -> kind.getGroup().equals(GatewayCrds.GATEWAY_API_GROUP) ? "edge" : "public";
      case "TcpGateway" -> "passthrough";
      case "RouteTable" -> "table";
      default -> "web";
    };
  }

  private static void assertAllowed(List<ApiRequest> requests, List<HasMetadata> rbac) {
    RbacRules rules = RbacRules.forServiceAccount(rbac, "holdfast-system", "holdfast");
    List<String> denied = requests.stream().filter(r -> !rules.allows(r))
        .map(r -> r.method() + " " + r.path() + " -> " + RbacRules.attributes(r).map(Object::toString).orElse(""))
        .distinct().toList();
    assertThat(denied).as("requests the RBAC files do not allow").isEmpty();
  }

  /** Every (group/resource, verb) the files grant was used, but for the documented exceptions. */
  private static void assertEveryGrantUsed(List<ApiRequest> requests, List<HasMetadata> rbac) {
    Set<String> used = new TreeSet<>();
    requests.forEach(r -> RbacRules.attributes(r).ifPresent(a -> used.add(a.group() + "/" + a.qualifiedResource()
        + ":" + a.verb())));
    Set<String> granted = new TreeSet<>();
    for (HasMetadata m : rbac) {
      List<io.fabric8.kubernetes.api.model.rbac.PolicyRule> rules =
          m instanceof io.fabric8.kubernetes.api.model.rbac.ClusterRole c ? c.getRules()
              : m instanceof io.fabric8.kubernetes.api.model.rbac.Role r ? r.getRules() : List.of();
      for (var rule : rules) {
        for (String group : rule.getApiGroups()) {
          for (String resource : rule.getResources()) {
            for (String verb : rule.getVerbs()) {
              if (!GRANTED_BUT_NOT_EXERCISED.contains(verb)) {
                granted.add(group + "/" + resource + ":" + verb);
              }
            }
          }
        }
      }
    }
    granted.removeAll(used);
    assertThat(granted).as("granted but never used").isEmpty();
  }

  private static List<HasMetadata> manifests(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      Object parsed = new KubernetesSerialization().unmarshal(in);
      List<HasMetadata> out = new ArrayList<>();
      if (parsed instanceof List<?> list) {
        list.forEach(o -> out.add((HasMetadata) o));
      } else {
        out.add((HasMetadata) parsed);
      }
      return out;
    }
  }

  private static void apply(KubernetesClient admin, String yaml) {
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      GenericKubernetesResource generic = admin.getKubernetesSerialization().unmarshal(doc,
          GenericKubernetesResource.class);
      String group = generic.getApiVersion().contains("/") ? generic.getApiVersion().split("/")[0] : "";
      Optional<ResourceDefinitionContext> custom = GatewayCrds.context(new ResourceKey(group, generic.getKind(), "",
          ""));
      if (custom.isPresent()) {
        var op = admin.genericKubernetesResources(custom.get());
        (Boolean.TRUE.equals(custom.get().isNamespaceScoped())
            ? op.inNamespace(generic.getMetadata().getNamespace()) : op).resource(generic).create();
      } else {
        admin.resource((HasMetadata) admin.getKubernetesSerialization().unmarshal(doc)).create();
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(KubernetesClient admin, ResourceDefinitionContext kind, String ns,
      String name) {
    var op = admin.genericKubernetesResources(kind);
    GenericKubernetesResource r = (ns.isEmpty() ? op : op.inNamespace(ns)).withName(name).get();
    Object status = r == null ? null : r.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }
}
