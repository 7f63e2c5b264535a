package io.holdfast.server.dump;

import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.Node;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a running replica serves to node {@code nodeId}, fetched as Envoy would: one state-of-the-world ADS
 * stream asking for every cluster and listener, then for the endpoints, route configurations and secrets those
 * name, ACKing every response. Done when every question asked has had its answer (the server answers each new
 * question, a missing name simply absent), or at the deadline, with whatever arrived and the types still
 * unanswered named. The stream is closed at the end; while open it is one more proxy on the replica's page.
 */
public final class AdsDump {
  static final String CDS = Resources.V3.CLUSTER_TYPE_URL;
  static final String EDS = Resources.V3.ENDPOINT_TYPE_URL;
  static final String LDS = Resources.V3.LISTENER_TYPE_URL;
  static final String RDS = Resources.V3.ROUTE_TYPE_URL;
  static final String SDS = Resources.V3.SECRET_TYPE_URL;
  /** Names asked per type: a replica naming more in one config is hostile or broken; the rest are not asked. */
  static final int MAX_NAMES = 100_000;

  /**
   * @param resources  type URL to name to resource, as served
   * @param versions   each type's version_info
   * @param unanswered types asked for but not answered by the deadline
   * @param failure    the stream's failure, if it failed (refused, unauthenticated, unavailable)
   */
  public record Result(SortedMap<String, SortedMap<String, Message>> resources, SortedMap<String, String> versions,
      SortedSet<String> unanswered, Optional<Status> failure) {
  }

  private final Node node;
  private final Map<String, SortedMap<String, Message>> resources = new HashMap<>();
  private final Map<String, String> versions = new HashMap<>();
  /** Per type: the names last asked (empty = wildcard for LDS/CDS) and whether that question has its answer. */
  private final Map<String, SortedSet<String>> asked = new LinkedHashMap<>();
  private final Map<String, Boolean> answered = new HashMap<>();
  private final CountDownLatch done = new CountDownLatch(1);
  private ClientCallStreamObserver<DiscoveryRequest> requests;
  private Status failure;

  private AdsDump(String nodeId) {
    this.node = Node.newBuilder().setId(nodeId).setCluster("holdfast-xds-dump").build();
  }

  /** Fetches what {@code channel}'s server serves to {@code nodeId}, waiting at most {@code deadline}. */
  public static Result fetch(ManagedChannel channel, String nodeId, Duration deadline) throws InterruptedException {
    AdsDump dump = new AdsDump(Objects.requireNonNull(nodeId, "nodeId"));
    AggregatedDiscoveryServiceGrpc.newStub(channel).withDeadlineAfter(deadline.toMillis() + 1000,
        TimeUnit.MILLISECONDS).streamAggregatedResources(dump.observer());
    synchronized (dump) {
      dump.ask(CDS, new TreeSet<>());
      dump.ask(LDS, new TreeSet<>());
    }
    dump.done.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
    synchronized (dump) {
      try {
        dump.requests.onCompleted();
      } catch (IllegalStateException e) {
        // the call is over already (failed or cancelled at the deadline)
      }
      SortedMap<String, SortedMap<String, Message>> out = new TreeMap<>();
      dump.resources.forEach((type, byName) -> out.put(type, new TreeMap<>(byName)));
      SortedSet<String> unanswered = new TreeSet<>();
      dump.answered.forEach((type, yes) -> {
        if (!yes) {
          unanswered.add(type);
        }
      });
      return new Result(out, new TreeMap<>(dump.versions), unanswered, Optional.ofNullable(dump.failure));
    }
  }

  private ClientResponseObserver<DiscoveryRequest, DiscoveryResponse> observer() {
    return new ClientResponseObserver<>() {
      @Override
      public void beforeStart(ClientCallStreamObserver<DiscoveryRequest> stream) {
        requests = stream;
      }

      @Override
      public void onNext(DiscoveryResponse response) {
        synchronized (AdsDump.this) {
          onResponse(response);
        }
      }

      @Override
      public void onError(Throwable t) {
        synchronized (AdsDump.this) {
          failure = Status.fromThrowable(t);
        }
        done.countDown();
      }

      @Override
      public void onCompleted() {
        done.countDown();
      }
    };
  }

