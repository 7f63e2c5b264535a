package io.holdfast.xds.server;

import io.envoyproxy.controlplane.server.DiscoveryServerCallbacks;
import io.envoyproxy.controlplane.server.exception.RequestException;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The discovery server's callbacks: keeps a {@link StreamState} per open stream, turns each request into
 * ACK/NACK bookkeeping before the cache sees it, records every response's nonce, and reports NACKs (counter,
 * one WARN line, {@link NackListener}). java-control-plane has no NACK callback; a NACK is a request with
 * {@code error_detail}. Never throws, except a {@link RequestException} for a delta ACK of an unknown nonce
 * (java-control-plane would fail on it with a NullPointerException).
 */
final class StreamTracker implements DiscoveryServerCallbacks {

  private static final Logger log = LoggerFactory.getLogger(StreamTracker.class);

  private final Map<Long, StreamState> streams = new ConcurrentHashMap<>();
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

  @Override
  public void onStreamOpen(long streamId, String typeUrl) {
    streams.put(streamId, new StreamState(streamId, typeUrl));
    log.debug("xDS stream opened: stream={} type={}", streamId, typeUrl.isEmpty() ? "ADS" : typeUrl);
  }

  @Override
  public void onStreamClose(long streamId, String typeUrl) {
    closed(streamId, "completed");
  }

  @Override
  public void onStreamCloseWithError(long streamId, String typeUrl, Throwable error) {
    closed(streamId, Status.fromThrowable(error).getCode().toString());
  }

  @Override
  public void onV3StreamRequest(long streamId, DiscoveryRequest request) {
    StreamState stream = stream(streamId);
    try {
      noteNode(stream, request.hasNode(), request.getNode());
      String type = stream.typeOf(request.getTypeUrl());
      if (!type.isEmpty()) { // an ADS request without a type is refused by the discovery server itself
        Reply reply = stream.sotw(type).onRequest(request);
        if (reply.kind() == Reply.Kind.NACK) {
          reportNack(stream, type, reply, request.getErrorDetail().getMessage());
        }
      }
    } catch (RuntimeException e) {
      log.error("xDS request bookkeeping failed: stream={} type={}", streamId, request.getTypeUrl(), e);
    }
    RequestHandoff.put(request, stream);
  }

  @Override
  public void onV3StreamDeltaRequest(long streamId, DeltaDiscoveryRequest request) throws RequestException {
    StreamState stream = stream(streamId);
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
      log.error("xDS delta request bookkeeping failed: stream={} type={}", streamId, request.getTypeUrl(), e);
    }
    if (reply.kind() == Reply.Kind.UNKNOWN_NONCE) {
      log.warn("xDS delta stream closed: ACK of a nonce with no unanswered response: node={} stream={} type={}"
          + " nonce={}", stream.nodeId(), streamId, TypeUrls.shortName(type), request.getResponseNonce());
      throw new RequestException(Status.INVALID_ARGUMENT.withDescription(
          "response_nonce " + request.getResponseNonce() + " does not name an unanswered response"));
    }
    RequestHandoff.put(request, stream);
  }

  @Override
  public void onV3StreamResponse(long streamId, DiscoveryRequest request, DiscoveryResponse response) {
    try {
      StreamState stream = streams.get(streamId);
      if (stream != null) {
        stream.sotw(response.getTypeUrl()).sent(request, response.getNonce(), response.getVersionInfo());
      }
      metrics.pushed(response.getTypeUrl());
    } catch (RuntimeException e) {
      log.error("xDS response bookkeeping failed: stream={} type={}", streamId, response.getTypeUrl(), e);
    }
  }

  @Override
  public void onV3StreamDeltaResponse(long streamId, DeltaDiscoveryRequest request,
      DeltaDiscoveryResponse response) {
    try {
      StreamState stream = streams.get(streamId);
      if (stream != null) {
        stream.delta(response.getTypeUrl()).sent(response);
      }
      metrics.pushed(response.getTypeUrl());
    } catch (RuntimeException e) {
      log.error("xDS delta response bookkeeping failed: stream={} type={}", streamId, response.getTypeUrl(), e);
    }
  }

  /** The state of a stream; created if the open callback was somehow missed, so a request is never dropped. */
  private StreamState stream(long streamId) {
    return streams.computeIfAbsent(streamId, id -> new StreamState(id, ""));
  }

  private void noteNode(StreamState stream, boolean hasNode, io.envoyproxy.envoy.config.core.v3.Node node) {
    if (stream.noteNode(hasNode, node)) {
      presence.opened(stream.nodeId());
    }
  }

  private void closed(long streamId, String reason) {
    StreamState stream = streams.remove(streamId);
    if (stream != null && !stream.nodeId().isEmpty()) {
      presence.closed(stream.nodeId());
    }
    if (stream != null) {
      log.debug("xDS stream closed: node={} stream={} reason={}", stream.nodeId(), streamId, reason);
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
