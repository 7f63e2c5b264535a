package io.holdfast.frontend.gatewayapi;

import io.holdfast.ir.Origin;

/**
 * Resolves a route's backendRef (or a mirror's) to an IR cluster. The front end implements it: it checks the
 * ReferenceGrants of a cross-namespace reference, whether the Service and its port exist, and adds the cluster to
 * the build once per Service port and protocol. {@link RouteRules} only asks and turns a failure into the
 * specification's status and 500 answer.
 */
public interface Backends {

  /**
   * @param routeNamespace namespace of the route that holds the reference (the default for {@code ref})
   * @param ref            the reference as written
   * @param protocol       how the cluster speaks to the backend ({@link BackendProtocol#GRPC} needs HTTP/2)
   * @param origin         where the reference is written, for the cluster's origin and problem messages
   */
  BackendResolution resolve(String routeNamespace, BackendReference ref, BackendProtocol protocol, Origin origin);

  /** What a cluster speaks to its backend: HTTP/1.1 for HTTPRoutes, HTTP/2 (h2c) for GRPCRoutes. */
  enum BackendProtocol {
    HTTP, GRPC
  }
}
