package io.holdfast.it.bench.xds;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.Status;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One lightweight SotW ADS client, subscribing as Envoy does: CDS and LDS wildcard, then EDS for the clusters'
 * service names and RDS for the listeners' route names. It ACKs every response, or NACKs every one (version_info
 * = last accepted, error_detail set). Responses are handled on the transport thread, one at a time per stream;
 * what it keeps is a few strings per type.
 */
final class LoadStream implements LoadStreams.Stream, StreamObserver<DiscoveryResponse> {
  static final String CDS = Resources.V3.CLUSTER_TYPE_URL;
  static final String EDS = Resources.V3.ENDPOINT_TYPE_URL;
  static final String LDS = Resources.V3.LISTENER_TYPE_URL;
  static final String RDS = Resources.V3.ROUTE_TYPE_URL;
  static final List<String> TYPES = List.of(CDS, EDS, LDS, RDS);

  private final int index;
  private final boolean nack;
  private final LoadStreams.Sink sink;
  private final Node node;
  private final Map<String, List<String>> names = new HashMap<>();
  private final Map<String, String> accepted = new HashMap<>();
  private final Map<String, String> nonces = new HashMap<>();
  /** Per type: the last response's version and resource count, for the final check. */
  private final Map<String, String> last = new HashMap<>();
  private StreamObserver<DiscoveryRequest> requests;
  private volatile boolean closed;

  LoadStream(int index, boolean nack, LoadStreams.Sink sink) {
    this.index = index;
    this.nack = nack;
    this.sink = sink;
    this.node = Node.newBuilder().setId("bench-" + (nack ? "nack-" : "ack-") + index).setCluster("bench").build();
  }

  @Override
  public int index() {
    return index;
  }

  @Override
  public void open(ManagedChannel channel) {
    synchronized (this) {
      requests = AggregatedDiscoveryServiceGrpc.newStub(channel).streamAggregatedResources(this);
      send(request(CDS).build());
      send(request(LDS).build());
    }
  }

  @Override
  public void onNext(DiscoveryResponse response) {
    long now = System.nanoTime();
    String type = response.getTypeUrl();
    synchronized (this) {
      nonces.put(type, response.getNonce());
      DiscoveryRequest.Builder reply = request(type);
      if (nack) {
        reply.setErrorDetail(Status.newBuilder().setCode(3).setMessage("bench rejects " + response.getVersionInfo()));
      } else {
        accepted.put(type, response.getVersionInfo());
        reply.setVersionInfo(response.getVersionInfo());
      }
      last.put(type, response.getVersionInfo() + " " + response.getResourcesCount());
      send(reply.build());
      // Follow the names even when rejecting, so a NACKing stream subscribes to all four types too.
      if (type.equals(CDS)) {
        follow(EDS, clusterNames(response.getResourcesList()));
      } else if (type.equals(LDS)) {
        follow(RDS, routeNames(response.getResourcesList()));
      }
    }
    sink.onResponse(this, type, response.getVersionInfo(), response.getSerializedSize(), now);
  }

  @Override
  public synchronized String state(String type) {
    return last.getOrDefault(type, "");
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

  private void follow(String type, List<String> wanted) {
    if (!wanted.equals(names.get(type))) {
      names.put(type, wanted);
      send(request(type).build());
    }
  }

  private DiscoveryRequest.Builder request(String type) {
    return DiscoveryRequest.newBuilder()
        .setNode(node)
        .setTypeUrl(type)
        .setVersionInfo(accepted.getOrDefault(type, ""))
        .setResponseNonce(nonces.getOrDefault(type, ""))
        .addAllResourceNames(names.getOrDefault(type, List.of()));
  }

  private void send(DiscoveryRequest r) {
    if (!closed) {
      requests.onNext(r);
    }
  }

  static List<String> clusterNames(List<Any> resources) {
    TreeSet<String> out = new TreeSet<>();
    for (Any any : resources) {
      Cluster c = unpack(any, Cluster.class);
      String service = c.getEdsClusterConfig().getServiceName();
      out.add(service.isEmpty() ? c.getName() : service);
    }
    return new ArrayList<>(out);
  }

  static List<String> routeNames(List<Any> resources) {
    TreeSet<String> out = new TreeSet<>();
    for (Any any : resources) {
      Listener l = unpack(any, Listener.class);
      if (l.hasApiListener()) {
        out.add(unpack(l.getApiListener().getApiListener(), HttpConnectionManager.class).getRds().getRouteConfigName());
      }
      for (FilterChain chain : l.getFilterChainsList()) {
        for (Filter f : chain.getFiltersList()) {
          if (f.getTypedConfig().is(HttpConnectionManager.class)) {
            out.add(unpack(f.getTypedConfig(), HttpConnectionManager.class).getRds().getRouteConfigName());
          }
        }
      }
    }
    out.remove("");
    return new ArrayList<>(out);
  }

  private static <T extends com.google.protobuf.Message> T unpack(Any any, Class<T> type) {
    try {
      return any.unpack(type);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("bad " + type.getSimpleName() + " in response: " + e.getMessage(), e);
    }
  }
}
