/**
 * Validation of a {@link io.holdfast.xds.model.GatewayConfig}: per-resource verdicts
 * ({@link io.holdfast.xds.validate.ResourceStatus}) with stable reason codes
 * ({@link io.holdfast.xds.model.Reasons}) and field paths, cascaded along references, and the consistent
 * accepted subset that translation consumes. Entry point: {@link io.holdfast.xds.validate.Validator#validate}.
 * Everything here is pure, immutable or stateless, and thread-safe.
 */
package io.holdfast.xds.validate;
