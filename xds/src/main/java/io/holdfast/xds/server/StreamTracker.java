package io.holdfast.xds.server;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import io.holdfast.ir.NackEvent;
import io.holdfast.ir.NackListener;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a {@link StreamState} per open stream for {@link SotwStream} and {@link DeltaStream}: turns each request
 * into ACK/NACK bookkeeping before a watch is opened for it, counts responses, and reports NACKs (counter, one
 * WARN line, {@link NackListener}); a NACK is a request with {@code error_detail}, whose text is sanitised
 * ({@link ClientText}) before it is logged or reported. Refuses requests beyond the {@link XdsLimits} per stream
 * before anything of them is kept. Never throws.
 */
final class StreamTracker {

  private static final Logger log = LoggerFactory.getLogger(StreamTracker.class);

  private final Map<Long, StreamState> streams = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final XdsMetrics metrics;
  private final NackListener nackListener;
  private final Clock clock;
  private final ProxyPresence presence;
  private final XdsLimits limits;
  private volatile DisconnectListener disconnectListener = DisconnectListener.NONE;

  StreamTracker(XdsMetrics metrics, NackListener nackListener, Clock clock, XdsLimits limits) {
    this.limits = limits;
    this.metrics = metrics;
    this.nackListener = nackListener;
    this.clock = clock;
    this.presence = metrics.proxyPresence(clock);
  }

  /** Set once, before the server starts. */
  void disconnectListener(DisconnectListener listener) {
    this.disconnectListener = listener;
  }

  /** Open streams by node id; streams that have not sent a node id yet are not counted. */
  Map<String, Integer> connectedStreams() {
    Map<String, Integer> byNode = new TreeMap<>();
    for (StreamState stream : streams.values()) {
      if (!stream.nodeId().isEmpty()) {
        byNode.merge(stream.nodeId(), 1, Integer::sum);
      }
    }
    return Map.copyOf(byNode);
  }

  /** One entry per node id with an open stream, sorted by node id; unidentified streams are not listed. */
  List<ProxyStatus> proxies() {
    Map<String, List<StreamState>> byNode = new TreeMap<>();
    for (StreamState stream : streams.values()) {
      if (!stream.nodeId().isEmpty()) {
        byNode.computeIfAbsent(stream.nodeId(), n -> new ArrayList<>()).add(stream);
      }
    }
    List<ProxyStatus> out = new ArrayList<>(byNode.size());
    byNode.forEach((node, list) -> {
      SortedMap<String, String> acked = new TreeMap<>();
      SortedMap<String, String> sent = new TreeMap<>();
      // One stream's per type, the same stream's for both, so ACKed and sent compare like with like.
      list.forEach(stream -> {
        SortedMap<String, String> ackedHere = stream.ackedVersions();
        acked.putAll(ackedHere);
        stream.sentVersions().forEach((type, version) -> {
          sent.put(type, version);
          if (ackedHere.containsKey(type)) {
            acked.put(type, ackedHere.get(type));
          } else {
            acked.remove(type);
          }
        });
      });
      Optional<NackEvent> lastNack = list.stream().flatMap(stream -> stream.lastNack().stream())
          .max(Comparator.comparing(NackEvent::at));
      out.add(new ProxyStatus(node, list.size(), acked, lastNack, sent));
    });
    return List.copyOf(out);
  }

  int openStreams() {
    return streams.size();
  }

  /**
   * Registers a new stream; {@code defaultTypeUrl} is the type of a per-type stream, empty for ADS; {@code viewer}
   * whose view it is served.
   */
  StreamState opened(String defaultTypeUrl, Viewer viewer) {
    StreamState stream = new StreamState(ids.getAndIncrement(), defaultTypeUrl, viewer);
    streams.put(stream.id(), stream);
    log.debug("xDS stream opened: stream={} type={} proxy={}", stream.id(),
        defaultTypeUrl.isEmpty() ? "ADS" : defaultTypeUrl, ClientText.token(viewer.toString()));
    return stream;
  }

