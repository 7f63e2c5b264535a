package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.holdfast.api.GatewayConfig;
import io.holdfast.testkit.FaultProxy;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * The emulated API with the Holdfast CRDs installed, a fault proxy in front of it, a client through the proxy
 * with short timeouts, and a source whose sink records every config it is handed.
 */
final class KubeFixture implements AutoCloseable {

  static final Duration CALL_TIMEOUT = Duration.ofMillis(1000);

  final MockKubeApi api = MockKubeApi.start();
  final FaultProxy proxy = FaultProxy.start("kube-api", api.port());
  final KubernetesClient client = new KubernetesClientBuilder().withConfig(clientConfig(proxy.port())).build();
  final List<GatewayConfig> configs = new CopyOnWriteArrayList<>();
  private KubeConfigSource source;

  KubeFixture() {
    for (String kind : List.of("Upstream", "VirtualService", "Gateway", "TcpGateway", "RouteTable")) {
      api.admin().apiextensions().v1().customResourceDefinitions().resource(CrdSchemaTest.load(kind)).create();
    }
  }

  /** What Holdfast's server is expected to give its client: bounded calls and quick watch reconnects. */
  static Config clientConfig(int port) {
    int millis = (int) CALL_TIMEOUT.toMillis();
    return new ConfigBuilder(MockKubeApi.configFor(port))
        .withRequestTimeout(millis)
        .withConnectionTimeout(millis)
        .withWatchReconnectInterval(200)
        .build();
  }

  KubeConfigSource start(UnaryOperator<KubeConfigSource.Builder> tuning) {
    source = tuning.apply(KubeConfigSource.builder(client, configs::add)
        .namespace("demo")
        .probeInterval(Duration.ofMillis(300))).build();
    source.start();
    return source;
  }

  KubeConfigSource start() {
    return start(b -> b);
  }

  /** The latest config handed to the sink; an empty one until the first. */
  GatewayConfig last() {
    return configs.isEmpty() ? GatewayConfig.empty() : configs.get(configs.size() - 1);
  }

  /** Creates or replaces a custom resource straight on the API (not through the proxy). */
  void apply(GenericKubernetesResource resource) {
    api.admin().genericKubernetesResources(GatewayCrds.context(resource.getKind()))
        .inNamespace(resource.getMetadata().getNamespace())
        .resource(resource)
        .unlock()
        .createOr(NonDeletingOperation::update);
  }

  void delete(String kind, String namespace, String name) {
    api.admin().genericKubernetesResources(GatewayCrds.context(kind)).inNamespace(namespace).withName(name)
        .delete();
  }

  @Override
  public void close() {
    if (source != null) {
      source.close();
    }
    client.close();
    proxy.close();
    api.close();
  }
}
