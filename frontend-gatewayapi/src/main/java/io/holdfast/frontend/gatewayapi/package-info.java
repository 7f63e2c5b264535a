/**
 * The Kubernetes Gateway API front end: lowers GatewayClasses, Gateways, HTTPRoutes, GRPCRoutes and
 * ReferenceGrants (delivered as {@link io.holdfast.api.ApiObject}s in the {@link io.holdfast.api.GatewayConfig})
 * into the IR, and computes their statuses as the specification defines them. Only Gateways of a class whose
 * {@code controllerName} is Holdfast's are programmed; other objects are ignored and get no status from Holdfast.
 * Reads the api, ir and pki modules and fabric8's Gateway API model; knows nothing of xDS or of the sources.
 */
package io.holdfast.frontend.gatewayapi;
