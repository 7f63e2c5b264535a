package io.holdfast.xds.server;

import io.envoyproxy.envoy.service.cluster.v3.ClusterDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.AggregatedDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import io.envoyproxy.envoy.service.endpoint.v3.EndpointDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.listener.v3.ListenerDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.route.v3.RouteDiscoveryServiceGrpc;
import io.envoyproxy.envoy.service.secret.v3.SecretDiscoveryServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import java.util.ArrayList;
import java.util.List;

/**
 * Holdfast's xDS services: ADS and the per-type LDS/RDS/CDS/EDS/SDS services, each with its state-of-the-world
 * and delta method (a per-type service's stream has that type; an empty type_url in its requests means it).
 * The unary Fetch methods are unimplemented. Built from the generated service descriptors, with the response
 * marshaller swapped for {@link Encoded#MARSHALLER} so responses are written from bytes encoded once and shared.
 */
final class DiscoveryService {

  private static final MethodDescriptor.Marshaller<DiscoveryRequest> SOTW_REQUESTS =
      ProtoUtils.marshaller(DiscoveryRequest.getDefaultInstance());
  private static final MethodDescriptor.Marshaller<DeltaDiscoveryRequest> DELTA_REQUESTS =
      ProtoUtils.marshaller(DeltaDiscoveryRequest.getDefaultInstance());

  private final WatchRegistry registry;
  private final StreamTracker tracker;

  DiscoveryService(WatchRegistry registry, StreamTracker tracker) {
    this.registry = registry;
    this.tracker = tracker;
  }

  /** One definition per gRPC service, to add to a server. */
  List<ServerServiceDefinition> services() {
    return List.of(
        service(AggregatedDiscoveryServiceGrpc.getServiceDescriptor(), ""),
        service(ListenerDiscoveryServiceGrpc.getServiceDescriptor(), TypeUrls.LISTENER),
        service(RouteDiscoveryServiceGrpc.getServiceDescriptor(), TypeUrls.ROUTE),
        service(ClusterDiscoveryServiceGrpc.getServiceDescriptor(), TypeUrls.CLUSTER),
        service(EndpointDiscoveryServiceGrpc.getServiceDescriptor(), TypeUrls.ENDPOINT),
        service(SecretDiscoveryServiceGrpc.getServiceDescriptor(), TypeUrls.SECRET));
  }

  /** {@code generated}'s methods: streams served here (by their request type), anything else unimplemented. */
  @SuppressWarnings("unchecked")
  private ServerServiceDefinition service(ServiceDescriptor generated, String typeUrl) {
    boolean ads = typeUrl.isEmpty();
    var descriptor = ServiceDescriptor.newBuilder(generated.getName())
        .setSchemaDescriptor(generated.getSchemaDescriptor());
    List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
    for (MethodDescriptor<?, ?> method : generated.getMethods()) {
      Object prototype = method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> p
          ? p.getMessagePrototype() : null;
      boolean bidi = method.getType() == MethodDescriptor.MethodType.BIDI_STREAMING;
      if (bidi && prototype instanceof DiscoveryRequest) {
        MethodDescriptor<DiscoveryRequest, Encoded> sotw = ((MethodDescriptor<DiscoveryRequest, ?>) method)
            .toBuilder(SOTW_REQUESTS, Encoded.MARSHALLER).build();
        descriptor.addMethod(sotw);
        methods.add(ServerMethodDefinition.create(sotw, ServerCalls.asyncBidiStreamingCall(
            out -> new SotwStream(ads, tracker.opened(typeUrl, viewer()), registry, tracker,
                (ServerCallStreamObserver<Encoded>) out))));
      } else if (bidi && prototype instanceof DeltaDiscoveryRequest) {
        MethodDescriptor<DeltaDiscoveryRequest, Encoded> delta = ((MethodDescriptor<DeltaDiscoveryRequest, ?>) method)
            .toBuilder(DELTA_REQUESTS, Encoded.MARSHALLER).build();
        descriptor.addMethod(delta);
        methods.add(ServerMethodDefinition.create(delta, ServerCalls.asyncBidiStreamingCall(
            out -> new DeltaStream(ads, tracker.opened(typeUrl, viewer()), registry, tracker,
                (ServerCallStreamObserver<Encoded>) out))));
      } else {
        descriptor.addMethod(method);
        methods.add(unimplemented(method));
      }
    }
    var definition = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(definition::addMethod);
    return definition.build();
  }

  /**
   * The calling stream's viewer, set by {@link ProxyAuthorisation}, which every call passes through. Should a call
   * ever arrive without one, it sees nothing: a proxy name no scope has (never the whole snapshot).
   */
  private static Viewer viewer() {
    Viewer viewer = ProxyAuthorisation.VIEWER.get();
    return viewer != null ? viewer : Viewer.proxy(UNAUTHORISED);
  }

  /** A proxy name that matches no scope: Gateways' proxy names cannot contain a NUL. */
  private static final String UNAUTHORISED = "\u0000unauthorised";

  private static <Q, R> ServerMethodDefinition<Q, R> unimplemented(MethodDescriptor<Q, R> method) {
    return ServerMethodDefinition.create(method, ServerCalls.asyncUnaryCall(
        (request, response) -> ServerCalls.asyncUnimplementedUnaryCall(method, response)));
  }
}
