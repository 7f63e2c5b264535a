/**
 * The xDS serving layer: a NACK-aware cache of the one {@link io.holdfast.xds.snapshot.XdsSnapshot} every proxy
 * gets, and the gRPC server that serves it (its own ADS and per-type services, state-of-the-world and delta,
 * writing responses from bytes encoded once per snapshot and shared by every stream that gets them).
 *
 * <p>Public surface: {@link io.holdfast.xds.server.XdsCache} (thread-safe; holds the snapshot),
 * {@link io.holdfast.xds.server.XdsServer} (serves a cache), {@link io.holdfast.xds.server.XdsServerSettings},
 * {@link io.holdfast.ir.NackListener}, {@link io.holdfast.ir.NackEvent}, and for TLS/mTLS
 * {@link io.holdfast.xds.server.XdsTls} (which files), {@link io.holdfast.xds.server.ReloadingTls} (credentials
 * that follow those files) and {@link io.holdfast.xds.server.XdsTlsException}. Everything else is
 * package-private.
 *
 * <p>Contracts: no method accepts or returns null unless its doc says so. Nothing in this package throws into
 * gRPC threads because of a proxy's request: bad requests are logged and ignored, or answered per the xDS
 * protocol (an unknown delta nonce closes that stream with INVALID_ARGUMENT). The last snapshot set stays
 * served until another one replaces it.
 *
 * <p>Why not java-control-plane's {@code SimpleCache}: after a NACK it resends the rejected version at once (a
 * loop of about a thousand responses a second), and in ADS mode it answers nothing while one requested name is
 * missing, so subscriptions stall and deletions are never sent. Here a rejected version is not sent again on
 * that stream until the snapshot version changes, and named requests are answered with the subset that exists.
 * A NACK makes what that stream holds of the type unknown (gRPC clients, gRFC A46, and Envoy apply the valid
 * resources of a rejected response), so the next version is sent to it whatever it equals, a revert to the
 * version it ACKed before included.
 */
package io.holdfast.xds.server;
