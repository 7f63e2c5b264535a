package io.holdfast.kube.deploy;

import static io.holdfast.kube.deploy.DeployManifests.load;
import static io.holdfast.kube.deploy.DeployManifests.one;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/ is secure by default (issue 24, item 6): every container locked down, xDS only over mutual TLS with the
 * files the mounted Secret provides, the snapshot key from a Secret, a heap sized to the limit, ingress denied but
 * for the NetworkPolicies' three holes (each on a port the pods really serve, for the peers the README names), and
 * cert-manager's alternative issuing the Secret and identities the Deployment and the proxies expect. That the
 * arguments parse with the real command line, and that {@code holdfast certs} makes these very Secrets:
 * server's DeployArgsTest.
 */
class DeploySecurityTest {
  static final String XDS_CLIENT_LABEL = "holdfast.io/xds-client";
  static final String MONITORING_LABEL = "holdfast.io/monitoring";
  static final String TRUST_DOMAIN = "holdfast.local";

  private final Deployment deployment = one(load("deployment.yaml"), Deployment.class);
  private final PodSpec pod = deployment.getSpec().getTemplate().getSpec();
  private final Container holdfast = pod.getContainers().get(0);
  private final List<NetworkPolicy> policies = load("networkpolicy.yaml").stream()
      .filter(NetworkPolicy.class::isInstance).map(NetworkPolicy.class::cast).toList();

  private Stream<Container> allContainers() {
    assertThat(pod.getEphemeralContainers()).isNullOrEmpty();
    return Stream.of(pod.getInitContainers(), pod.getContainers()).filter(java.util.Objects::nonNull)
        .flatMap(List::stream);
  }

  @Test
  void thePodRunsAsANonRootUserWithRuntimeDefaultSeccomp() {
    var security = pod.getSecurityContext();
    assertThat(security.getRunAsNonRoot()).isTrue();
    assertThat(security.getRunAsUser()).isNotNull().isPositive();
    assertThat(security.getRunAsGroup()).isNotNull().isPositive();
    assertThat(security.getFsGroup()).isNotNull().isPositive();
    assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
    assertThat(pod.getHostPID()).isNotEqualTo(Boolean.TRUE);
    assertThat(pod.getHostIPC()).isNotEqualTo(Boolean.TRUE);
  }

