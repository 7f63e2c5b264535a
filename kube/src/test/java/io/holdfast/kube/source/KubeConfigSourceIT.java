package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.kubeUpstream;
import static io.holdfast.kube.source.KubeObjects.resource;
import static io.holdfast.kube.source.KubeObjects.service;
import static io.holdfast.kube.source.KubeObjects.slice;
import static io.holdfast.kube.source.KubeObjects.virtualService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ManifestReader;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.VirtualService;
import io.holdfast.common.Debounce;
import io.holdfast.kube.source.KubeObjects.Ep;
import io.holdfast.testkit.FaultProxy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Informers against the emulated API in real time (over 10 s in all): run by failsafe, not in the unit phase. */
class KubeConfigSourceIT {

  private static final Duration WAIT = Duration.ofSeconds(8);
  private final KubeFixture kube = new KubeFixture();

  @AfterEach
  void tearDown() {
    kube.close();
  }

  @Test
  void appliedResourcesReachTheSinkParsedAndAnInvalidOneAsUnparsed() throws IOException {
    Map<String, List<String>> applied = applyExamples();
    kube.apply(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: broken, namespace: demo}
        spec: {domains: [broken.test], routes: [{match: {prefix: /}, route: {upstream: echo-v1}, colour: red}]}
        """));
    KubeConfigSource source = kube.start();

    await().atMost(WAIT).until(() -> !kube.configs.isEmpty());
    // Everything existed before the start, so the very first config already holds all of it.
    GatewayConfig first = kube.configs.get(0);
    // Whatever the bundled example holds, kind by kind (it grows with the features it shows).
    assertThat(first.upstreams()).extracting(u -> u.key().name())
        .containsExactlyInAnyOrderElementsOf(applied.get("Upstream"));
    assertThat(first.virtualServices()).extracting(v -> v.key().name())
        .containsExactlyInAnyOrderElementsOf(applied.get("VirtualService"));
    assertThat(first.virtualServices()).filteredOn(v -> v.key().name().equals("echo")).singleElement()
        .satisfies(v -> assertThat(v.routes()).isNotEmpty());
    assertThat(first.gateways()).extracting(g -> g.key().name())
        .containsExactlyInAnyOrderElementsOf(applied.get("Gateway"));
    assertThat(first.unparsed()).singleElement().satisfies(u -> {
      assertThat(u.key()).isEqualTo(ResourceKey.virtualService("demo", "broken"));
      assertThat(u.problems()).extracting(Problem::field).containsExactly("spec.routes[0].colour");
    });
    assertThat(source.hasSynced()).isTrue();
    // Listed is not yet watching: a probe in between may mark the view stale for a moment; it must clear.
    await().atMost(WAIT).until(() -> source.staleSince().isEmpty());
    assertThat(source.lastContact()).isPresent();
    assertThat(source.observed()).containsKeys(ResourceKey.upstream("demo", "echo-v1"),
        ResourceKey.virtualService("demo", "broken"), ResourceKey.gateway("demo", "public"));
    assertThat(source.observed().values()).allSatisfy(o -> assertThat(o.resourceVersion()).isNotEmpty());

    // Edits and deletions follow.
    kube.apply(virtualService("demo", "echo", "renamed.test"));
    kube.delete(ResourceKey.VIRTUAL_SERVICE, "demo", "broken");
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(kube.last().virtualServices()).extracting(v -> v.key().name())
          .containsExactlyInAnyOrderElementsOf(applied.get("VirtualService"));
      assertThat(kube.last().virtualServices()).filteredOn(v -> v.key().name().equals("echo"))
          .singleElement().satisfies(v -> assertThat(v.domains()).containsExactly("renamed.test"));
      assertThat(kube.last().unparsed()).isEmpty();
    });
    assertThat(source.observed()).doesNotContainKey(ResourceKey.virtualService("demo", "broken"));
  }

  @Test
  void aStatusWriteUpdatesObservedButPushesNothing() {
    kube.apply(virtualService("demo", "echo", "echo.test"));
    KubeConfigSource source = kube.start();
    await().atMost(WAIT).until(() -> !kube.configs.isEmpty());
    ResourceKey key = ResourceKey.virtualService("demo", "echo");
    String before = source.observed().get(key).resourceVersion();
    int pushed = kube.configs.size();

    GenericKubernetesResource vs = kube.api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace("demo")
        .withName("echo").get();
    vs.setAdditionalProperty("status", Map.of("observedGeneration", 1,
        "conditions", List.of(Map.of("type", "Accepted", "status", "True"))));
    kube.api.admin().genericKubernetesResources(GatewayCrds.VIRTUAL_SERVICE).inNamespace("demo").resource(vs)
        .updateStatus();

    await().atMost(WAIT).until(() -> !source.observed().get(key).resourceVersion().equals(before));
    await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> kube.configs.size() == pushed);
    assertThat(kube.last().virtualServices().get(0).metadata().resourceVersion()).isEmpty();

    // The informer copy the status writer bases its writes on: the whole object, status included.
    await().atMost(WAIT).until(() -> source.cached(key)
        .map(r -> r.getMetadata().getResourceVersion().equals(source.observed().get(key).resourceVersion()))
        .orElse(false));
    assertThat(source.cached(key).orElseThrow().getAdditionalProperties()).containsKeys("spec", "status");
    assertThat(source.cached(ResourceKey.virtualService("demo", "absent"))).isEmpty();
    assertThat(source.cached(ResourceKey.core("Service", "demo", "echo"))).as("not a Holdfast kind").isEmpty();
    assertThat(source.cached(new ResourceKey("gateway.networking.k8s.io", key.kind(), key.namespace(), key.name())))
        .as("the same kind and name in another API group").isEmpty();
  }

  @Test
  void aKindWhoseCrdIsNotInstalledIsEmptyUntilItIsAndTheRestIsServed() {
    kube.api.refuseReads("/tcpgateways", 404); // an upgrade that has not applied the TcpGateway CRD yet
    kube.apply(virtualService("demo", "echo", "echo.test"));
    KubeConfigSource source = kube.start();

    await().atMost(WAIT).until(() -> !kube.configs.isEmpty());
    assertThat(kube.last().virtualServices()).extracting(v -> v.key().name()).containsExactly("echo");
    assertThat(kube.last().tcpGateways()).isEmpty();
    await().atMost(WAIT).until(() -> source.staleSince().isEmpty());

    kube.api.refuseReads("/tcpgateways", 0);
    kube.apply(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: tcp, namespace: demo}
        spec: {port: 10443, hosts: [{name: all, upstream: {name: echo}}]}
        """));
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().tcpGateways())
        .extracting(g -> g.key().name()).containsExactly("tcp"));
  }

  @Test
  void aRequiredKindTheApiRefusesIsNeverTakenForEmpty() {
    kube.api.refuseReads("/virtualservices", 403); // RBAC without VirtualServices: serving "none" would be wrong
    kube.apply(virtualService("demo", "echo", "echo.test"));
    kube.start();

    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> kube.configs.isEmpty());
    kube.api.refuseReads("/virtualservices", 0);
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().virtualServices()).hasSize(1));
  }

  @Test
  void aRotatedSecretIsPushedAndAnUnrelatedSecretChangeIsNot() {
    kube.apply(resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web, namespace: demo}
        spec:
          domains: [a.test]
          routes: []
          sslConfig: {secretRef: {name: web-tls}}
        """));
    putSecret("web-tls", "CERT-1");
    putSecret("unrelated", "OTHER-1");
    kube.start();
    ResourceKey webTls = TlsSecretData.secretKey("demo", "web-tls");
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().secretOf(webTls))
        .hasValueSatisfying(d -> assertThat(d.entries()).containsEntry("tls.crt", "CERT-1")));
    assertThat(kube.last().secrets()).containsOnlyKeys(webTls);

    putSecret("web-tls", "CERT-2");
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().secretOf(webTls).orElseThrow().entries())
        .containsEntry("tls.crt", "CERT-2"));
    int pushed = kube.configs.size();
    putSecret("unrelated", "OTHER-2");
    await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> kube.configs.size() == pushed);

    kube.api.admin().secrets().inNamespace("demo").withName("web-tls").delete();
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().secrets()).isEmpty());
  }

  private void putSecret(String name, String certificate) {
    kube.api.admin().secrets().inNamespace("demo").resource(new SecretBuilder()
            .withNewMetadata().withNamespace("demo").withName(name).endMetadata()
            .withType("kubernetes.io/tls")
            .withData(Map.of("tls.crt", base64(certificate), "tls.key", base64("KEY-" + certificate))).build())
        .unlock().createOr(NonDeletingOperation::update);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void resourcesOutsideTheWatchedNamespaceAreIgnored() {
    kube.apply(virtualService("other", "elsewhere", "elsewhere.test"));
    kube.apply(virtualService("demo", "here", "here.test"));
    kube.start();

    await().atMost(WAIT).until(() -> !kube.configs.isEmpty());
    assertThat(kube.last().virtualServices()).extracting(v -> v.key().name()).containsExactly("here");
  }

  @Test
  void kubeUpstreamEndpointsFollowTheEndpointSlices() {
    var admin = kube.api.admin();
    ServiceRef echo = new ServiceRef("demo", "echo", 80);
    admin.services().resource(service("demo", "echo", "http:80")).create();
    admin.discovery().v1().endpointSlices().resource(slice("demo", "echo-a", "echo", "http", 8080,
        List.of(new Ep("127.0.0.1", true), new Ep("127.0.0.2", null)))).create();
    kube.apply(kubeUpstream("demo", "echo", "echo", 80));
    kube.start();

    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().endpointsOf(echo))
        .containsExactly(new Endpoint("127.0.0.1", 8080), new Endpoint("127.0.0.2", 8080)));

    // An endpoint is added.
    admin.discovery().v1().endpointSlices().resource(slice("demo", "echo-a", "echo", "http", 8080,
        List.of(new Ep("127.0.0.1", true), new Ep("127.0.0.2", null), new Ep("127.0.0.3", true)))).update();
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().endpointsOf(echo)).hasSize(3));

    // One stops being ready.
    admin.discovery().v1().endpointSlices().resource(slice("demo", "echo-a", "echo", "http", 8080,
        List.of(new Ep("127.0.0.1", false), new Ep("127.0.0.2", null), new Ep("127.0.0.3", true)))).update();
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().endpointsOf(echo))
        .containsExactly(new Endpoint("127.0.0.2", 8080), new Endpoint("127.0.0.3", 8080)));

    // A second slice adds to the first; deleting the first leaves only the second's.
    admin.discovery().v1().endpointSlices().resource(slice("demo", "echo-b", "echo", "http", 8080,
        List.of(new Ep("127.0.0.4", true)))).create();
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().endpointsOf(echo)).hasSize(3));
    admin.discovery().v1().endpointSlices().inNamespace("demo").withName("echo-a").delete();
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().endpointsOf(echo))
        .containsExactly(new Endpoint("127.0.0.4", 8080)));

    admin.discovery().v1().endpointSlices().inNamespace("demo").withName("echo-b").delete();
    await().atMost(WAIT).untilAsserted(() -> {
      assertThat(kube.last().serviceEndpoints()).containsKey(echo);
      assertThat(kube.last().endpointsOf(echo)).isEmpty();
    });
  }

  @Test
  void aBurstOfChangesIsCoalescedAndTheLastStateWins() {
    kube.apply(virtualService("demo", "burst", "v0.test"));
    kube.start(b -> b.debounce(new Debounce.Timing(Duration.ofMillis(500), Duration.ofMillis(2000))));
    await().atMost(WAIT).until(() -> !kube.configs.isEmpty());
    int before = kube.configs.size();

    int changes = 20;
    long burstStart = System.nanoTime();
    for (int i = 1; i <= changes; i++) {
      kube.apply(virtualService("demo", "burst", "v" + i + ".test"));
    }
    Duration burst = Duration.ofNanos(System.nanoTime() - burstStart);

    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().virtualServices())
        .extracting(VirtualService::domains).containsExactly(List.of("v" + changes + ".test")));
    // Nothing else is pending: the count stays put once the last state is in.
    await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2))
        .until(() -> kube.last().virtualServices().get(0).domains().equals(List.of("v" + changes + ".test")));
    // A rebuild needs a 500 ms quiet gap or the 2 s cap, so a burst of length T gets at most T / 500 ms +
    // T / 2 s + 2 of them however slowly the machine applied it (under load one apply can take longer than a
    // short hold-off, which made a fixed bound flaky); without debouncing every change would be a rebuild.
    int rebuilds = kube.configs.size() - before;
    long bound = burst.toMillis() / 500 + burst.toMillis() / 2000 + 2;
    assertThat(rebuilds).as("rebuilds for %d changes applied in %d ms", changes, burst.toMillis())
        .isBetween(1, (int) bound);
  }

  @Test
  void nothingIsPushedBeforeTheInformersHaveListed() {
    kube.apply(virtualService("demo", "early", "early.test"));
    kube.proxy.blackhole();
    KubeConfigSource source = kube.start();

    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> kube.configs.isEmpty());
    assertThat(source.hasSynced()).isFalse();
    assertThat(source.staleSince()).as("nothing cached, nothing stale").isEmpty();

    kube.proxy.pass();
    await().atMost(WAIT).until(() -> !kube.configs.isEmpty());
    assertThat(kube.configs.get(0).virtualServices()).extracting(v -> v.key().name()).containsExactly("early");
    assertThat(source.hasSynced()).isTrue();
  }

  /** BLACKHOLE: packets vanish (watches look healthy); RESET: the API refuses connections. */
  @ParameterizedTest
  @EnumSource(value = FaultProxy.Mode.class, names = {"BLACKHOLE", "RESET"})
  void anOutageKeepsTheLastConfigAndChangesMadeDuringItArriveAfterwards(FaultProxy.Mode fault) {
    kube.apply(virtualService("demo", "before", "before.test"));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    List<String> health = new java.util.concurrent.CopyOnWriteArrayList<>();
    KubeConfigSource source = kube.start(b -> b.meterRegistry(registry).healthListener(
        new KubeConfigSource.HealthListener() {
          @Override
          public void onStale(java.time.Instant since, String reason) {
            health.add("stale " + since + " " + reason);
          }

          @Override
          public void onRecovered(java.time.Instant staleSince, java.time.Instant now) {
            health.add("recovered " + staleSince);
          }
        }));
    await().atMost(WAIT).until(() -> !kube.configs.isEmpty() && source.staleSince().isEmpty());
    await().atMost(WAIT).until(() -> source.apiAnswered().equals(java.util.Optional.of(true)));
    GatewayConfig beforeOutage = kube.last();
    int pushed = kube.configs.size();

    if (fault == FaultProxy.Mode.BLACKHOLE) {
      kube.proxy.blackhole();
    } else {
      kube.proxy.reset();
    }
    await().atMost(WAIT).until(() -> source.staleSince().isPresent());
    var lastContact = source.lastContact().orElseThrow();
    kube.apply(virtualService("demo", "during", "during.test"));

    // While the API is away nothing is pushed, least of all a config with less in it.
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
        .until(() -> kube.configs.size() == pushed && source.staleSince().isPresent());
    assertThat(kube.last()).isEqualTo(beforeOutage);
    assertThat(source.hasSynced()).isTrue();
    assertThat(source.lastContact()).contains(lastContact);
    assertThat(registry.get(KubeSourceMetrics.STALE).gauge().value()).isEqualTo(1.0);
    java.time.Instant staleSince = source.staleSince().orElseThrow();
    // The last transition is this outage's start (informers starting up may have flapped before it).
    assertThat(health.get(health.size() - 1)).startsWith("stale " + staleSince + " ")
        .containsAnyOf("the API does not answer", "not watching ");
    int beforeRecovery = health.size();

    kube.proxy.pass();
    await().atMost(WAIT).untilAsserted(() -> assertThat(kube.last().virtualServices())
        .extracting(v -> v.key().name()).containsExactly("before", "during"));
    await().atMost(WAIT).until(() -> source.staleSince().isEmpty());
    assertThat(source.lastContact().orElseThrow()).isAfter(lastContact);
    assertThat(health).hasSize(beforeRecovery + 1).last().isEqualTo("recovered " + staleSince);
    assertThat(source.apiAnswered()).contains(true);
    assertThat(registry.get(KubeSourceMetrics.STALE).gauge().value()).isEqualTo(0.0);
    assertThat(registry.get(KubeSourceMetrics.REBUILDS).tag("outcome", "pushed").counter().count())
        .isEqualTo(kube.configs.size());
    assertThat(kube.configs).allSatisfy(c -> assertThat(c.virtualServices())
        .extracting(v -> v.key().name()).contains("before"));
  }

  /** Applies every document of the bundled example; the names applied, by kind. */
  private Map<String, List<String>> applyExamples() throws IOException {
    Map<String, List<String>> applied = new java.util.TreeMap<>();
    try (Stream<Path> files = Files.list(Path.of("../examples/config"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        for (var document : new ManifestReader().read(file.toString(), Files.readString(file)).documents()) {
          var resource = resource(document.tree().toString());
          kube.apply(resource);
          applied.computeIfAbsent(resource.getKind(), k -> new java.util.ArrayList<>())
              .add(resource.getMetadata().getName());
        }
      }
    }
    return applied;
  }
}
