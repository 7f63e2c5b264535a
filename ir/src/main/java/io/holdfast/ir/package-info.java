/**
 * The internal routing model (IR) between the config APIs and the proxies. Data flows one way:
 * <pre>
 * source (files, informers) → front end (one per config API) → IR → xDS translation → snapshot → xDS server
 *                                    └→ statuses (conditions per object and per parent) → status writer
 * </pre>
 *
 * <p>A {@link io.holdfast.ir.FrontEnd} lowers the objects of its API into an
 * {@link io.holdfast.ir.IrBuilder}: {@link io.holdfast.ir.Listener}s (sockets with filter chains, and
 * client listeners for proxyless gRPC) holding {@link io.holdfast.ir.VirtualHost}s and
 * {@link io.holdfast.ir.Route}s, {@link io.holdfast.ir.Cluster}s and {@link io.holdfast.ir.Secret}s,
 * plus one {@link io.holdfast.ir.ObjectStatus} per object. The builder settles what front ends share
 * ({@link io.holdfast.ir.Claims}: address and port, client target, domain per listener; oldest claimant
 * wins) and returns the {@link io.holdfast.ir.Ir} and the statuses. Translation reads only the IR.
 *
 * <p>Module {@code ir}: imports only {@link io.holdfast.api.ResourceKey} from {@code api}; front ends
 * ({@code frontend-holdfast}) and translation ({@code xds}) import it, and neither imports the other. It also holds
 * what flows back from the proxies: {@link io.holdfast.ir.NackEvent}s, which the xDS server emits through a
 * {@link io.holdfast.ir.NackListener} and the pipeline and status writer attribute to objects.
 *
 * <p>Every element carries its {@link io.holdfast.ir.Origin} (object key and field path): statuses, NACKs and
 * Envoy resource names are derived from it. The IR speaks in neutral terms: no Envoy protos, no API types; it
 * knows only {@link io.holdfast.api.ResourceKey} to name objects.
 *
 * <p>Where things plug in: a new config API is a new {@code FrontEnd}; a new policy is a field on the IR element it
 * applies to (e.g. {@link io.holdfast.ir.RouteAction.ForwardPolicy}), set by each front end's lowering and read
 * by the translator.
 *
 * <p>Contracts: IR values are immutable records whose factories refuse inconsistent values with an
 * {@link java.lang.IllegalArgumentException} naming the element's origin; nothing is null (absent values are
 * {@link java.util.Optional} or empty lists). A builder and a front end belong to the one pipeline thread.
 */
package io.holdfast.ir;