  /**
   * Null if SotW {@code request} keeps its stream within the limits; otherwise the status to close the stream with
   * (counted and logged). Called before the request is booked, so nothing of a refused request is kept.
   */
  Status refusal(StreamState stream, DiscoveryRequest request) {
    String type = stream.typeOf(request.getTypeUrl());
    // A SotW request replaces the names of its type.
    long names = (long) stream.namesTotal() - stream.names(type) + request.getResourceNamesCount();
    return refusal(stream, request.hasNode(), request.getNode(), type, names);
  }

  /**
   * Null if delta {@code request} keeps its stream within the limits; otherwise the status to close the stream
   * with (counted and logged). Called before the request is booked. Its subscriptions and initial versions are
   * counted in full and its unsubscriptions not (a name unsubscribed may not have been subscribed), so the bound
   * holds whatever the request says.
   */
  Status refusal(StreamState stream, DeltaDiscoveryRequest request) {
    String type = stream.typeOf(request.getTypeUrl());
    long names = (long) stream.namesTotal() + request.getResourceNamesSubscribeCount()
        + request.getInitialResourceVersionsCount();
    return refusal(stream, request.hasNode(), request.getNode(), type, names);
  }

  private Status refusal(StreamState stream, boolean hasNode, io.envoyproxy.envoy.config.core.v3.Node node,
      String type, long namesAfter) {
    Refusal reason = null;
    String detail = "";
    if (hasNode && (node.getId().length() > limits.maxNodeIdLength()
        || node.getCluster().length() > limits.maxNodeIdLength())) {
      reason = Refusal.NODE_ID_TOO_LONG;
      detail = "node id (" + node.getId().length() + " chars) or cluster (" + node.getCluster().length()
          + " chars) longer than " + limits.maxNodeIdLength();
    } else if (hasNode && ClientText.hasControl(node.getId())) {
      reason = Refusal.NODE_ID_INVALID;
      detail = "node id contains control characters";
    } else if (type.length() > ClientText.MAX_TOKEN_LENGTH) {
      reason = Refusal.TYPE_URL_TOO_LONG;
      detail = "type URL of " + type.length() + " chars, longer than " + ClientText.MAX_TOKEN_LENGTH;
    } else if (!type.isEmpty() && !stream.knowsType(type) && stream.typeCount() >= Refusal.MAX_TYPES_PER_STREAM) {
      reason = Refusal.TOO_MANY_TYPES;
      detail = "more than " + Refusal.MAX_TYPES_PER_STREAM + " resource types on one stream";
    } else if (namesAfter > limits.maxNamesPerStream()) {
      reason = Refusal.TOO_MANY_NAMES;
      detail = namesAfter + " resource names on one stream, more than " + limits.maxNamesPerStream();
    }
    if (reason == null) {
      return null;
    }
    metrics.refused(reason);
    log.warn("xDS stream refused: over a limit: node={} stream={} reason={} detail=\"{}\"", stream.nodeId(),
        stream.id(), reason.label(), detail);
    return Status.fromCode(reason.code()).withDescription(reason.label() + ": " + detail);
  }

  /** A SotW request: node id, then ACK/NACK bookkeeping for its type (NACKs reported). Never throws. */
  void sotwRequest(StreamState stream, DiscoveryRequest request) {
    try {
      noteNode(stream, request.hasNode(), request.getNode());
      String type = stream.typeOf(request.getTypeUrl());
      if (!type.isEmpty()) {
        Reply reply = stream.sotw(type).onRequest(request);
        stream.names(type, request.getResourceNamesCount());
        if (reply.kind() == Reply.Kind.NACK) {
          reportNack(stream, type, reply, request.getErrorDetail().getMessage());
        }
      }
    } catch (RuntimeException e) {
      log.error("xDS request bookkeeping failed: stream={} type={}", stream.id(),
          ClientText.token(request.getTypeUrl()), e);
    }
  }

