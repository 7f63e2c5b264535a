package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.kubeUpstream;
import static io.holdfast.kube.source.KubeObjects.resource;
import static io.holdfast.kube.source.KubeObjects.service;
import static io.holdfast.kube.source.KubeObjects.slice;
import static io.holdfast.kube.source.KubeObjects.virtualService;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.api.Endpoint;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.kube.source.KubeObjects.Ep;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigAssemblerTest {

  private final Map<String, List<GenericKubernetesResource>> customs = new HashMap<>();
  private final Map<String, Service> services = new HashMap<>();
  private final List<EndpointSlice> slices = new ArrayList<>();
  private final Map<String, Secret> secrets = new HashMap<>();
  private final Map<String, Map<String, String>> pods = new HashMap<>();
  private boolean podsReadable = true;

  private final ClusterView view = new ClusterView() {
    @Override
    public List<GenericKubernetesResource> customResources(ResourceDefinitionContext kind) {
      return customs.getOrDefault(kind.getKind(), List.of()).stream()
          .filter(r -> kind.getGroup().equals(GatewayCrds.GROUP)).toList();
    }

    @Override
    public Optional<Service> service(String namespace, String name) {
      return Optional.ofNullable(services.get(namespace + "/" + name));
    }

    @Override
    public List<EndpointSlice> slicesOf(String namespace, String service) {
      return slices.stream().filter(s -> s.getMetadata().getNamespace().equals(namespace)
          && service.equals(s.getMetadata().getLabels().get(EndpointResolver.SERVICE_NAME_LABEL))).toList();
    }

    @Override
    public Optional<Secret> secret(String namespace, String name) {
      return Optional.ofNullable(secrets.get(namespace + "/" + name));
    }

    @Override
    public Optional<Map<String, String>> podLabels(String namespace, String name) {
      return Optional.ofNullable(pods.get(namespace + "/" + name));
    }

    @Override
    public boolean podsReadable() {
      return podsReadable;
    }
  };

  private void add(GenericKubernetesResource r) {
    customs.computeIfAbsent(r.getKind(), k -> new ArrayList<>()).add(r);
  }

  @Test
  void parsesEveryKindKeepsInvalidOnesAsUnparsedAndRecordsTheirMetadata() {
    GenericKubernetesResource vs = virtualService("demo", "good", "a.test");
    vs.getMetadata().setResourceVersion("17");
    vs.getMetadata().setGeneration(3L);
    vs.getMetadata().setUid("uid-1");
    add(vs);
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: broken, namespace: demo, generation: 2}
        spec: {domains: [b.test], routes: [], colour: blue}
        """));
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: demo}
        spec: {port: 10080}
        """));

    var assembled = new ConfigAssembler(new KubernetesSerialization()).assemble(view);

    assertThat(assembled.config().virtualServices()).extracting(v -> v.key().name()).containsExactly("good");
    assertThat(assembled.config().virtualServices().get(0).metadata().generation()).isEqualTo(3);
    assertThat(assembled.config().gateways()).hasSize(1);
    assertThat(assembled.config().unparsed()).singleElement().satisfies(u -> {
      assertThat(u.key()).isEqualTo(ResourceKey.virtualService("demo", "broken"));
      assertThat(u.generation()).isEqualTo(2);
      assertThat(u.problems()).extracting(Problem::field).containsExactly("spec.colour");
    });
    assertThat(assembled.observed()).containsOnlyKeys(ResourceKey.virtualService("demo", "good"),
        ResourceKey.virtualService("demo", "broken"), ResourceKey.gateway("demo", "gw"));
    assertThat(assembled.observed().get(ResourceKey.virtualService("demo", "good")))
        .isEqualTo(new ObservedObject("17", 3, "uid-1"));
  }

  @Test
  void listItemsWithoutApiVersionOrKindStillParse() {
    GenericKubernetesResource vs = virtualService("demo", "bare", "a.test");
    vs.setApiVersion(null);
    vs.setKind(null);
    customs.put(ResourceKey.VIRTUAL_SERVICE, List.of(vs));

    assertThat(new ConfigAssembler(new KubernetesSerialization()).assemble(view).config().virtualServices()).hasSize(1);
  }

  @Test
  void kubeUpstreamsGetTheirServiceEndpointsAndOnlyThose() {
    add(kubeUpstream("demo", "echo", "echo", 80));
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: other, namespace: demo}
        spec: {kube: {namespace: elsewhere, name: missing, port: 80}}
        """));
    services.put("demo/echo", service("demo", "echo", "http:80"));
    services.put("demo/unused", service("demo", "unused", "http:80"));
    slices.add(slice("demo", "echo-1", "echo", "http", 8080, List.of(new Ep("127.0.0.1", true))));
    slices.add(slice("demo", "unused-1", "unused", "http", 8080, List.of(new Ep("127.0.0.2", true))));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.serviceEndpoints()).containsOnlyKeys(new ServiceRef("demo", "echo", 80));
    assertThat(config.endpointsOf(new ServiceRef("demo", "echo", 80)))
        .containsExactly(new Endpoint("127.0.0.1", 8080));
  }

  @Test
  void secretsNamedByAnSslConfigArriveDecodedAndNoOtherSecretDoes() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [a.test]
          routes: []
          sslConfig:
            secretRef: {name: web-tls}
            clientCa: {secretRef: {name: clients, namespace: pki}}
        """));
    secrets.put("shop/web-tls", secret("shop", "web-tls", Map.of("tls.crt", "CERT", "tls.key", "KEY")));
    secrets.put("shop/unrelated", secret("shop", "unrelated", Map.of("password", "hunter2")));
    Secret written = secret("pki", "clients", Map.of());
    written.setData(null);
    written.setStringData(Map.of("ca.crt", "CA")); // an emulated API may keep stringData as written
    secrets.put("pki/clients", written);

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("shop", "web-tls"),
        TlsSecretData.secretKey("pki", "clients"));
    assertThat(config.secretOf(TlsSecretData.secretKey("shop", "web-tls")).orElseThrow().entries())
        .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("tls.crt", "CERT", "tls.key", "KEY")));
    assertThat(config.secretOf(TlsSecretData.secretKey("pki", "clients")).orElseThrow().entries())
        .containsEntry("ca.crt", "CA");
    assertThat(config.toString()).doesNotContain("KEY\"").doesNotContain("hunter2");
  }

  @Test
  void secretsNamedByATcpGatewaysTerminatingHostsArriveToo() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: edge, namespace: shop}
        spec:
          port: 9000
          hosts:
          - name: db
            sniDomains: [db.test]
            upstream: {name: db}
            sslConfig: {secretRef: {name: db-tls}, clientCa: {secretRef: {name: clients, namespace: pki}}}
        """));
    secrets.put("shop/db-tls", secret("shop", "db-tls", Map.of("tls.crt", "CERT", "tls.key", "KEY")));
    secrets.put("pki/clients", secret("pki", "clients", Map.of("ca.crt", "CA")));
    secrets.put("shop/unrelated", secret("shop", "unrelated", Map.of("password", "hunter2")));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("shop", "db-tls"),
        TlsSecretData.secretKey("pki", "clients"));
  }

  @Test
  void secretsNamedByAnUpstreamsTlsArriveToo() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: billing, namespace: shop}
        spec:
          static: {hosts: [{address: billing.test, port: 443}]}
          tls:
            trustedCa: {secretRef: {name: billing-ca, namespace: pki}}
            clientCertificate: {secretRef: {name: proxy-client}}
        """));
    secrets.put("pki/billing-ca", secret("pki", "billing-ca", Map.of("ca.crt", "CA")));
    secrets.put("shop/proxy-client", secret("shop", "proxy-client", Map.of("tls.crt", "CERT", "tls.key", "KEY")));
    secrets.put("shop/unrelated", secret("shop", "unrelated", Map.of("password", "hunter2")));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("pki", "billing-ca"),
        TlsSecretData.secretKey("shop", "proxy-client"));
    assertThat(config.secretOf(TlsSecretData.secretKey("pki", "billing-ca")).orElseThrow().entries())
        .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("ca.crt", "CA")));
  }

  @Test
  void secretsNamedBySecurityOptionsAndSecurityPoliciesArriveAndNoOtherSecretDoes() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [a.test]
          routes: []
          options:
            security:
              basicAuth: {users: {name: web-users}}
              jwtProviders:
                - {name: a, issuer: https://a.test, localJwks: {secretRef: {name: keys, namespace: pki}}}
        """));
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: edge, namespace: team}
        spec:
          targetRefs: [{kind: Gateway, name: edge}]
          basicAuth: {users: {name: team-users}}
        """));
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: broken, namespace: team}
        spec:
          basicAuth: {users: {name: never-fetched}, bogus: 1}
        """));
    secrets.put("shop/web-users", opaque("shop", "web-users", Map.of(".htpasswd", "alice:{SHA}hunter2hash")));
    secrets.put("pki/keys", opaque("pki", "keys", Map.of("jwks", "{\"keys\": []}")));
    secrets.put("team/team-users", opaque("team", "team-users", Map.of(".htpasswd", "bob:{SHA}x")));
    secrets.put("team/never-fetched", opaque("team", "never-fetched", Map.of(".htpasswd", "eve:{SHA}x")));
    secrets.put("shop/unrelated", opaque("shop", "unrelated", Map.of("password", "hunter2")));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("shop", "web-users"),
        TlsSecretData.secretKey("pki", "keys"), TlsSecretData.secretKey("team", "team-users"));
    assertThat(config.secretOf(TlsSecretData.secretKey("shop", "web-users")).orElseThrow().entries())
        .containsEntry(".htpasswd", "alice:{SHA}hunter2hash");
    assertThat(config.toString()).doesNotContain("hunter2");
  }

  @Test
  void theOAuth2LoginsSecretsArriveFromVirtualServicesAndSecurityPolicies() {
    String login = """
          oauth2:
            tokenEndpoint: {uri: 'https://idp.test/token', upstream: idp}
            authorizationEndpoint: https://idp.test/authorize
            clientId: c
            clientSecret: {name: %s}
            hmacSecret: {name: %s, key: hmac}
        """;
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [a.test]
          routes: []
          options:
            security:
        """ + login.formatted("web-oauth", "web-hmac").indent(4)));
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: SecurityPolicy
        metadata: {name: edge, namespace: team}
        spec:
          targetRefs: [{kind: Gateway, name: edge}]
        """ + login.formatted("team-oauth", "idp-hmac, namespace: idp")));
    secrets.put("shop/web-oauth", opaque("shop", "web-oauth", Map.of("client-secret", "hunter2-client")));
    secrets.put("shop/web-hmac", opaque("shop", "web-hmac", Map.of("hmac", "hunter2-hmac")));
    secrets.put("team/team-oauth", opaque("team", "team-oauth", Map.of("client-secret", "c", "hmac", "h")));
    // Another namespace's is fetched too: whether a ReferenceGrant allows it is the front end's verdict.
    secrets.put("idp/idp-hmac", opaque("idp", "idp-hmac", Map.of("hmac", "h")));
    secrets.put("shop/unrelated", opaque("shop", "unrelated", Map.of("password", "hunter2")));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.secrets()).containsOnlyKeys(TlsSecretData.secretKey("shop", "web-oauth"),
        TlsSecretData.secretKey("shop", "web-hmac"), TlsSecretData.secretKey("team", "team-oauth"),
        TlsSecretData.secretKey("idp", "idp-hmac"));
    assertThat(config.toString()).doesNotContain("hunter2");
  }

  @Test
  void aMissingSecretGetsNoEntryAndFileKeysAreNotLookedUpInTheCluster() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: shop}
        spec:
          domains: [a.test]
          routes: []
          sslConfig:
            files: {certChain: tls/a.crt, privateKey: tls/a.key}
        """));
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: other, namespace: shop}
        spec:
          domains: [b.test]
          routes: []
          sslConfig:
            secretRef: {name: not-there}
        """));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.virtualServices()).hasSize(2);
    assertThat(config.secrets()).isEmpty();
  }

  private static Secret opaque(String namespace, String name, Map<String, String> plain) {
    Secret secret = secret(namespace, name, plain);
    secret.setType("Opaque");
    return secret;
  }

  private static Secret secret(String namespace, String name, Map<String, String> plain) {
    Map<String, String> data = new java.util.TreeMap<>();
    plain.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return new SecretBuilder().withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withType("kubernetes.io/tls").withData(data).build();
  }

  @Test
  void aSelectorNarrowsTheUpstreamsEndpointsToItsPodsAndTheWholeServiceIsResolvedBeside() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: canary, namespace: demo}
        spec: {kube: {name: echo, port: 80, selector: {track: canary}}}
        """));
    services.put("demo/echo", service("demo", "echo", "http:80"));
    slices.add(KubeObjects.podSlice("demo", "echo-a", "echo", "http", 8080, List.of(
        new KubeObjects.PodEp("127.0.0.1", "echo-1"), new KubeObjects.PodEp("127.0.0.2", "echo-2"))));
    pods.put("demo/echo-1", Map.of("track", "canary"));
    pods.put("demo/echo-2", Map.of("track", "stable"));
    ServiceRef narrowed = ServiceRef.selecting("demo", "echo", 80, Map.of("track", "canary"));

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.upstreams().get(0).target()).isEqualTo(new io.holdfast.api.UpstreamTarget.Kube(
        Optional.empty(), "echo", 80, new java.util.TreeMap<>(Map.of("track", "canary"))));
    assertThat(config.serviceEndpoints()).containsOnlyKeys(narrowed, new ServiceRef("demo", "echo", 80));
    assertThat(config.endpointsOf(narrowed)).containsExactly(new Endpoint("127.0.0.1", 8080));
  }

  @Test
  void whilePodsCannotBeReadANarrowedReferenceGetsNoEntryNeverTheWiderSet() {
    add(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: canary, namespace: demo}
        spec: {kube: {name: echo, port: 80, selector: {track: canary}}}
        """));
    services.put("demo/echo", service("demo", "echo", "http:80"));
    slices.add(KubeObjects.podSlice("demo", "echo-a", "echo", "http", 8080, List.of(
        new KubeObjects.PodEp("127.0.0.1", "echo-1"))));
    pods.put("demo/echo-1", Map.of("track", "canary"));
    podsReadable = false;

    var config = new ConfigAssembler(new KubernetesSerialization()).assemble(view).config();

    assertThat(config.serviceEndpoints()).containsOnlyKeys(new ServiceRef("demo", "echo", 80));
    assertThat(config.endpointsOf(ServiceRef.selecting("demo", "echo", 80, Map.of("track", "canary")))).isEmpty();
  }
}
