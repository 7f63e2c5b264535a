/**
 * Pure translation of the IR ({@link io.holdfast.ir.Ir}) to Envoy v3 resources in an
 * {@link io.holdfast.xds.snapshot.XdsSnapshot}, the stage after the front ends and before the xDS server. Entry
 * point: {@link io.holdfast.xds.translate.Translator#translate(io.holdfast.ir.Ir)}; resource names are derived
 * per origin kind ({@code EnvoyNames}). Stateless and thread-safe.
 *
 * <p>Module {@code xds}: imports {@code ir} only (of {@code api}, just the {@code ResourceKey} the IR names objects
 * by); never a front end or an API's parsing, so every config API reaches Envoy through the same IR
 * ({@code ModuleGraphTest} in {@code server} enforces it).
 */
package io.holdfast.xds.translate;
