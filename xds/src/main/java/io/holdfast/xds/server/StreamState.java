package io.holdfast.xds.server;

import io.envoyproxy.envoy.config.core.v3.Node;
import io.holdfast.ir.NackEvent;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One open xDS stream: its node id (from the first request that carries one) and per-type protocol state.
 * Created by {@link StreamTracker} when the stream opens, used by the stream and its watches,
 * dropped when the stream closes. Thread-safe.
 */
final class StreamState {

  private final long id;
  private final String defaultTypeUrl;
  private final Viewer viewer;
  private volatile String nodeId = "";
  private final Map<String, SotwTypeState> sotw = new ConcurrentHashMap<>();
  private final Map<String, DeltaTypeState> delta = new ConcurrentHashMap<>();
  private final Set<String> reportedUnsupported = ConcurrentHashMap.newKeySet();
  private volatile NackEvent lastNack;
  /** Resource names subscribed per type (see {@link XdsLimits#maxNamesPerStream()}); one entry per type seen. */
  private final Map<String, Integer> names = new ConcurrentHashMap<>();

  /**
   * @param id             the stream id (unique per server)
   * @param defaultTypeUrl the type of a per-type stream; empty for ADS
   * @param viewer         whose view of the snapshot the stream is served
   */
  StreamState(long id, String defaultTypeUrl, Viewer viewer) {
    this.id = id;
    this.defaultTypeUrl = defaultTypeUrl;
    this.viewer = viewer;
  }

  Viewer viewer() {
    return viewer;
  }

  long id() {
    return id;
  }

  String nodeId() {
    return nodeId;
  }

  /**
   * Envoy may send the node on the first request only, so the first non-empty id sticks.
   *
   * @return true if this request made the node id known
   */
  boolean noteNode(boolean hasNode, Node node) {
    if (hasNode && nodeId.isEmpty() && !node.getId().isEmpty()) {
      nodeId = node.getId();
      return true;
    }
    return false;
  }

  /** The request's type URL, or the stream's own type when a per-type stream leaves it empty. */
  String typeOf(String requestTypeUrl) {
    return requestTypeUrl.isEmpty() ? defaultTypeUrl : requestTypeUrl;
  }

  /** True the first time this stream asks for {@code typeUrl} that cannot be served, so it is logged once. */
  boolean firstUnsupported(String typeUrl) {
    return reportedUnsupported.add(typeUrl);
  }

  /** The last NACK this stream sent, if any. */
  Optional<NackEvent> lastNack() {
    return Optional.ofNullable(lastNack);
  }

  void noteNack(NackEvent nack) {
    lastNack = nack;
  }

  /** The version the proxy last ACKed, by type URL, for the types it has ACKed something of on this stream. */
  SortedMap<String, String> ackedVersions() {
    SortedMap<String, String> out = new TreeMap<>();
    sotw.forEach((type, state) -> Optional.ofNullable(state.ackedVersion()).ifPresent(v -> out.put(type, v)));
    delta.forEach((type, state) -> Optional.ofNullable(state.ackedVersion()).ifPresent(v -> out.put(type, v)));
    return out;
  }

  /** The version of the last response sent, by type URL, for the types sent something on this stream. */
  SortedMap<String, String> sentVersions() {
    SortedMap<String, String> out = new TreeMap<>();
    sotw.forEach((type, state) -> Optional.ofNullable(state.sentVersion()).ifPresent(v -> out.put(type, v)));
    delta.forEach((type, state) -> Optional.ofNullable(state.sentVersion()).ifPresent(v -> out.put(type, v)));
    return out;
  }

  /** Names subscribed across types; the types with state are those with an entry. */
  int namesTotal() {
    int total = 0;
    for (int n : names.values()) {
      total += n;
    }
    return total;
  }

  int names(String typeUrl) {
    return names.getOrDefault(typeUrl, 0);
  }

  /** True if this stream has kept state for {@code typeUrl}. */
  boolean knowsType(String typeUrl) {
    return names.containsKey(typeUrl);
  }

  int typeCount() {
    return names.size();
  }

  void names(String typeUrl, int count) {
    names.put(typeUrl, count);
  }

  SotwTypeState sotw(String typeUrl) {
    return sotw.computeIfAbsent(typeUrl, t -> new SotwTypeState());
  }

  DeltaTypeState delta(String typeUrl) {
    return delta.computeIfAbsent(typeUrl, t -> new DeltaTypeState());
  }
}