  @Test
  void everyContainerIsLockedDown() {
    assertThat(allContainers()).isNotEmpty().allSatisfy(c -> {
      var s = c.getSecurityContext();
      assertThat(s).as(c.getName()).isNotNull();
      assertThat(s.getRunAsNonRoot()).as(c.getName()).isTrue();
      assertThat(s.getRunAsUser()).as(c.getName()).isNotNull().isPositive();
      assertThat(s.getReadOnlyRootFilesystem()).as(c.getName()).isTrue();
      assertThat(s.getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
      assertThat(s.getPrivileged()).as(c.getName()).isNotEqualTo(Boolean.TRUE);
      assertThat(s.getCapabilities().getDrop()).as(c.getName()).containsExactly("ALL");
      assertThat(s.getCapabilities().getAdd()).as(c.getName()).isNullOrEmpty();
      assertThat(s.getSeccompProfile().getType()).as(c.getName()).isEqualTo("RuntimeDefault");
      assertThat(c.getPorts()).as(c.getName()).allSatisfy(p -> assertThat(p.getHostPort()).isNull());
    });
  }

  @Test
  void everyWritableDirectoryIsAnEmptyDirMount() {
    // With a read-only root the snapshot dir and /tmp (the JVM's and Netty's scratch space) must be volumes.
    String snapshotDir = flag("--snapshot-dir").orElseThrow();
    for (String dir : List.of(snapshotDir, "/tmp")) {
      VolumeMount mount = mountAt(dir);
      assertThat(mount.getReadOnly()).as(dir).isNotEqualTo(Boolean.TRUE);
      assertThat(volume(mount.getName()).getEmptyDir()).as(dir).isNotNull();
    }
    // Every other mount is read-only.
    assertThat(holdfast.getVolumeMounts()).filteredOn(m -> volume(m.getName()).getEmptyDir() == null)
        .isNotEmpty().allSatisfy(m -> assertThat(m.getReadOnly()).as(m.getName()).isTrue());
  }

  @Test
  void theHeapIsSizedToTheMemoryLimit() {
    assertThat(holdfast.getResources().getLimits().get("memory")).isEqualTo(new Quantity("1Gi"));
    assertThat(holdfast.getEnv()).filteredOn(e -> e.getName().equals("JAVA_TOOL_OPTIONS")).singleElement()
        .satisfies(e -> assertThat(e.getValue().split(" ")).contains("-XX:MaxRAMPercentage=75")
            .noneMatch(o -> o.startsWith("-Xmx")));
  }

  @Test
  void tenantsReachOtherNamespacesOnlyWithAReferenceGrant() {
    assertThat(flag("--cross-namespace-refs")).contains("grant");
    // Loopback upstreams stay refused: Kubernetes mode's default, which the Deployment must not turn off.
    assertThat(flag("--upstream-allow-loopback")).isEmpty();
  }

  @Test
  void xdsIsServedOverMutualTlsFromFilesTheRequiredSecretProvides() {
    Map<String, String> expected = Map.of("--xds-tls-cert", "tls.crt", "--xds-tls-key", "tls.key",
        "--xds-tls-client-ca", "ca.crt");
    for (var e : expected.entrySet()) {
      SecretFile file = secretFile(flag(e.getKey()).orElseThrow(() -> new AssertionError(e.getKey() + " missing")));
      assertThat(file.secretName()).as(e.getKey()).isEqualTo("holdfast-xds-tls");
      assertThat(file.key()).as(e.getKey()).isEqualTo(e.getValue());
      assertThat(file.optional()).as("%s: without the Secret the pod must wait, not serve plain text", e.getKey())
          .isFalse();
    }
    assertThat(flag("--xds-address")).contains("0.0.0.0");
    // Authorisation by proxy identity is the server's default with a client CA; nothing here turns it off.
    assertThat(flag("--xds-authorisation").orElse("proxy-identity")).isEqualTo("proxy-identity");
  }

  @Test
  void theSnapshotKeyComesFromARequiredSecret() {
    SecretFile key = secretFile(flag("--snapshot-key-file").orElseThrow());
    assertThat(key.secretName()).isEqualTo("holdfast-snapshot-key");
    assertThat(key.key()).isEqualTo("snapshot.key");
    assertThat(key.optional()).isFalse();
    assertThat(flag("--snapshot-dir")).isPresent();
  }

  @Test
  void secretFilesAreReadableByThePodsGroupOnly() {
    assertThat(pod.getVolumes()).filteredOn(v -> v.getSecret() != null).isNotEmpty().allSatisfy(v ->
        assertThat(v.getSecret().getDefaultMode()).as(v.getName()).isEqualTo(0440));
  }

  @Test
  void ingressIsDeniedByDefaultInTheNamespace() {
    assertThat(policies).allSatisfy(p -> assertThat(p.getMetadata().getNamespace())
        .isEqualTo(deployment.getMetadata().getNamespace()));
    assertThat(policies).filteredOn(p -> p.getMetadata().getName().equals("holdfast-default-deny-ingress"))
        .singleElement().satisfies(p -> {
          assertThat(p.getSpec().getPodSelector().getMatchLabels()).isNullOrEmpty();
          assertThat(p.getSpec().getPodSelector().getMatchExpressions()).isNullOrEmpty();
          assertThat(p.getSpec().getPolicyTypes()).containsExactly("Ingress");
          assertThat(p.getSpec().getIngress()).isNullOrEmpty();
        });
  }

  @Test
  void everyAllowingPolicySelectsTheHoldfastPodsAndOpensExactlyTheirPorts() {
    Map<String, String> podLabels = deployment.getSpec().getTemplate().getMetadata().getLabels();
    List<NetworkPolicy> allowing = policies.stream().filter(p -> p.getSpec().getIngress() != null
        && !p.getSpec().getIngress().isEmpty()).toList();
    assertThat(allowing).hasSize(3).allSatisfy(p -> {
      assertThat(podLabels).containsAllEntriesOf(p.getSpec().getPodSelector().getMatchLabels());
      assertThat(p.getSpec().getPodSelector().getMatchExpressions()).isNullOrEmpty();
      assertThat(p.getSpec().getPolicyTypes()).containsExactly("Ingress");
    });
    Set<Integer> opened = new TreeSet<>();
    for (NetworkPolicy p : allowing) {
      for (NetworkPolicyIngressRule rule : p.getSpec().getIngress()) {
        assertThat(rule.getPorts()).as("%s: a rule without ports opens every port", p.getMetadata().getName())
            .isNotEmpty();
        rule.getPorts().forEach(port -> opened.add(containerPort(port).getContainerPort()));
      }
    }
    Set<Integer> served = new TreeSet<>();
    holdfast.getPorts().forEach(p -> served.add(p.getContainerPort()));
    assertThat(opened).isEqualTo(served);
  }

  @Test
  void xdsIsOpenOnlyToLabelledProxyPodsInAnyNamespace() {
    NetworkPolicyIngressRule rule = onlyRuleFor("xds");
    assertThat(rule.getFrom()).singleElement().satisfies(peer -> {
      assertThat(peer.getNamespaceSelector()).as("any namespace").isNotNull();
      assertThat(peer.getNamespaceSelector().getMatchLabels()).isNullOrEmpty();
      assertThat(peer.getNamespaceSelector().getMatchExpressions()).isNullOrEmpty();
      assertThat(peer.getPodSelector().getMatchLabels()).containsExactly(Map.entry(XDS_CLIENT_LABEL, "true"));
      assertThat(peer.getIpBlock()).isNull();
    });
    // The Service proxies dial targets that port.
    Service xds = one(load("service.yaml"), Service.class);
    assertThat(xds.getSpec().getPorts()).singleElement().satisfies(p ->
        assertThat(containerPortNamed(p.getTargetPort().getStrVal()).getName()).isEqualTo("xds"));
  }

  @Test
  void theAdminPortIsOpenOnlyToMonitoringNamespaces() {
    NetworkPolicyIngressRule rule = onlyRuleFor("admin");
    assertThat(rule.getFrom()).singleElement().satisfies(peer -> {
      assertThat(peer.getNamespaceSelector().getMatchLabels()).containsExactly(Map.entry(MONITORING_LABEL, "true"));
      assertThat(peer.getPodSelector()).isNull();
      assertThat(peer.getIpBlock()).isNull();
    });
    // The probes use that port: they come from the node, which policies do not filter.
    assertThat(holdfast.getLivenessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("admin");
  }

  @Test
  void theWebhookPortIsOpenToAnySourceForTheApiServerAndIsTheWebhookServicesTarget() {
    NetworkPolicyIngressRule rule = onlyRuleFor("webhook");
    assertThat(rule.getFrom()).as("the API server is no pod: no selector can name it").isNullOrEmpty();
    assertThat(flag("--webhook-port")).contains(Integer.toString(containerPortNamed("webhook").getContainerPort()));
    Service webhook = one(load("webhook/webhook.yaml"), Service.class);
    assertThat(webhook.getSpec().getPorts()).singleElement().satisfies(p ->
        assertThat(p.getTargetPort().getStrVal()).isEqualTo("webhook"));
  }

  @Test
  void certManagerIssuesTheSecretTheDeploymentMountsUnderTheServiceNames() {
    List<GenericKubernetesResource> all = certManager();
    GenericKubernetesResource server = certificate(all, "holdfast-xds");
    SecretFile cert = secretFile(flag("--xds-tls-cert").orElseThrow());
    assertThat(spec(server).get("secretName")).isEqualTo(cert.secretName());
    Service xds = one(load("service.yaml"), Service.class);
    String svc = xds.getMetadata().getName() + "." + xds.getMetadata().getNamespace() + ".svc";
    assertThat(strings(spec(server).get("dnsNames"))).containsExactlyInAnyOrder(svc, svc + ".cluster.local");
    assertThat(strings(spec(server).get("usages"))).contains("server auth").doesNotContain("client auth");
    assertPkcs8Ecdsa(server);

    // server Certificate -> CA Issuer -> CA Certificate (isCA) -> self-signed Issuer: ca.crt in the server's
    // Secret is that CA, the one the proxies' certificates chain to.
    GenericKubernetesResource caIssuer = issuer(all, issuerRef(server));
    String caSecret = (String) ((Map<?, ?>) spec(caIssuer).get("ca")).get("secretName");
    GenericKubernetesResource ca = all.stream().filter(r -> r.getKind().equals("Certificate")
        && caSecret.equals(spec(r).get("secretName"))).findFirst().orElseThrow();
    assertThat(spec(ca).get("isCA")).isEqualTo(true);
    assertThat(spec(issuer(all, issuerRef(ca)))).containsKey("selfSigned");
    assertThat(all).allSatisfy(r -> assertThat(r.getMetadata().getNamespace())
        .isEqualTo(deployment.getMetadata().getNamespace()));
  }

  @Test
  void certManagersProxyCertificateCarriesTheContractsIdentity() {
    List<GenericKubernetesResource> all = certManager();
    List<GenericKubernetesResource> proxies = all.stream().filter(r -> r.getKind().equals("Certificate")
        && spec(r).containsKey("uris")).toList();
    assertThat(proxies).isNotEmpty().allSatisfy(proxy -> {
      String name = (String) spec(proxy).get("commonName");
      assertThat(strings(spec(proxy).get("uris"))).containsExactly("spiffe://" + TRUST_DOMAIN + "/proxy/" + name);
      assertThat(strings(spec(proxy).get("usages"))).contains("client auth").doesNotContain("server auth");
      assertThat(spec(proxy)).doesNotContainKey("dnsNames").doesNotContainKey("isCA");
      assertThat(issuerRef(proxy)).isEqualTo(issuerRef(certificate(all, "holdfast-xds")));
      assertPkcs8Ecdsa(proxy);
    });
    // The default proxy name of Holdfast Gateways (spec.proxyNames) is the example.
    assertThat(proxies).anySatisfy(p -> assertThat(spec(p).get("commonName")).isEqualTo("gateway-proxy"));
  }

  // ---- helpers

  private Optional<String> flag(String name) {
    List<String> values = new ArrayList<>();
    List<String> args = holdfast.getArgs();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.startsWith(name + "=")) {
        values.add(a.substring(name.length() + 1));
      } else if (a.equals(name) && i + 1 < args.size()) {
        values.add(args.get(i + 1));
      }
    }
    assertThat(values).as(name + " given at most once").hasSizeLessThanOrEqualTo(1);
    return values.stream().findFirst();
  }

