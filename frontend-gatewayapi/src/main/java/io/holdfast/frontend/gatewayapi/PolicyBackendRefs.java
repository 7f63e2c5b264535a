package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.TrafficChecks;
import io.holdfast.frontend.gatewayapi.Backends.BackendProtocol;
import io.holdfast.ir.Origin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The services a Gateway API policy sends to (gRPC access log and OpenTelemetry sinks, the global rate-limit service),
 * named as the Gateway API names backends: a {@code backendRef} to a Service with a port (in the policy's namespace,
 * or in another one whose ReferenceGrant lets the policy's kind in). Holdfast kinds name an Upstream at the same
 * place ({@code upstream}); the shared parser reads that, so the backendRefs are taken out of the spec first
 * ({@link #extract}) and each is resolved, as an HTTPRoute's backendRef is, to the same kind of IR cluster
 * (endpoint discovery, HTTP/2 since all three speak gRPC). What cannot be resolved is refused with the route's
 * reasons: {@code BackendNotFound}, {@code RefNotPermitted}, {@code InvalidKind}.
 *
 * <p>Bounded: at most {@link TrafficChecks#MAX_ACCESS_LOGS} access logs are looked at (more are the parser's
 * {@code TooManyAccessLogs}).
 */
final class PolicyBackendRefs {

  static final String BACKEND_REF = "backendRef";
  static final String RATE_LIMIT_SERVICE = "rateLimitService";

  private PolicyBackendRefs() {
  }

  /**
   * A spec with its backendRefs taken out.
   *
   * @param spec the spec to parse: each backendRef replaced by an {@code upstream} naming its Service, so the
   *             shared parser's required field is there
   * @param refs each backendRef by the field the parser reports the upstream at (e.g.
   *             {@code spec.accessLogs[0].grpc.upstream})
   * @param both fields that give both an upstream and a backendRef
   */
  record Extracted(JsonNode spec, Map<String, BackendReference> refs, List<String> both) {
  }

  /** Takes the backendRefs out of {@code spec} (a copy; the object's tree is not touched). */
  static Extracted extract(JsonNode spec) {
    if (!(spec instanceof ObjectNode object)) {
      return new Extracted(spec, Map.of(), List.of());
    }
    ObjectNode copy = object.deepCopy();
    Map<String, BackendReference> refs = new LinkedHashMap<>();
    List<String> both = new java.util.ArrayList<>();
    JsonNode logs = copy.path("accessLogs");
    for (int i = 0; logs.isArray() && i < logs.size() && i < TrafficChecks.MAX_ACCESS_LOGS; i++) {
      for (String sink : List.of("grpc", "openTelemetry")) {
        take(logs.get(i).path(sink), "spec.accessLogs[" + i + "]." + sink, refs, both);
      }
    }
    take(copy.path(RATE_LIMIT_SERVICE), "spec." + RATE_LIMIT_SERVICE, refs, both);
    take(copy.path("tracing").path("openTelemetry"), "spec.tracing.openTelemetry", refs, both);
    return new Extracted(copy, refs, both);
  }

  private static void take(JsonNode node, String field, Map<String, BackendReference> refs, List<String> both) {
    if (!(node instanceof ObjectNode holder) || !holder.has(BACKEND_REF)) {
      return;
    }
    JsonNode ref = holder.remove(BACKEND_REF);
    if (holder.has("upstream")) {
      both.add(field);
      return;
    }
    String name = ref.path("name").asString("");
    refs.put(field + ".upstream", BackendReference.of(text(ref, "group"), text(ref, "kind"), name,
        text(ref, "namespace"), ref.path("port").isIntegralNumber() ? ref.path("port").asInt() : null));
    holder.put("upstream", name.isEmpty() ? "-" : name);
  }

  private static String text(JsonNode ref, String field) {
    return ref.hasNonNull(field) ? ref.path(field).asString("") : null;
  }

  /**
   * The cluster {@code ref} resolves to for {@code policy}, or the problem at its backendRef.
   *
   * @param field where the parser reads the upstream the backendRef stands for ({@code ....upstream})
   *
   * @param backends resolves and creates the clusters (with the ReferenceGrant check against the policy's kind)
   */
  static Resolved resolve(ResourceKey policy, String field, BackendReference ref, Backends backends) {
    String written = field.substring(0, field.length() - ".upstream".length()) + "." + BACKEND_REF;
    BackendResolution resolution = backends.resolve(policy.namespace(), ref, BackendProtocol.GRPC,
        Origin.of(policy).at(written));
    if (resolution instanceof BackendResolution.Resolved resolved) {
      return new Resolved(Optional.of(resolved.cluster()), Optional.empty());
    }
    BackendResolution.Unresolved unresolved = (BackendResolution.Unresolved) resolution;
    return new Resolved(Optional.empty(), Optional.of(new Problem(written, unresolved.reason().reason(),
        unresolved.message())));
  }

  /** A cluster, or why there is none. */
  record Resolved(Optional<ResourceKey> cluster, Optional<Problem> problem) {
  }
}
