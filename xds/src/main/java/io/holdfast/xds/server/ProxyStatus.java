package io.holdfast.xds.server;

import io.holdfast.ir.NackEvent;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one connected proxy has told this server, across its open streams: for the admin page, not for the
 * protocol (which keeps per-stream state in {@link StreamState}). Forgotten when its last stream closes.
 *
 * @param nodeId        the proxy's node id
 * @param streams       open streams with this node id
 * @param ackedVersions the snapshot version the proxy last ACKed, by type URL (one stream's when several carry
 *                      a type); kept after a later NACK (which leaves the proxy's state unknown, see
 *                      {@link SotwTypeState}), so it reads "last ACKed"
 * @param lastNack      the most recent NACK it sent on an open stream
 * @param servedVersion the version this server serves the proxy now: the snapshot's, or the version of the
 *                      proxy's own view when its streams see one proxy's scope (proxy-identity authorisation),
 *                      which differs from the snapshot's; a proxy whose ACKed versions all equal it is current.
 *                      Empty before the first snapshot
 */
public record ProxyStatus(String nodeId, int streams, SortedMap<String, String> ackedVersions,
    Optional<NackEvent> lastNack, Optional<String> servedVersion) {
  public ProxyStatus {
    Objects.requireNonNull(nodeId, "nodeId");
    ackedVersions = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(ackedVersions));
    Objects.requireNonNull(lastNack, "lastNack");
    Objects.requireNonNull(servedVersion, "servedVersion");
  }

  /** Without the served version (unknown). */
  public ProxyStatus(String nodeId, int streams, SortedMap<String, String> ackedVersions,
      Optional<NackEvent> lastNack) {
    this(nodeId, streams, ackedVersions, lastNack, Optional.empty());
  }
}