  private VolumeMount mountAt(String path) {
    List<VolumeMount> found = holdfast.getVolumeMounts().stream().filter(m -> m.getMountPath().equals(path)).toList();
    assertThat(found).as("one mount at " + path).hasSize(1);
    return found.get(0);
  }

  private Volume volume(String name) {
    return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }

  /** The Secret entry a file path in the container resolves to. */
  record SecretFile(String secretName, String key, boolean optional) {
  }

  private SecretFile secretFile(String path) {
    VolumeMount mount = holdfast.getVolumeMounts().stream()
        .filter(m -> path.startsWith(m.getMountPath() + "/")).findFirst()
        .orElseThrow(() -> new AssertionError(path + " is on no mounted volume"));
    assertThat(mount.getSubPath()).as("subPath mounts are never updated: rotation would not reach " + path).isNull();
    var secret = volume(mount.getName()).getSecret();
    assertThat(secret).as(path + " is on a Secret volume").isNotNull();
    String file = path.substring(mount.getMountPath().length() + 1);
    String key = secret.getItems() == null ? file : secret.getItems().stream()
        .filter(i -> i.getPath().equals(file)).map(i -> i.getKey()).findFirst()
        .orElseThrow(() -> new AssertionError(path + ": the volume's items have no path " + file));
    return new SecretFile(secret.getSecretName(), key, Boolean.TRUE.equals(secret.getOptional()));
  }

