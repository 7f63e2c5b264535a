package io.holdfast.kube.source;

import io.holdfast.api.ApiObject;
import io.holdfast.api.ConfigLoader;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.GatewayResource;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TcpGateway;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.Upstream;
import io.holdfast.api.VirtualService;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Secrets an object names, which the source copies into the config: an Upstream's {@code spec.tls}, a
 * VirtualService's {@code sslConfig} and security options ({@link SecurityRefs}), a TcpGateway's TLS material, a
 * Gateway API listener's {@code tls.certificateRefs} ({@link GatewayApiRefs}), a SecurityPolicy's Secrets and a Gloo
 * object's {@code sslConfig.secretRef}s ({@link GlooRefs}). One answer for the rebuild ({@link ConfigAssembler}) and
 * for the admission webhook ({@link KubeConfigSource#withNamedSecrets}), so both copy the same Secrets. File keys
 * (file mode) are left out. Stateless.
 */
final class NamedSecrets {

  private NamedSecrets() {
  }

  /** The Secrets a parsed Holdfast resource names; empty for kinds that name none. */
  static List<ResourceKey> of(GatewayResource resource) {
    List<ResourceKey> out = new ArrayList<>();
    if (resource instanceof Upstream upstream) {
      upstream.options().tls().ifPresent(tls -> out.addAll(tls.materialKeys(upstream.metadata().namespace())));
    }
    if (resource instanceof VirtualService vs) {
      vs.sslConfig().ifPresent(ssl -> {
        out.addAll(ssl.certificateKeys(vs.metadata().namespace()));
        out.addAll(ssl.clientCaKeys(vs.metadata().namespace()));
      });
      out.addAll(SecurityRefs.secrets(vs));
    }
    if (resource instanceof TcpGateway tcp) {
      out.addAll(tcp.materialKeys());
    }
    return withoutFiles(out);
  }

  /** The Secrets an object of another config API names: a Gloo object's, a Gateway's, a SecurityPolicy's. */
  static List<ResourceKey> of(ApiObject object) {
    List<ResourceKey> out = new ArrayList<>();
    if (ConfigLoader.GLOO_GROUPS.contains(object.key().group())) {
      out.addAll(GlooRefs.secrets(object));
    } else {
      out.addAll(GatewayApiRefs.secrets(object));
      out.addAll(SecurityRefs.secrets(object));
    }
    return withoutFiles(out);
  }

  /**
   * The Secrets the object (parsed or of another config API) with {@code key} in {@code config} names, each once;
   * empty if there is none or it names none. Bound: one key comparison per object of the config, and the object's
   * own references.
   */
  static Set<ResourceKey> of(GatewayConfig config, ResourceKey key) {
    Set<ResourceKey> out = new LinkedHashSet<>();
    for (GatewayResource resource : config.resources()) {
      if (resource.key().equals(key)) {
        out.addAll(of(resource));
      }
    }
    for (ApiObject object : config.apiObjects()) {
      if (object.key().equals(key)) {
        out.addAll(of(object));
      }
    }
    return out;
  }

  private static List<ResourceKey> withoutFiles(List<ResourceKey> keys) {
    keys.removeIf(TlsSecretData::isFileKey);
    return keys;
  }
}
