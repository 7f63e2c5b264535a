package io.holdfast.kube.source;

import java.time.Instant;
import java.util.Optional;

/**
 * Whether the cached view may be behind the cluster, from periodic observations. Before the first sync
 * nothing is stale (there is nothing cached yet). After it, the view is stale from the first observation
 * that some informer is not watching or the API did not answer, until one where all watch and it answered.
 * Not thread-safe: one health thread feeds it; readers use the published {@link #since()} value.
 */
final class Staleness {

  /** What an observation changed. */
  enum Transition { NONE, BECAME_STALE, RECOVERED }

  private volatile Instant since;

  Transition observe(Instant now, boolean synced, boolean allWatching, boolean apiAnswered) {
    boolean stale = synced && !(allWatching && apiAnswered);
    if (stale && since == null) {
      since = now;
      return Transition.BECAME_STALE;
    }
    if (!stale && since != null) {
      since = null;
      return Transition.RECOVERED;
    }
    return Transition.NONE;
  }

  Optional<Instant> since() {
    return Optional.ofNullable(since);
  }
}
