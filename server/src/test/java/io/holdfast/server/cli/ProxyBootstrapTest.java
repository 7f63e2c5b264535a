package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.JsonFormat;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiConfigSource;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.pki.ProxyIdentity;
import io.holdfast.xds.envoycheck.EnvoyConstraints;
import io.holdfast.xds.envoycheck.Report;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * deploy/proxy's Envoy bootstrap is a valid {@code envoy.config.bootstrap.v3.Bootstrap} (strict proto parsing, then
 * Envoy's validate.rules) that speaks ADS over mutual TLS to deploy/service.yaml's xDS Service, with the client
 * certificate of the Secret {@code holdfast certs} makes for the proxy the node names, mounted where the bootstrap
 * reads it; and the ports it opens are the Deployment's and are reserved from Gateways.
 */
class ProxyBootstrapTest {
  private static final Path DEPLOY = Path.of("..", "deploy");
  private static final Path PROXY = DEPLOY.resolve("proxy");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @TempDir
  Path tmp;

  private final Bootstrap bootstrap = bootstrap();
  private final Deployment deployment = one(load(PROXY.resolve("deployment.yaml")), Deployment.class);
  private final PodSpec pod = deployment.getSpec().getTemplate().getSpec();
  private final Container envoy = pod.getContainers().get(0);

