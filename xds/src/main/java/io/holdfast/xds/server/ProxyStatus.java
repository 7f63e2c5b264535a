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
 * @param sentVersions  the version of the last response sent, by type URL (the same stream's as
 *                      {@code ackedVersions} for a type). A type whose content did not change is not sent again,
 *                      and under proxy-identity authorisation versions are those of the proxy's own view, so the
 *                      snapshot's version says nothing of whether a proxy is in sync: equal sent and ACKed
 *                      versions for every type do
 */
public record ProxyStatus(String nodeId, int streams, SortedMap<String, String> ackedVersions,
    Optional<NackEvent> lastNack, SortedMap<String, String> sentVersions) {
  public ProxyStatus {
    Objects.requireNonNull(nodeId, "nodeId");
    ackedVersions = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(ackedVersions));
    Objects.requireNonNull(lastNack, "lastNack");
    sentVersions = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(sentVersions));
  }

  /** Without what was sent (unknown). */
  public ProxyStatus(String nodeId, int streams, SortedMap<String, String> ackedVersions,
      Optional<NackEvent> lastNack) {
    this(nodeId, streams, ackedVersions, lastNack, new TreeMap<>());
  }

  /** Every type sent something has its last response ACKed: the proxy holds what this server serves it. */
  public boolean inSync() {
    return !sentVersions.isEmpty() && sentVersions.entrySet().stream()
        .allMatch(e -> e.getValue().equals(ackedVersions.get(e.getKey())));
  }
}