  /**
   * A delta request: node id, then bookkeeping for its type (NACKs reported). Never throws; returns
   * {@link Reply.Kind#UNKNOWN_NONCE} (logged) for an ACK of a nonce with no unanswered response, which the
   * caller answers by closing the stream.
   */
  Reply deltaRequest(StreamState stream, DeltaDiscoveryRequest request) {
    Reply reply = Reply.OK;
    String type = "";
    try {
      noteNode(stream, request.hasNode(), request.getNode());
      type = stream.typeOf(request.getTypeUrl());
      if (!type.isEmpty()) {
        reply = stream.delta(type).onRequest(request);
        stream.names(type, stream.delta(type).subscribedCount());
        if (reply.kind() == Reply.Kind.NACK) {
          reportNack(stream, type, reply, request.getErrorDetail().getMessage());
        }
      }
    } catch (RuntimeException e) {
      log.error("xDS delta request bookkeeping failed: stream={} type={}", stream.id(),
          ClientText.token(request.getTypeUrl()), e);
    }
    if (reply.kind() == Reply.Kind.UNKNOWN_NONCE) {
      log.warn("xDS delta stream closed: ACK of a nonce with no unanswered response: node={} stream={} type={}"
          + " nonce={}", stream.nodeId(), stream.id(), ClientText.token(TypeUrls.shortName(type)),
          ClientText.token(request.getResponseNonce()));
    }
    return reply;
  }

  /** Counts names asked for outside the stream's scope ({@link WatchRegistry#outOfView}). */
  void refusedResources(StreamState stream, String typeUrl, int count) {
    if (count > 0) {
      metrics.refusedResources(typeUrl, count);
      log.debug("xDS names outside the proxy's scope answered as absent: node={} stream={} proxy={} type={}"
          + " names={}", stream.nodeId(), stream.id(), ClientText.token(stream.viewer().toString()),
          TypeUrls.shortName(typeUrl), count);
    }
  }

  /** Counts a response sent. */
  void pushed(String typeUrl) {
    metrics.pushed(typeUrl);
  }

  private void noteNode(StreamState stream, boolean hasNode, io.envoyproxy.envoy.config.core.v3.Node node) {
    if (stream.noteNode(hasNode, node)) {
      presence.opened(stream.nodeId());
    }
  }

  /** Forgets a closed stream; {@code reason} is "completed" or the gRPC status code. Idempotent. */
  void closed(StreamState stream, String reason) {
    if (streams.remove(stream.id(), stream)) {
      if (!stream.nodeId().isEmpty()) {
        presence.closed(stream.nodeId());
        reportIfLastStream(stream);
      }
      log.debug("xDS stream closed: node={} stream={} reason={}", stream.nodeId(), stream.id(), reason);
    }
  }

  /** Tells the listener when {@code closed} was its node's last open stream, with that stream's last word. */
  private void reportIfLastStream(StreamState closed) {
    for (StreamState other : streams.values()) {
      if (other.nodeId().equals(closed.nodeId())) {
        return;
      }
    }
    try {
      disconnectListener.onDisconnected(new ProxyStatus(closed.nodeId(), 0, closed.ackedVersions(),
          closed.lastNack()));
    } catch (RuntimeException e) {
      log.warn("DisconnectListener failed: node={}", closed.nodeId(), e);
    }
  }

  private void reportNack(StreamState stream, String type, Reply reply, String clientDetail) {
    String errorDetail = ClientText.detail(clientDetail);
    metrics.nacked(type);
    var event = new NackEvent(stream.nodeId(), type, reply.rejectedVersion(), reply.rejectedNames(), errorDetail,
        clock.instant());
    stream.noteNack(event);
    log.warn("xDS NACK: proxy rejected a response, not resending it until the snapshot changes: node={} "
            + "stream={} type={} rejectedVersion={} resources={} error=\"{}\"",
        event.nodeId(), stream.id(), ClientText.token(TypeUrls.shortName(type)), event.rejectedVersion(), event.resourceNames(),
        errorDetail);
    try {
      nackListener.onNack(event);
    } catch (RuntimeException e) {
      log.warn("NackListener failed on a NACK event: node={} type={}", event.nodeId(), type, e);
    }
  }
}
