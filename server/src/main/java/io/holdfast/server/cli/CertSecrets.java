package io.holdfast.server.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.pki.IssuedCertificate;
import io.holdfast.pki.ProxyIdentity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Secret manifests of {@code holdfast certs --kubernetes-secrets}, for {@code kubectl apply -f}: the xDS
 * server's {@code kubernetes.io/tls} Secret with the CA as {@code ca.crt} (the file {@code --xds-tls-client-ca}
 * reads), as deploy/deployment.yaml mounts it; one per proxy (its certificate, key, and the CA to verify the
 * server with); and the snapshot sealing key. Never the CA's key.
 */
final class CertSecrets {
  static final String XDS_SECRET = "holdfast-xds-tls";
  static final String SNAPSHOT_SECRET = "holdfast-snapshot-key";
  /** The annotation naming the proxy a Secret is for: Secret names are the name made DNS-safe, so lossy. */
  static final String PROXY_NAME_ANNOTATION = "holdfast.io/proxy-name";

  private static final Map<String, String> LABELS = Map.of("app.kubernetes.io/part-of", "holdfast",
      "app.kubernetes.io/managed-by", "holdfast-certs");

  private CertSecrets() {
  }

  static String yaml(CertsPlan.Secrets where, IssuedCertificate ca, IssuedCertificate server,
      Map<ProxyIdentity, IssuedCertificate> proxies, String snapshotKey) {
    List<HasMetadata> secrets = new ArrayList<>();
    secrets.add(tls(XDS_SECRET, where.serverNamespace(), server, ca, Map.of()));
    proxies.forEach((proxy, issued) -> secrets.add(tls(CertsOutput.proxySecretName(proxy), where.proxyNamespace(),
        issued, ca, Map.of(PROXY_NAME_ANNOTATION, proxy.proxyName(), "holdfast.io/spiffe-id",
            proxy.spiffeId().toString()))));
    if (snapshotKey != null) {
      secrets.add(new SecretBuilder().withNewMetadata().withName(SNAPSHOT_SECRET)
          .withNamespace(where.serverNamespace()).withLabels(LABELS).endMetadata()
          .withType("Opaque").withData(Map.of(CertsOutput.SNAPSHOT_KEY, base64(snapshotKey))).build());
    }
    KubernetesSerialization serialization = new KubernetesSerialization();
    StringBuilder out = new StringBuilder();
    for (HasMetadata secret : secrets) {
      String doc = serialization.asYaml(secret);
      out.append(doc.startsWith("---") ? "" : "---\n").append(doc);
      if (!doc.endsWith("\n")) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static Secret tls(String name, String namespace, IssuedCertificate leaf, IssuedCertificate ca,
      Map<String, String> annotations) {
    Map<String, String> data = new LinkedHashMap<>();
    data.put("tls.crt", base64(leaf.certificatePem()));
    data.put("tls.key", base64(leaf.privateKeyPem()));
    data.put("ca.crt", base64(ca.certificatePem()));
    return new SecretBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(LABELS)
        .withAnnotations(annotations.isEmpty() ? null : annotations).endMetadata()
        .withType("kubernetes.io/tls").withData(data).build();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }
}
