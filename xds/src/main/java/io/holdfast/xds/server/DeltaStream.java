package io.holdfast.xds.server;

import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One incremental (delta) stream (ADS, or a per-type service with a fixed type). Each request is booked by
 * {@link StreamTracker} and the type's {@link DeltaTypeState}; a watch is opened only while no response of the
 * type awaits a reply, so a stream has at most one response in flight per type. Responses are the resources'
 * shared entries plus this stream's own fields (version, type, removed names, nonce).
 */
final class DeltaStream implements StreamObserver<DeltaDiscoveryRequest> {

  private static final Logger log = LoggerFactory.getLogger(DeltaStream.class);

  private final boolean ads;
  private final StreamState state;
  private final WatchRegistry registry;
  private final StreamTracker tracker;
  private final ResponseChannel out;
  /** The open watch per type; replaced on requests, which gRPC delivers one at a time. */
  private final Map<String, WatchRegistry.DeltaWatch> watches = new ConcurrentHashMap<>(8);
  private long nextNonce;

  DeltaStream(boolean ads, StreamState state, WatchRegistry registry, StreamTracker tracker,
      ServerCallStreamObserver<Encoded> observer) {
    this.ads = ads;
    this.state = state;
    this.registry = registry;
    this.tracker = tracker;
    this.out = new ResponseChannel(observer, state, tracker, "delta", this::cancelWatches);
  }

  @Override
  public void onNext(DeltaDiscoveryRequest request) {
    if (ads && request.getTypeUrl().isEmpty()) {
      out.endWithError(Status.UNKNOWN.withDescription("type URL is required for ADS").asException());
      return;
    }
    Status refused = tracker.refusal(state, request);
    if (refused != null) {
      out.endWithError(refused.asException());
      return;
    }
    Reply reply = tracker.deltaRequest(state, request);
    if (reply.kind() == Reply.Kind.UNKNOWN_NONCE) {
      out.endWithError(Status.INVALID_ARGUMENT.withDescription(
          "response_nonce " + ClientText.token(request.getResponseNonce())
              + " does not name an unanswered response").asException());
      return;
    }
    String type = state.typeOf(request.getTypeUrl());
    if (!TypeUrls.supported(type)) {
      if (state.firstUnsupported(type)) {
        log.warn("xDS delta request ignored: unsupported resource type: node={} stream={} type={}",
            state.nodeId(), state.id(), ClientText.token(type));
      }
      return;
    }
    tracker.refusedResources(state, type, registry.outOfView(state.viewer(), type,
        request.getResourceNamesSubscribeList()));
    DeltaTypeState typeState = state.delta(type);
    if (typeState.awaitingReply()) {
      return; // the reply to the response in flight opens the next watch, with this request's changes applied
    }
    try {
      WatchRegistry.DeltaWatch previous = watches.get(type);
      if (previous != null) {
        registry.cancel(previous);
      }
      watches.put(type, registry.watch(this, type, typeState, TypeUrls.wildcardWhenUnnamed(type),
          state.viewer()));
    } catch (RuntimeException e) {
      log.error("xDS delta request ignored: opening its watch failed: stream={} type={}", state.id(),
          ClientText.token(type), e);
    }
  }

  /**
   * Sends {@code plan}, planned from the view {@code version} of snapshot {@code sourceVersion} (equal when the
   * stream sees everything); called holding the registry's lock.
   */
  void send(String type, DeltaTypeState typeState, DeltaTypeState.Plan plan, String version, String sourceVersion) {
    if (out.closed()) {
      return;
    }
    String nonce;
    synchronized (this) {
      nonce = Long.toString(nextNonce++);
    }
    List<byte[]> entries = new ArrayList<>(plan.resources().size());
    plan.resources().values().forEach(packed -> entries.add(packed.deltaEntry()));
    // Recorded before it is sent, so the proxy's reply always finds it.
    typeState.sent(nonce, version, plan, sourceVersion);
    tracker.pushed(type);
    out.send(Encoded.delta(type, version, nonce, entries, plan.removed()));
  }

  @Override
  public void onError(Throwable error) {
    out.endWithError(error);
  }

  @Override
  public void onCompleted() {
    out.endCompleted();
  }

  private void cancelWatches() {
    watches.values().forEach(registry::cancel);
  }
}
