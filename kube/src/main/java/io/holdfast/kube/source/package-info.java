/**
 * The Kubernetes config source: fabric8 informers over the {@code gateway.holdfast.io/v1} custom resources,
 * Services and EndpointSlices, rebuilt into one {@link io.holdfast.api.GatewayConfig} on one debounced
 * thread ({@link io.holdfast.kube.source.KubeConfigSource}). Outages keep the caches; staleness is reported,
 * never acted on by dropping config. {@link io.holdfast.kube.source.GatewayCrds} names the resources for
 * other Kubernetes-facing code, and {@link io.holdfast.kube.source.ObservedObject} carries the metadata a
 * status writer needs.
 */
package io.holdfast.kube.source;