  private static Bootstrap bootstrap() {
    try {
      String json = JsonMapper.builder().build().writeValueAsString(
          YAMLMapper.builder().build().readTree(Files.readString(PROXY.resolve("envoy.yaml"))));
      JsonFormat.TypeRegistry types = JsonFormat.TypeRegistry.newBuilder()
          .add(UpstreamTlsContext.getDescriptor())
          .add(HttpProtocolOptions.getDescriptor())
          .add(HttpConnectionManager.getDescriptor())
          .add(Router.getDescriptor())
          .build();
      Bootstrap.Builder builder = Bootstrap.newBuilder();
      // Strict: an unknown or misspelt field fails, as Envoy's own loader does.
      JsonFormat.parser().usingTypeRegistry(types).merge(json, builder);
      return builder.build();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void theBootstrapPassesEnvoysValidationRules() {
    Report report = EnvoyConstraints.inspect("bootstrap", bootstrap);
    assertThat(report.clean()).as(report.toString()).isTrue();
  }

  @Test
  void theNodeIsTheDefaultProxyNameOfHoldfastCerts() {
    assertThat(bootstrap.getNode().getId()).isEqualTo("gateway-proxy");
    assertThat(bootstrap.getNode().getCluster()).isEqualTo(bootstrap.getNode().getId());
    assertThat(deployment.getMetadata().getName()).as("the alert's proxy name is the Deployment's")
        .isEqualTo(bootstrap.getNode().getId());
  }

  @Test
  void everythingButTheStaticPiecesComesOverAdsToTheXdsService() throws IOException {
    ApiConfigSource ads = bootstrap.getDynamicResources().getAdsConfig();
    assertThat(ads.getApiType()).isEqualTo(ApiConfigSource.ApiType.GRPC);
    assertThat(bootstrap.getDynamicResources().getCdsConfig().hasAds()).isTrue();
    assertThat(bootstrap.getDynamicResources().getLdsConfig().hasAds()).isTrue();
    Cluster xds = cluster(ads.getGrpcServices(0).getEnvoyGrpc().getClusterName());
    assertThat(xds.getTypedExtensionProtocolOptionsMap()).containsKey("envoy.extensions.upstreams.http.v3.HttpProtocolOptions");

    Service service = one(load(DEPLOY.resolve("service.yaml")), Service.class);
    SocketAddress address = xds.getLoadAssignment().getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress()
        .getSocketAddress();
    assertThat(address.getAddress()).isEqualTo(service.getMetadata().getName() + "."
        + service.getMetadata().getNamespace() + ".svc.cluster.local");
    assertThat(address.getPortValue()).isEqualTo(service.getSpec().getPorts().get(0).getPort());
  }

  @Test
  void theXdsConnectionIsMutualTlsWithTheSecretHoldfastCertsMakes() throws Exception {
    Cluster xds = cluster(bootstrap.getDynamicResources().getAdsConfig().getGrpcServices(0).getEnvoyGrpc()
        .getClusterName());
    UpstreamTlsContext tls = xds.getTransportSocket().getTypedConfig().unpack(UpstreamTlsContext.class);
    // The name the server's certificate carries (holdfast certs' default) is the one asked for and checked.
    assertThat(CertsCommand.DEFAULT_SERVER_DNS).contains(tls.getSni());
    CommonTlsContext common = tls.getCommonTlsContext();
    assertThat(common.getValidationContext().getMatchTypedSubjectAltNames(0).getMatcher().getExact())
        .isEqualTo(tls.getSni());

    // holdfast certs, run as the README says, writes the proxy's Secret into the proxies' namespace ...
    String namespace = deployment.getMetadata().getNamespace();
    Path certs = tmp.resolve("certs");
    assertThat(new CertsFixture().run(certs, "--kubernetes-secrets", "holdfast-system",
        "--proxy-secrets-namespace", namespace, "--proxy", bootstrap.getNode().getId())).isZero();
    Secret secret = load(certs.resolve(CertsOutput.SECRETS_FILE)).stream().filter(Secret.class::isInstance)
        .map(Secret.class::cast)
        .filter(s -> s.getMetadata().getName().equals(
            CertsOutput.proxySecretName(ProxyIdentity.of(bootstrap.getNode().getId()))))
        .findFirst().orElseThrow();
    assertThat(secret.getMetadata().getNamespace()).isEqualTo(namespace);

    // ... which the Deployment mounts where the bootstrap reads its three files.
    String volume = pod.getVolumes().stream().filter(v -> v.getSecret() != null
        && v.getSecret().getSecretName().equals(secret.getMetadata().getName())).findFirst().orElseThrow().getName();
    VolumeMount mount = envoy.getVolumeMounts().stream().filter(m -> m.getName().equals(volume)).findFirst()
        .orElseThrow();
    List<String> files = List.of(
        common.getTlsCertificates(0).getCertificateChain().getFilename(),
        common.getTlsCertificates(0).getPrivateKey().getFilename(),
        common.getValidationContext().getTrustedCa().getFilename());
    assertThat(files).containsExactly(mount.getMountPath() + "/tls.crt", mount.getMountPath() + "/tls.key",
        mount.getMountPath() + "/ca.crt");
    assertThat(secret.getData()).containsKeys("tls.crt", "tls.key", "ca.crt");
  }

  @Test
  void theAdminInterfaceStaysOnLoopbackAndTheMetricsPortIsReservedFromGateways() throws Exception {
    assertThat(bootstrap.getAdmin().getAddress().getSocketAddress().getAddress()).isEqualTo("127.0.0.1");
    Listener metrics = bootstrap.getStaticResources().getListenersList().stream()
        .filter(l -> l.getName().equals("envoy-metrics")).findFirst().orElseThrow();
    int metricsPort = metrics.getAddress().getSocketAddress().getPortValue();
    assertThat(envoy.getPorts()).extracting(ContainerPort::getContainerPort).contains(metricsPort);
    assertThat(envoy.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/ready");

    Container holdfast = one(load(DEPLOY.resolve("deployment.yaml")), Deployment.class).getSpec().getTemplate()
        .getSpec().getContainers().get(0);
    String reserved = holdfast.getArgs().stream().filter(a -> a.startsWith("--listener-reserved-ports="))
        .findFirst().orElseThrow();
    List<String> ports = List.of(reserved.substring(reserved.indexOf('=') + 1).split(","));
    assertThat(ports).contains(String.valueOf(metricsPort),
        String.valueOf(bootstrap.getAdmin().getAddress().getSocketAddress().getPortValue()));
  }

  @Test
  void theProxyPodsCarryTheLabelTheXdsNetworkPolicyAdmits() {
    assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("holdfast.io/xds-client", "true");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(envoy.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
  }

  private Cluster cluster(String name) {
    return bootstrap.getStaticResources().getClustersList().stream().filter(c -> c.getName().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no static cluster " + name));
  }

  private static List<HasMetadata> load(Path file) {
    List<HasMetadata> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      Object parsed = SERIALIZATION.unmarshal(in);
      if (parsed instanceof List<?> list) {
        list.forEach(o -> out.add((HasMetadata) o));
      } else {
        out.add((HasMetadata) parsed);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  private static <T> T one(List<HasMetadata> all, Class<T> type) {
    List<T> found = all.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }
}
