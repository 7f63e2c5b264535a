/**
 * The Holdfast gateway model ({@code gateway.holdfast.io/v1}): Upstream, VirtualService, RouteTable, Gateway and
 * TcpGateway resources, shaped like Kubernetes objects so that files and custom resources share one format, and
 * {@link io.holdfast.api.ResourceKey}, the identity (API group, kind, namespace, name) every later stage names
 * objects by.
 *
 * <p>Module {@code api}, the bottom of the one-way graph: it imports nothing of Holdfast and only Jackson (no gRPC,
 * no Envoy, no Kubernetes client). The IR ({@code ir}) uses only its {@code ResourceKey}; the Holdfast front end
 * ({@code frontend-holdfast}) and the sources ({@code kube}, {@code server}) read the kinds.
 *
 * <p>Flow: {@link io.holdfast.api.ManifestReader} (YAML text to document trees) then
 * {@link io.holdfast.api.ModelParser} (tree to resource or problems), or both through
 * {@link io.holdfast.api.ConfigLoader}, into one immutable {@link io.holdfast.api.GatewayConfig}.
 *
 * <p>Contracts: every type is immutable and thread-safe; nothing is null (absent values are
 * {@link java.util.Optional} or empty collections). Record constructors check structure only (no nulls,
 * defensive copies). Value rules such as port ranges, regex syntax and references are checked by
 * {@code io.holdfast.frontend.holdfast.Validator}, so that every violation becomes a per-resource status with a field
 * path instead of an exception, and hand-built configs are checked the same way as parsed ones.
 */
package io.holdfast.api;
