package io.holdfast.frontend.gatewayapi;

import io.holdfast.api.AccessPolicy;
import io.holdfast.api.Endpoint;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.Reasons;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.Upstream;
import io.holdfast.frontend.gatewayapi.BackendResolution.Reason;
import io.holdfast.ir.Cluster;
import io.holdfast.ir.Cluster.WeightedEndpoint;
import io.holdfast.ir.Finding;
import io.holdfast.ir.Origin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link Backends} over the Services a source resolved ({@link GatewayConfig#serviceEndpoints()}): a reference must
 * name a core Service ({@code InvalidKind}) with a port, in the route's namespace or in one whose ReferenceGrant
 * lets the route's kind and namespace in ({@code RefNotPermitted}), and the Service port must exist
 * ({@code BackendNotFound}). Each Service port and protocol becomes one cluster fed by endpoint discovery, as the
 * Holdfast front end lowers Kubernetes Upstreams; its identity is the Service's key with the port (and
 * {@code :grpc} for HTTP/2) in the name, so two ports of one Service are two clusters. One instance per route: the
 * clusters it resolved are {@link #clusters()}, which the front end adds only for routes that attach. Endpoints
 * in the {@link AccessPolicy}'s denied networks are left out of the cluster, as for a Holdfast Upstream's
 * Kubernetes Service, each Service with a warning ({@code AddressNotPermitted}, {@link #warnings()}) at the
 * backendRef: they change without the route changing, so the route stays accepted.
 */
final class ServiceBackends implements Backends {

  private final GatewayConfig config;
  private final ReferenceGrants grants;
  private final AccessPolicy policy;
  private final Map<ResourceKey, Cluster> clusters = new TreeMap<>();
  private final List<Finding> warnings = new ArrayList<>();

  ServiceBackends(GatewayConfig config, ReferenceGrants grants, AccessPolicy policy) {
    this.config = config;
    this.grants = grants;
    this.policy = policy;
  }

  @Override
  public BackendResolution resolve(String routeNamespace, BackendReference ref, BackendProtocol protocol,
      Origin origin) {
    if (!ref.isService()) {
      return new BackendResolution.Unresolved(Reason.INVALID_KIND, "backendRef " + ref.name() + " is a "
          + (ref.group().isEmpty() ? "" : ref.group() + "/") + ref.kind() + "; only core Services are supported");
    }
    String namespace = ref.namespaceOr(routeNamespace);
    // From the referring object's own group: a route's, or a Holdfast policy's (gateway.holdfast.io).
    if (!grants.permits(new ReferenceGrants.Reference(origin.object().group(), origin.object().kind(),
        routeNamespace, "", BackendReference.SERVICE, namespace, ref.name()))) {
      return new BackendResolution.Unresolved(Reason.REF_NOT_PERMITTED, "no ReferenceGrant in namespace "
          + namespace + " lets " + origin.object().kind() + "s of namespace " + routeNamespace
          + " refer to Service " + ref.name());
    }
    if (ref.name().isEmpty()) {
      return new BackendResolution.Unresolved(Reason.BACKEND_NOT_FOUND, "a backendRef needs the name of a Service",
          Findings.MISSING_FIELD);
    }
    if (ref.port().isEmpty()) {
      return new BackendResolution.Unresolved(Reason.BACKEND_NOT_FOUND, "backendRef to Service " + namespace + "/"
          + ref.name() + " needs a port", Findings.MISSING_FIELD);
    }
    ServiceRef service = new ServiceRef(namespace, ref.name(), ref.port().get());
    List<Endpoint> endpoints = config.serviceEndpoints().get(service);
    if (endpoints == null) {
      return new BackendResolution.Unresolved(Reason.BACKEND_NOT_FOUND, "Service " + service
          + " does not exist (or has no such port)");
    }
    List<Endpoint> permitted = policy.permittedEndpoints(endpoints);
    if (permitted.size() < endpoints.size()) {
      Endpoint first = endpoints.stream().filter(e -> !policy.permits(e)).findFirst().orElseThrow();
      warnings.add(new Finding(Finding.Severity.WARNING, origin.field(), Reasons.ADDRESS_NOT_PERMITTED,
          (endpoints.size() - permitted.size()) + " of the " + endpoints.size() + " endpoints of Service " + service
          + " (" + first.address() + (endpoints.size() - permitted.size() > 1 ? ", ..." : "") + ") are in denied"
          + " networks and left out (--upstream-deny-cidr, --upstream-allow-loopback)"));
    }
    boolean http2 = protocol == BackendProtocol.GRPC;
    ResourceKey key = ResourceKey.core(BackendReference.SERVICE, namespace,
        ref.name() + ":" + service.port() + (http2 ? ":grpc" : ""));
    clusters.computeIfAbsent(key, k -> new Cluster(Origin.of(k), Upstream.DEFAULT_CONNECT_TIMEOUT,
        Cluster.LbPolicy.ROUND_ROBIN, http2, permitted.stream().sorted()
            .map(e -> new WeightedEndpoint(e.address(), e.port(), 1)).toList()));
    return new BackendResolution.Resolved(key);
  }

  /** Endpoints left out for the access policy, one warning per reference. */
  List<Finding> warnings() {
    return warnings;
  }

  /** The clusters this instance resolved references to, by identity. */
  Map<ResourceKey, Cluster> clusters() {
    return clusters;
  }
}