  private NetworkPolicyIngressRule onlyRuleFor(String portName) {
    int port = containerPortNamed(portName).getContainerPort();
    List<NetworkPolicyIngressRule> rules = new ArrayList<>();
    for (NetworkPolicy p : policies) {
      for (NetworkPolicyIngressRule rule : Optional.ofNullable(p.getSpec().getIngress()).orElse(List.of())) {
        if (rule.getPorts().stream().anyMatch(pp -> containerPort(pp).getContainerPort() == port)) {
          rules.add(rule);
        }
      }
    }
    assertThat(rules).as("rules opening " + portName).hasSize(1);
    assertThat(rules.get(0).getPorts()).as(portName + "'s rule opens only it").hasSize(1);
    return rules.get(0);
  }

  private ContainerPort containerPort(NetworkPolicyPort port) {
    assertThat(port.getProtocol()).isEqualTo("TCP");
    assertThat(port.getEndPort()).isNull();
    if (port.getPort().getStrVal() != null) {
      return containerPortNamed(port.getPort().getStrVal());
    }
    int number = port.getPort().getIntVal();
    return holdfast.getPorts().stream().filter(p -> p.getContainerPort() == number).findFirst()
        .orElseThrow(() -> new AssertionError("a policy opens " + number + ", which no container port is"));
  }

