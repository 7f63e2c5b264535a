package io.holdfast.it.bench.xds;

import com.google.rpc.Status;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One lightweight delta ADS client, subscribing as Envoy does: CDS and LDS wildcard, then EDS for the clusters'
 * service names and RDS for the listeners' route names (subscription changes only, as delta xDS has it). It ACKs
 * every response, or NACKs every one, and keeps what it holds (resource name to version, per type) so the final
 * state of every stream can be compared. Names and versions are interned client-wide to keep that small.
 */
final class LoadDeltaStream implements LoadStreams.Stream, StreamObserver<DeltaDiscoveryResponse> {
  private final int index;
  private final boolean nack;
  private final LoadStreams.Sink sink;
  private final Node node;
  private final Map<String, String> interned;
  private final Map<String, Set<String>> subscribed = new HashMap<>();
  private final Map<String, Map<String, String>> held = new HashMap<>();
  private final Map<String, String> lastVersion = new HashMap<>();
  private StreamObserver<DeltaDiscoveryRequest> requests;
  private volatile boolean closed;

  LoadDeltaStream(int index, boolean nack, LoadStreams.Sink sink, Map<String, String> interned) {
    this.index = index;
    this.nack = nack;
    this.sink = sink;
    this.interned = interned;
    this.node = Node.newBuilder().setId("bench-delta-" + (nack ? "nack-" : "ack-") + index).setCluster("bench").build();
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public void open(ManagedChannel channel) {
    synchronized (this) {
      requests = AggregatedDiscoveryServiceGrpc.newStub(channel).deltaAggregatedResources(this);
      send(DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(LoadStream.CDS).build());
      send(DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(LoadStream.LDS).build());
    }
  }

  @Override
  public void onNext(DeltaDiscoveryResponse response) {
    long now = System.nanoTime();
    String type = response.getTypeUrl();
    List<String> follow = null;
    synchronized (this) {
      DeltaDiscoveryRequest.Builder reply = DeltaDiscoveryRequest.newBuilder().setTypeUrl(type)
          .setResponseNonce(response.getNonce());
      if (nack) {
        reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage("bench rejects " + response.getSystemVersionInfo()));
      } else {
        Map<String, String> has = held.computeIfAbsent(type, t -> new HashMap<>());
        for (Resource r : response.getResourcesList()) {
          has.put(intern(r.getName()), intern(r.getVersion()));
        }
        response.getRemovedResourcesList().forEach(has::remove);
        lastVersion.put(type, intern(response.getSystemVersionInfo()));
        if (type.equals(LoadStream.CDS)) {
          follow = LoadStream.clusterNames(response.getResourcesList().stream().map(Resource::getResource).toList());
        } else if (type.equals(LoadStream.LDS)) {
          follow = LoadStream.routeNames(response.getResourcesList().stream().map(Resource::getResource).toList());
        }
      }
      send(reply.build());
      if (follow != null) {
        subscribe(type.equals(LoadStream.CDS) ? LoadStream.EDS : LoadStream.RDS, follow);
      }
    }
    sink.onResponse(this, type, response.getSystemVersionInfo(), response.getSerializedSize(), now);
  }

  /** Subscribes to names not yet subscribed (a grown CDS/LDS answer); never unsubscribes (the bench only adds). */
  private void subscribe(String type, List<String> wanted) {
    Set<String> have = subscribed.computeIfAbsent(type, t -> new TreeSet<>());
    List<String> add = new ArrayList<>();
    for (String name : wanted) {
      if (have.add(intern(name))) {
        add.add(name);
      }
    }
    if (!add.isEmpty()) {
      send(DeltaDiscoveryRequest.newBuilder().setNode(node).setTypeUrl(type).addAllResourceNamesSubscribe(add).build());
    }
  }

  private String intern(String s) {
    synchronized (interned) {
      return interned.computeIfAbsent(s, k -> k);
    }
  }

  @Override
  public synchronized String state(String type) {
    Map<String, String> has = held.getOrDefault(type, Map.of());
    return lastVersion.getOrDefault(type, "") + " " + has.size() + " " + new java.util.TreeMap<>(has).hashCode();
  }

  @Override
  public void onError(Throwable t) {
    if (!closed) {
      sink.onError(this, t);
    }
  }

  @Override
  public void onCompleted() {
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (requests != null) {
      requests.onCompleted();
    }
  }

  private void send(DeltaDiscoveryRequest r) {
    if (!closed) {
      requests.onNext(r);
    }
  }
}
