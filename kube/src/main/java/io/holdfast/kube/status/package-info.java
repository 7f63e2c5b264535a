/**
 * Writing validation verdicts and NACKs back to the gateway resources' {@code status}: leader only, fenced,
 * coalesced, rate limited, never blocking the pipeline. Entry point: {@link io.holdfast.kube.status.StatusWriter}.
 */
package io.holdfast.kube.status;
