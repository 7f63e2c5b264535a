/**
 * The Kubernetes Gateway API front end: lowers GatewayClasses, Gateways, HTTPRoutes, GRPCRoutes and
 * ReferenceGrants (delivered as {@link io.holdfast.api.ApiObject}s in the {@link io.holdfast.api.GatewayConfig})
 * into the IR, and computes their statuses as the specification defines them. Only Gateways of a class whose
 * {@code controllerName} is Holdfast's are programmed; other objects are ignored and get no status from Holdfast.
 * Reads the api, ir and pki modules and fabric8's Gateway API model; knows nothing of xDS or of the sources.
 *
 * <p>Bad input never discards the last good config ({@link io.holdfast.frontend.gatewayapi.LastGood}, kept by
 * the one front end instance of a config history): a route version that cannot be read or holds something Holdfast
 * cannot honour is Accepted=False with the specific reason on its current generation, and its last accepted
 * version goes on being served, the condition's message naming that generation (the specification's
 * {@code PartiallyInvalid} "Fall Back" form is for implementations that restore the old state after a restart,
 * which an in-process memory cannot). A listener whose Secret's material turns invalid keeps the certificate it
 * last served, ResolvedRefs=False {@code InvalidCertificateRef}; an unreadable Gateway version leaves its last
 * readable one served, Accepted=False {@code Invalid}. References to other objects that do not resolve
 * (missing or not permitted backends and Secrets) follow the specification in every version. Deleted objects
 * are forgotten. See CONFORMANCE.md.
 */
package io.holdfast.frontend.gatewayapi;