  private void onResponse(DiscoveryResponse response) {
    String type = response.getTypeUrl();
    if (!asked.containsKey(type)) {
      return; // never asked: not this dump's business
    }
    SortedMap<String, Message> byName = new TreeMap<>();
    for (Any any : response.getResourcesList()) {
      Optional<com.google.protobuf.Descriptors.Descriptor> descriptor = Redaction.descriptor(any.getTypeUrl());
      try {
        Message m = descriptor.isPresent() ? DynamicMessage.parseFrom(descriptor.get(), any.getValue()) : any;
        byName.put(name(m), m);
      } catch (InvalidProtocolBufferException e) {
        byName.put("(unreadable " + any.getTypeUrl() + " #" + byName.size() + ")", any);
      }
    }
    resources.put(type, byName);
    versions.put(type, response.getVersionInfo());
    answered.put(type, true);
    requests.onNext(request(type).setVersionInfo(response.getVersionInfo())
        .setResponseNonce(response.getNonce()).build()); // the ACK
    if (type.equals(CDS)) {
      SortedSet<String> endpoints = new TreeSet<>();
      SortedSet<String> secrets = new TreeSet<>(secretsOf(LDS));
      byName.values().forEach(c -> {
        Cluster cluster = as(c, Cluster.class);
        if (cluster != null && cluster.getType() == Cluster.DiscoveryType.EDS) {
          String service = cluster.getEdsClusterConfig().getServiceName();
          endpoints.add(service.isEmpty() ? cluster.getName() : service);
        }
        collectSecrets(c, secrets);
      });
      follow(EDS, endpoints);
      follow(SDS, secrets);
    } else if (type.equals(LDS)) {
      SortedSet<String> routes = new TreeSet<>();
      SortedSet<String> secrets = new TreeSet<>(secretsOf(CDS));
      byName.values().forEach(l -> {
        collectRoutes(l, routes);
        collectSecrets(l, secrets);
      });
      follow(RDS, routes);
      follow(SDS, secrets);
    }
    if (answered.values().stream().allMatch(Boolean::booleanValue)) {
      done.countDown();
    }
  }

  private SortedSet<String> secretsOf(String type) {
    SortedSet<String> out = new TreeSet<>();
    resources.getOrDefault(type, new TreeMap<>()).values().forEach(m -> collectSecrets(m, out));
    return out;
  }

  /** Asks for {@code names} of {@code type} unless that is the question already asked; none asked for none. */
  private void follow(String type, SortedSet<String> names) {
    SortedSet<String> capped = names.size() <= MAX_NAMES ? names
        : new TreeSet<>(names.stream().limit(MAX_NAMES).toList());
    if (capped.isEmpty() || capped.equals(asked.get(type))) {
      return;
    }
    ask(type, capped);
  }

  private void ask(String type, SortedSet<String> names) {
    asked.put(type, names);
    answered.put(type, false);
    requests.onNext(request(type).setVersionInfo(versions.getOrDefault(type, "")).build());
  }

  private DiscoveryRequest.Builder request(String type) {
    return DiscoveryRequest.newBuilder().setNode(node).setTypeUrl(type).addAllResourceNames(asked.get(type));
  }

  /** The route configuration names of a listener's connection managers (in filter chains and API listeners). */
  private static void collectRoutes(Message message, SortedSet<String> out) {
    walk(message, m -> {
      HttpConnectionManager hcm = as(m, HttpConnectionManager.class);
      if (hcm != null && hcm.hasRds() && !hcm.getRds().getRouteConfigName().isEmpty()) {
        out.add(hcm.getRds().getRouteConfigName());
      }
    }, 0);
  }

  /** The SDS secret names anywhere in a resource (transport sockets of listeners and clusters). */
  private static void collectSecrets(Message message, SortedSet<String> out) {
    walk(message, m -> {
      SdsSecretConfig sds = as(m, SdsSecretConfig.class);
      if (sds != null && !sds.getName().isEmpty()) {
        out.add(sds.getName());
      }
    }, 0);
  }

  /** Visits every message in {@code message}, packed ones ({@code Any}) opened, to {@link Redaction#MAX_DEPTH}. */
  private static void walk(Message message, java.util.function.Consumer<Message> visit, int depth) {
    if (depth > Redaction.MAX_DEPTH) {
      return;
    }
    Message m = message;
    if (m.getDescriptorForType().getFullName().equals(Any.getDescriptor().getFullName())) {
      try {
        Any any = m instanceof Any a ? a : Any.parseFrom(m.toByteString());
        Optional<com.google.protobuf.Descriptors.Descriptor> d = Redaction.descriptor(any.getTypeUrl());
        if (d.isEmpty()) {
          return;
        }
        m = DynamicMessage.parseFrom(d.get(), any.getValue());
      } catch (InvalidProtocolBufferException e) {
        return;
      }
    }
    visit.accept(m);
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      if (e.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (e.getKey().isRepeated()) {
        for (Object v : (java.util.List<?>) e.getValue()) {
          walk((Message) v, visit, depth + 1);
        }
      } else {
        walk((Message) e.getValue(), visit, depth + 1);
      }
    }
  }

  /** {@code m} as the generated {@code type} when it is one (by descriptor name); null otherwise. */
  private static <T extends Message> T as(Message m, Class<T> type) {
    try {
      Message prototype = (Message) type.getMethod("getDefaultInstance").invoke(null);
      if (!m.getDescriptorForType().getFullName().equals(prototype.getDescriptorForType().getFullName())) {
        return null;
      }
      return type.cast(type.isInstance(m) ? m : prototype.getParserForType().parseFrom(m.toByteString()));
    } catch (ReflectiveOperationException | InvalidProtocolBufferException e) {
      return null;
    }
  }

  /** A resource's {@code name} field (every xDS resource type has one; ClusterLoadAssignment's is cluster_name). */
  private static String name(Message m) {
    for (String field : new String[] {"name", "cluster_name"}) {
      FieldDescriptor f = m.getDescriptorForType().findFieldByName(field);
      if (f != null && f.getJavaType() == FieldDescriptor.JavaType.STRING) {
        return (String) m.getField(f);
      }
    }
    return "(unnamed)";
  }
}
