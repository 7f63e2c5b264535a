/**
 * The Holdfast front end ({@link io.holdfast.frontend.holdfast.HoldfastFrontEnd}): validation of a
 * {@link io.holdfast.api.GatewayConfig} with last-good memory, then lowering of the accepted subset into the
 * IR ({@link io.holdfast.ir}). Per-resource verdicts are {@link io.holdfast.ir.ObjectStatus}es with stable
 * reason codes ({@link io.holdfast.api.Reasons}) and field paths, cascaded along references;
 * {@link io.holdfast.frontend.holdfast.ResourceStatus} is the one-line view of them that the status writer and the
 * admin endpoints show. Entry points: {@link io.holdfast.frontend.holdfast.HoldfastFrontEnd#lower} (into an
 * {@code IrBuilder}), and, for callers that predate the IR, {@link io.holdfast.frontend.holdfast.Validator#validate}
 * and {@link io.holdfast.frontend.holdfast.LastGoodValidator#validate}. Rules and validators are pure or
 * single-threaded as documented on each.
 *
 * <p>Module {@code frontend-holdfast}: imports {@code api} (the kinds) and {@code ir}; never translation or the xDS
 * server. A second config API is a sibling module with its own {@code FrontEnd}. The pipeline runs it.
 */
package io.holdfast.frontend.holdfast;
