package io.holdfast.kube.source;

import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What a Gateway API object makes the source fetch: the Service ports a route's backendRefs and RequestMirror
 * filters name, and the Secrets a Gateway's listeners name in {@code tls.certificateRefs}. Read straight from the
 * JSON (the front end parses the models; the source only needs references). A reference to another namespace is
 * fetched too: whether a ReferenceGrant allows it is the front end's verdict, and it needs the object to say
 * BackendNotFound rather than RefNotPermitted when both apply. Stateless.
 */
final class GatewayApiRefs {

  private static final String SERVICE = "Service";
  private static final String SECRET = "Secret";

  private GatewayApiRefs() {
  }

  /** The Service ports an HTTPRoute, GRPCRoute, TLSRoute or TCPRoute names; empty for other kinds. */
  static List<ServiceRef> services(ApiObject object) {
    if (!GatewayApiKinds.isRoute(object.key())) {
      return List.of();
    }
    String namespace = object.key().namespace();
    List<ServiceRef> out = new ArrayList<>();
    for (JsonNode rule : object.at("/spec/rules")) {
      mirrors(rule.path("filters"), namespace, out);
      for (JsonNode backend : rule.path("backendRefs")) {
        service(backend, namespace, out);
        mirrors(backend.path("filters"), namespace, out);
      }
    }
    return out;
  }

  /** The Secrets a Gateway's listeners name as certificates; empty for other kinds. */
  static List<ResourceKey> secrets(ApiObject object) {
    if (!object.key().kind().equals(GatewayApiKinds.GATEWAY.kind())) {
      return List.of();
    }
    List<ResourceKey> out = new ArrayList<>();
    for (JsonNode listener : object.at("/spec/listeners")) {
      for (JsonNode ref : listener.path("tls").path("certificateRefs")) {
        if (isCore(ref, SECRET) && !ref.path("name").asString("").isEmpty()) {
          out.add(TlsSecretData.secretKey(ref.path("namespace").asString(object.key().namespace()),
              ref.path("name").asString()));
        }
      }
    }
    return out;
  }

  private static void mirrors(JsonNode filters, String namespace, List<ServiceRef> out) {
    for (JsonNode filter : filters) {
      if ("RequestMirror".equals(filter.path("type").asString(""))) {
        service(filter.path("requestMirror").path("backendRef"), namespace, out);
      }
    }
  }

  private static void service(JsonNode ref, String routeNamespace, List<ServiceRef> out) {
    JsonNode port = ref.path("port");
    String name = ref.path("name").asString("");
    if (isCore(ref, SERVICE) && !name.isEmpty() && port.isNumber()) {
      out.add(new ServiceRef(ref.path("namespace").asString(routeNamespace), name, port.asInt()));
    }
  }

  /** A reference to the core group's {@code kind}: group "" (or unset) and kind unset or equal. */
  private static boolean isCore(JsonNode ref, String kind) {
    String group = ref.path("group").asString("");
    String refKind = ref.path("kind").asString(kind);
    return (group.isEmpty() || group.equals("core")) && refKind.equals(kind);
  }
}
