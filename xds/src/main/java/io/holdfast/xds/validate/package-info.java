/**
 * The Holdfast front end ({@link io.holdfast.xds.validate.HoldfastFrontEnd}): validation of a
 * {@link io.holdfast.xds.model.GatewayConfig} with last-good memory, then lowering of the accepted subset into the
 * IR ({@link io.holdfast.xds.ir}). Per-resource verdicts are {@link io.holdfast.xds.ir.ObjectStatus}es with stable
 * reason codes ({@link io.holdfast.xds.model.Reasons}) and field paths, cascaded along references;
 * {@link io.holdfast.xds.validate.ResourceStatus} is the one-line view of them that the status writer and the
 * admin endpoints show. Entry points: {@link io.holdfast.xds.validate.HoldfastFrontEnd#lower} (into an
 * {@code IrBuilder}), and, for callers that predate the IR, {@link io.holdfast.xds.validate.Validator#validate}
 * and {@link io.holdfast.xds.validate.LastGoodValidator#validate}. Rules and validators are pure or
 * single-threaded as documented on each.
 */
package io.holdfast.xds.validate;
