package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.IrBuilder;
import io.holdfast.ir.Listener;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.testkit.MockKubeApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A TcpGateway in the emulated API with the real CRDs from deploy/crds: the source's informer reads it, the front
 * end lowers it to a socket with TCP chains, and the status writer writes its verdict onto the object.
 */
@ExtendWith(QuickAwait.class)
class TcpGatewayInClusterTest {

  private static final ResourceKey PASSTHROUGH = ResourceKey.tcpGateway("demo", "passthrough");
  private static final ResourceKey BROKEN = ResourceKey.tcpGateway("demo", "broken");

  @Test
  void aTcpGatewayIsReadLoweredAndGetsItsStatus() throws IOException {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client =
             new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port())).build()) {
      installCrds(api.admin());
      apply(api.admin(), """
          apiVersion: gateway.holdfast.io/v1
          kind: Upstream
          metadata: {name: tls-api, namespace: demo}
          spec: {static: {hosts: [{address: 127.0.0.1, port: 9443}]}}
          """);
      apply(api.admin(), """
          apiVersion: gateway.holdfast.io/v1
          kind: TcpGateway
          metadata: {name: passthrough, namespace: demo}
          spec:
            port: 10443
            hosts:
              - {name: api, sniDomains: [api.test], upstream: {name: tls-api}}
              - {name: rest, upstream: {name: tls-api}}
          """);
      apply(api.admin(), """
          apiVersion: gateway.holdfast.io/v1
          kind: TcpGateway
          metadata: {name: broken, namespace: demo}
          spec: {port: 10444, hosts: [{name: rest, upstream: {name: missing}}]}
          """);

      List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
      try (KubeConfigSource source = KubeConfigSource.builder(client, configs::add).namespace("demo").build()) {
        source.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> !configs.isEmpty()
            && configs.get(configs.size() - 1).tcpGateways().size() == 2);
      }
      GatewayConfig config = configs.get(configs.size() - 1);

      IrBuilder builder = new IrBuilder();
      new HoldfastFrontEnd().lower(config, builder);
      IrBuilder.Result built = builder.build();
      assertThat(built.ir().listeners()).singleElement().satisfies(l -> {
        assertThat(l.origin().object()).isEqualTo(PASSTHROUGH);
        assertThat(l.filterChains()).extracting(c -> c.name() + " " + c.match().serverNames())
            .containsExactly("api [api.test]", "rest []");
        assertThat(l.filterChains()).allMatch(c -> c instanceof Listener.FilterChain.Tcp);
      });

      Map<ResourceKey, DesiredStatus> desired = new LinkedHashMap<>();
      built.statuses().forEach((key, status) -> desired.put(key, DesiredStatus.of(ResourceStatus.of(status))));
      FakeLeadership leadership = new FakeLeadership();
      leadership.elect();
      try (StatusWriter writer = StatusWriter.builder(client, leadership).build().start()) {
        writer.publish(desired);
        await().atMost(Duration.ofSeconds(10)).until(() ->
            "True".equals(Statuses.accepted(status(api.admin(), PASSTHROUGH)).get("status"))
            && "False".equals(Statuses.accepted(status(api.admin(), BROKEN)).get("status")));
      }
      Map<String, Object> rejected = Statuses.accepted(status(api.admin(), BROKEN));
      assertThat(rejected.get("reason")).isEqualTo("UpstreamNotFound");
      assertThat((String) rejected.get("message")).contains("spec.hosts[0].upstream")
          .contains("Upstream/demo/missing does not exist");
      assertThat(Statuses.accepted(status(api.admin(), PASSTHROUGH)).get("reason")).isEqualTo("Accepted");
    }
  }

  private static void installCrds(KubernetesClient admin) throws IOException {
    try (Stream<Path> files = Files.list(Path.of("../deploy/crds"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          admin.apiextensions().v1().customResourceDefinitions()
              .resource(admin.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class)).create();
        }
      }
    }
  }

  private static void apply(KubernetesClient admin, String yaml) {
    GenericKubernetesResource resource = admin.getKubernetesSerialization().unmarshal(yaml,
        GenericKubernetesResource.class);
    admin.genericKubernetesResources(GatewayCrds.context(resource.getKind()))
        .inNamespace(resource.getMetadata().getNamespace()).resource(resource).create();
  }

  private static Object status(KubernetesClient admin, ResourceKey key) {
    GenericKubernetesResource r = admin.genericKubernetesResources(GatewayCrds.context(key.kind()))
        .inNamespace(key.namespace()).withName(key.name()).get();
    return r == null ? null : r.getAdditionalProperties().get("status");
  }
}
