package io.holdfast.xds.server;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
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
 * WARN line, {@link NackListener}); a NACK is a request with {@code error_detail}. Never throws.
 */
final class StreamTracker {

  private static final Logger log = LoggerFactory.getLogger(StreamTracker.class);

  private final Map<Long, StreamState> streams = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();
  private final XdsMetrics metrics;
  private final NackListener nackListener;
  private final Clock clock;
  private final ProxyPresence presence;

  StreamTracker(XdsMetrics metrics, NackListener nackListener, Clock clock) {
    this.metrics = metrics;
    this.nackListener = nackListener;
    this.clock = clock;
    this.presence = metrics.proxyPresence(clock);
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
      list.forEach(stream -> acked.putAll(stream.ackedVersions()));
      Optional<NackEvent> lastNack = list.stream().flatMap(stream -> stream.lastNack().stream())
          .max(Comparator.comparing(NackEvent::at));
      out.add(new ProxyStatus(node, list.size(), acked, lastNack));
    });
    return List.copyOf(out);
  }

  int openStreams() {
    return streams.size();
  }

  /** Registers a new stream; {@code defaultTypeUrl} is the type of a per-type stream, empty for ADS. */
  StreamState opened(String defaultTypeUrl) {
    StreamState stream = new StreamState(ids.getAndIncrement(), defaultTypeUrl);
    streams.put(stream.id(), stream);
    log.debug("xDS stream opened: stream={} type={}", stream.id(), defaultTypeUrl.isEmpty() ? "ADS" : defaultTypeUrl);
    return stream;
  }

  /** A SotW request: node id, then ACK/NACK bookkeeping for its type (NACKs reported). Never throws. */
  void sotwRequest(StreamState stream, DiscoveryRequest request) {
    try {
      noteNode(stream, request.hasNode(), request.getNode());
      String type = stream.typeOf(request.getTypeUrl());
      if (!type.isEmpty()) {
        Reply reply = stream.sotw(type).onRequest(request);
        if (reply.kind() == Reply.Kind.NACK) {
          reportNack(stream, type, reply, request.getErrorDetail().getMessage());
        }
      }
    } catch (RuntimeException e) {
      log.error("xDS request bookkeeping failed: stream={} type={}", stream.id(), request.getTypeUrl(), e);
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
        if (reply.kind() == Reply.Kind.NACK) {
          reportNack(stream, type, reply, request.getErrorDetail().getMessage());
        }
      }
    } catch (RuntimeException e) {
      log.error("xDS delta request bookkeeping failed: stream={} type={}", stream.id(), request.getTypeUrl(), e);
    }
    if (reply.kind() == Reply.Kind.UNKNOWN_NONCE) {
      log.warn("xDS delta stream closed: ACK of a nonce with no unanswered response: node={} stream={} type={}"
          + " nonce={}", stream.nodeId(), stream.id(), TypeUrls.shortName(type), request.getResponseNonce());
    }
    return reply;
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
      }
      log.debug("xDS stream closed: node={} stream={} reason={}", stream.nodeId(), stream.id(), reason);
    }
  }

  private void reportNack(StreamState stream, String type, Reply reply, String errorDetail) {
    metrics.nacked(type);
    var event = new NackEvent(stream.nodeId(), type, reply.rejectedVersion(), reply.rejectedNames(), errorDetail,
        clock.instant());
    stream.noteNack(event);
    log.warn("xDS NACK: proxy rejected a response, not resending it until the snapshot changes: node={} "
            + "stream={} type={} rejectedVersion={} resources={} error=\"{}\"",
        event.nodeId(), stream.id(), TypeUrls.shortName(type), event.rejectedVersion(), event.resourceNames(),
        errorDetail);
    try {
      nackListener.onNack(event);
    } catch (RuntimeException e) {
      log.warn("NackListener failed on a NACK event: node={} type={}", event.nodeId(), type, e);
    }
  }
}
