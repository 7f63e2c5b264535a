/**
 * Pure translation of the IR ({@link io.holdfast.ir.Ir}) to Envoy v3 resources in an
 * {@link io.holdfast.xds.snapshot.XdsSnapshot}, the stage after the front ends and before the xDS server. Entry
 * point: {@link io.holdfast.xds.translate.Translator#translate(io.holdfast.ir.Ir)}; resource names are derived
 * per origin kind ({@code EnvoyNames}). Stateless and thread-safe.
 */
package io.holdfast.xds.translate;
