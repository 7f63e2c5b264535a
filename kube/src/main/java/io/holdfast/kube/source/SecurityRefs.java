package io.holdfast.kube.source;

import io.holdfast.api.ApiObject;
import io.holdfast.api.HoldfastKinds;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.SecurityOptions;
import io.holdfast.api.SecurityPolicySpec;
import io.holdfast.api.VirtualService;
import java.util.ArrayList;
import java.util.List;

/**
 * The Secrets security options name ({@link SecurityOptions#secretRefs}: basic-auth users, key sets, OAuth2
 * credentials), for the source to copy into the config: a VirtualService's and its routes', and a SecurityPolicy's.
 * A reference to another namespace is fetched too: whether a ReferenceGrant allows it is the front end's verdict. A
 * policy whose spec does not parse names nothing (the front end reports it and fails closed). Stateless.
 */
final class SecurityRefs {

  private SecurityRefs() {
  }

  static List<ResourceKey> secrets(VirtualService vs) {
    String namespace = vs.metadata().namespace();
    List<ResourceKey> out = new ArrayList<>();
    vs.options().security().secretRefs(namespace).forEach(ref -> out.add(ref.secret()));
    vs.routes().forEach(route -> route.options().security().secretRefs(namespace)
        .forEach(ref -> out.add(ref.secret())));
    return out;
  }

  /** A SecurityPolicy's Secrets; empty for other kinds. */
  static List<ResourceKey> secrets(ApiObject object) {
    if (!object.key().group().equals(HoldfastKinds.GROUP) || !object.key().kind().equals(SecurityPolicySpec.KIND)) {
      return List.of();
    }
    List<Problem> ignored = new ArrayList<>();
    return SecurityPolicySpec.parse(object.at("/spec"), ignored)
        .map(spec -> spec.security().secretRefs(object.key().namespace()).stream()
            .map(SecurityOptions.SecretReference::secret).toList())
        .orElse(List.of());
  }
}