  private ContainerPort containerPortNamed(String name) {
    return holdfast.getPorts().stream().filter(p -> p.getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no container port " + name));
  }

  private static List<GenericKubernetesResource> certManager() {
    List<GenericKubernetesResource> out = new ArrayList<>();
    for (HasMetadata r : load("certs/cert-manager.yaml")) {
      out.add((GenericKubernetesResource) r);
    }
    assertThat(out).allSatisfy(r -> assertThat(r.getApiVersion()).isEqualTo("cert-manager.io/v1"));
    return out;
  }

  private static Map<String, Object> spec(GenericKubernetesResource r) {
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
    return spec;
  }

  private static List<String> strings(Object list) {
    List<String> out = new ArrayList<>();
    ((List<?>) list).forEach(o -> out.add((String) o));
    return out;
  }

  private static GenericKubernetesResource certificate(List<GenericKubernetesResource> all, String name) {
    return all.stream().filter(r -> r.getKind().equals("Certificate") && r.getMetadata().getName().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no Certificate " + name));
  }

  private static Map<?, ?> issuerRef(GenericKubernetesResource certificate) {
    return (Map<?, ?>) spec(certificate).get("issuerRef");
  }

  private static GenericKubernetesResource issuer(List<GenericKubernetesResource> all, Map<?, ?> ref) {
    assertThat(ref.get("kind")).isEqualTo("Issuer");
    return all.stream().filter(r -> r.getKind().equals("Issuer") && r.getMetadata().getName().equals(ref.get("name")))
        .findFirst().orElseThrow(() -> new AssertionError("no Issuer " + ref.get("name")));
  }

  private static void assertPkcs8Ecdsa(GenericKubernetesResource certificate) {
    Map<?, ?> key = (Map<?, ?>) spec(certificate).get("privateKey");
    assertThat(key.get("algorithm")).isEqualTo("ECDSA");
    // --xds-tls-key documents PKCS#8: cert-manager's default for RSA is PKCS#1.
    assertThat(key.get("encoding")).isEqualTo("PKCS8");
  }
}
