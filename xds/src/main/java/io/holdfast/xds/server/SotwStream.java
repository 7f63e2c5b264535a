package io.holdfast.xds.server;

import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One state-of-the-world stream (ADS, or a per-type service with a fixed type). Each request is first booked by
 * {@link StreamTracker} (ACK/NACK); a request that replies to an older response than the latest sent for its
 * type is stale and opens no watch; any other replaces the type's open watch. Responses are the plan's shared
 * encoding plus this stream's nonce (a per-stream counter).
 */
final class SotwStream implements StreamObserver<DiscoveryRequest> {

  private static final Logger log = LoggerFactory.getLogger(SotwStream.class);

  /** Per type: the nonce of the latest response sent and the open watch. */
  private static final class Slot {
    volatile String latestNonce;
    WatchRegistry.SotwWatch watch;
  }

  private final boolean ads;
  private final StreamState state;
  private final WatchRegistry registry;
  private final StreamTracker tracker;
  private final ResponseChannel out;
  private final Map<String, Slot> slots = new ConcurrentHashMap<>(8);
  private long nextNonce;
  /** ADS: a CDS response went out since the last EDS one, so the next EDS request is answered in any case. */
  private volatile boolean clusterSent;

  SotwStream(boolean ads, StreamState state, WatchRegistry registry, StreamTracker tracker,
      ServerCallStreamObserver<Encoded> observer) {
    this.ads = ads;
    this.state = state;
    this.registry = registry;
    this.tracker = tracker;
    this.out = new ResponseChannel(observer, state, tracker, "SotW", this::cancelWatches);
  }

  @Override
  public void onNext(DiscoveryRequest request) {
    if (ads && request.getTypeUrl().isEmpty()) {
      out.endWithError(Status.UNKNOWN.withDescription("type URL is required for ADS").asException());
      return;
    }
    Status refused = tracker.refusal(state, request);
    if (refused != null) {
      out.endWithError(refused.asException());
      return;
    }
    tracker.sotwRequest(state, request);
    String type = state.typeOf(request.getTypeUrl());
    if (!TypeUrls.supported(type)) {
      if (state.firstUnsupported(type)) {
        log.warn("xDS request ignored: unsupported resource type: node={} stream={} type={}",
            state.nodeId(), state.id(), ClientText.token(type));
      }
      return;
    }
    Slot slot = slots.computeIfAbsent(type, t -> new Slot());
    String latest = slot.latestNonce;
    if (latest != null && !latest.equals(request.getResponseNonce())) {
      return; // a reply to a response that has been superseded: the proxy will reply to the latest one too
    }
    try {
      if (slot.watch != null) {
        registry.cancel(slot.watch);
      }
      tracker.refusedResources(state, type, registry.outOfView(state.viewer(), type,
          request.getResourceNamesList()));
      boolean forceEndpoints = ads && clusterSent && TypeUrls.ENDPOINT.equals(type);
      slot.watch = registry.watch(this, type, state.sotw(type),
          SotwQuestion.of(type, request.getResourceNamesList()), forceEndpoints, state.viewer());
    } catch (RuntimeException e) {
      log.error("xDS request ignored: opening its watch failed: stream={} type={}", state.id(),
          ClientText.token(type), e);
    }
  }

  /**
   * Sends {@code plan}, the answer for the type of {@code typeState} from the view of snapshot
   * {@code sourceVersion}; called holding the registry's lock.
   */
  void send(SotwTypeState typeState, SotwPlan plan, String sourceVersion) {
    if (out.closed()) {
      return;
    }
    String type = plan.typeUrl();
    String nonce;
    synchronized (this) {
      nonce = Long.toString(nextNonce++);
    }
    // Recorded before it is sent, so the proxy's reply always finds it.
    typeState.sent(new SotwTypeState.Sent(plan.version(), plan.key(), plan.names(), sourceVersion), nonce);
    slots.computeIfAbsent(type, t -> new Slot()).latestNonce = nonce;
    if (TypeUrls.CLUSTER.equals(type)) {
      clusterSent = true;
    } else if (TypeUrls.ENDPOINT.equals(type)) {
      clusterSent = false;
    }
    tracker.pushed(type);
    out.send(Encoded.sotw(plan, nonce));
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
    for (Slot slot : slots.values()) {
      WatchRegistry.SotwWatch watch = slot.watch;
      if (watch != null) {
        registry.cancel(watch);
      }
    }
  }
}
