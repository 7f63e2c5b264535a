/**
 * Pure translation of an accepted {@link io.holdfast.xds.model.GatewayConfig} to Envoy v3 resources in an
 * {@link io.holdfast.xds.snapshot.XdsSnapshot}. Entry point: {@link io.holdfast.xds.translate.Translator#translate};
 * resource names: {@link io.holdfast.xds.translate.EnvoyNames}. Stateless and thread-safe.
 */
package io.holdfast.xds.translate;
