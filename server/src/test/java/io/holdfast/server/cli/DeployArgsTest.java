package io.holdfast.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.server.snapshot.SnapshotKey;
import io.holdfast.xds.server.ReloadingTls;
import io.holdfast.xds.server.XdsTls;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/deployment.yaml's arguments parse with the real {@code holdfast serve} command line, and the Secrets
 * {@code holdfast certs --kubernetes-secrets --snapshot-key} writes are exactly what the pod mounts: laid out as the
 * kubelet would (each Secret's items at the volume's mount path, under a temporary root), the xDS TLS files load as
 * the server loads them (mutual TLS) and the snapshot key opens. The manifests' own structure (securityContext,
 * NetworkPolicies, cert-manager) is kube's DeploySecurityTest.
 */
class DeployArgsTest {
  private static final Path DEPLOY = Path.of("..", "deploy");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @TempDir
  Path tmp;

  private static List<HasMetadata> load(Path file) throws IOException {
    List<HasMetadata> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(file)) {
      Object parsed = SERIALIZATION.unmarshal(in);
      if (parsed instanceof List<?> list) {
        list.forEach(o -> out.add((HasMetadata) o));
      } else {
        out.add((HasMetadata) parsed);
      }
    }
    return out;
  }

  private static <T> T one(List<HasMetadata> all, Class<T> type) {
    List<T> found = all.stream().filter(type::isInstance).map(type::cast).toList();
    assertThat(found).as(type.getSimpleName()).hasSize(1);
    return found.get(0);
  }

  @Test
  void theCertsCommandsDefaultServerNamesAreTheXdsServices() throws IOException {
    Service xds = one(load(DEPLOY.resolve("service.yaml")), Service.class);
    String svc = xds.getMetadata().getName() + "." + xds.getMetadata().getNamespace() + ".svc";

    assertThat(CertsCommand.DEFAULT_SERVER_DNS).containsExactly(svc, svc + ".cluster.local");
  }

  @Test
  void theDeploymentsArgumentsServeMutualTlsWithTheSecretsCertsWrites() throws Exception {
    Deployment deployment = one(load(DEPLOY.resolve("deployment.yaml")), Deployment.class);
    String namespace = deployment.getMetadata().getNamespace();
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container holdfast = pod.getContainers().get(0);

    Path certs = tmp.resolve("certs");
    assertThat(new CertsFixture().run(certs, "--kubernetes-secrets", namespace, "--snapshot-key")).isZero();
    Map<String, Secret> written = new HashMap<>();
    for (HasMetadata r : load(certs.resolve(CertsOutput.SECRETS_FILE))) {
      assertThat(r.getMetadata().getNamespace()).isEqualTo(namespace);
      written.put(r.getMetadata().getName(), (Secret) r);
    }

    // The kubelet's view: every volume under a temporary root; required Secrets must be ones certs wrote.
    Path root = tmp.resolve("root");
    for (VolumeMount mount : holdfast.getVolumeMounts()) {
      Path dir = Files.createDirectories(root.resolve(mount.getMountPath().substring(1)));
      Volume volume = pod.getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst()
          .orElseThrow();
      if (volume.getSecret() == null) {
        continue;
      }
      Secret secret = written.get(volume.getSecret().getSecretName());
      if (secret == null) {
        assertThat(volume.getSecret().getOptional()).as("%s: a required Secret certs does not write",
            volume.getSecret().getSecretName()).isTrue();
        continue;
      }
      assertThat(volume.getSecret().getItems()).as(volume.getName()).isNotEmpty().allSatisfy(item -> {
        assertThat(secret.getData()).as(volume.getName()).containsKey(item.getKey());
        Files.write(dir.resolve(item.getPath()), Base64.getDecoder().decode(secret.getData().get(item.getKey())));
      });
    }

    List<String> args = new ArrayList<>();
    for (String arg : holdfast.getArgs()) {
      int eq = arg.indexOf("=/");
      args.add(eq < 0 ? arg : arg.substring(0, eq + 1) + root.resolve(arg.substring(eq + 2)));
    }
    List<ServeSettings> served = new ArrayList<>();
    StringWriter err = new StringWriter();
    int code = new HoldfastCli(settings -> {
      served.add(settings);
      return 7;
    }, Map.of("POD_NAME", "holdfast-0", "POD_NAMESPACE", namespace))
        .execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args.toArray(String[]::new));

    assertThat(err.toString()).isEmpty();
    assertThat(code).isEqualTo(7);
    ServeSettings settings = served.get(0);
    assertThat(settings.kubernetes()).isPresent();
    XdsTls tls = settings.tls().orElseThrow();
    assertThat(tls.requiresClientCertificate()).isTrue();
    assertThat(tls.certificateChainFile()).isEqualTo(root.resolve("etc/holdfast/xds/tls.crt"));
    assertThat(tls.clientCaFile()).contains(root.resolve("etc/holdfast/xds/ca.crt"));
    assertThat(Files.readString(tls.clientCaFile().orElseThrow()))
        .isEqualTo(Files.readString(certs.resolve(CertsOutput.CA_CERT)));
    try (ReloadingTls loaded = ReloadingTls.builder(tls).start()) {
      assertThat(loaded.credentials()).isNotNull();
    }
    Path key = settings.snapshotKeyFile().orElseThrow();
    assertThat(SnapshotKey.read(key).getEncoded()).hasSize(32);
    assertThat(settings.webhook()).isPresent();
  }
}
