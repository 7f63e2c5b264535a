package io.holdfast.server.webhook;

import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ResourceKey;

/**
 * Where the webhook finds the Secrets a reviewed object names that the view lacks. The pipeline's input holds only
 * the Secrets some object already named (Kubernetes mode copies no other), so without this an object naming an
 * existing Secret nothing named before would be judged {@code SecretNotFound}, though the server accepts it once the
 * object exists. Kubernetes mode: the source's Secret cache ({@code KubeConfigSource.withNamedSecrets}), and for a
 * Secret the cache lacks yet (created with the object, its watch event not yet in) a bounded, narrowed list request to
 * the API whose time is at most half the check's budget; what it finds serves this check only. File mode:
 * {@link #NONE}, the view already holds every Secret of the directory. Must be thread-safe and end well within the
 * check's budget ({@link CheckBudget}), even with the API away: a Secret not found in time stays missing.
 */
@FunctionalInterface
public interface SecretSource {

  /** Adds nothing: the view already has every Secret the source can read. */
  SecretSource NONE = (config, reviewed) -> config;

  /**
   * {@code config} with the Secrets the object {@code reviewed} in it names that the config lacks and the source can
   * read, as a rebuild of the source would copy them in once the object exists; {@code config} itself when there
   * are none.
   */
  GatewayConfig withNamedSecrets(GatewayConfig config, ResourceKey reviewed);
}
