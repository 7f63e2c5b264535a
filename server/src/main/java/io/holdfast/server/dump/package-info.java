/**
 * Envoy config as an operator reads it: {@code holdfast translate} (what a config directory produces, offline)
 * and {@code holdfast xds-dump} (what a running replica serves to a node, fetched as an xDS client). Both
 * render through {@link io.holdfast.server.dump.ConfigDump}, which redacts every field Envoy's API marks
 * sensitive ({@code udpa.annotations.sensitive}, e.g. private keys), inside packed {@code Any} configs too.
 *
 * <p>Stateless; arguments and results are never null.
 */
package io.holdfast.server.dump;
