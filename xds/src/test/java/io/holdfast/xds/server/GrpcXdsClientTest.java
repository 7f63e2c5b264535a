package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.ads;
import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.endpoints;
import static io.holdfast.xds.server.Fixtures.route;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import io.envoyproxy.envoy.config.listener.v3.ApiListener;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.Rds;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.holdfast.xds.testing.GrpcXdsClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's own xDS client (a real third-party client, SotW ADS) resolves {@code xds:///svc.test} from our
 * server and routes a call to a local backend. Own class: the inline bootstrap is a JVM-wide system property.
 */
class GrpcXdsClientTest {

  private static Server backend;
  private static ServerHarness harness;
  private static GrpcXdsClient client;

  @BeforeAll
  static void start() throws IOException {
    backend = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage("hello " + request.getRequestMessage())
                .build());
            response.onCompleted();
          }
        })
        .build()
        .start();
    harness = new ServerHarness();
    harness.cache.setSnapshot(snapshot(apiListener("svc.test", "route-svc"), route("route-svc", "cluster-svc"),
        edsCluster("cluster-svc"), endpoints("cluster-svc", backend.getPort())));
    client = GrpcXdsClient.bootstrap(harness.port(), "grpc-client-1", "holdfast-test");
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    if (harness != null) {
      harness.close();
    }
    if (backend != null) {
      backend.shutdownNow();
      backend.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** A client-side (api_listener) listener whose HCM takes routes over ADS and ends with the Router. */
  private static Listener apiListener(String name, String routeName) {
    var hcm = HttpConnectionManager.newBuilder()
        .setRds(Rds.newBuilder().setConfigSource(ads()).setRouteConfigName(routeName))
        .addHttpFilters(HttpFilter.newBuilder()
            .setName("envoy.filters.http.router")
            .setTypedConfig(Any.pack(Router.getDefaultInstance())))
        .build();
    return Listener.newBuilder()
        .setName(name)
        .setApiListener(ApiListener.newBuilder().setApiListener(Any.pack(hcm)))
        .build();
  }

  @Test
  void grpcXdsClientResolvesAndRoutesACallThroughOurServer() throws InterruptedException {
    ManagedChannel channel = client.channel("svc.test");
    try {
      SimpleResponse response = SimpleServiceGrpc.newBlockingStub(channel)
          .withDeadlineAfter(20, TimeUnit.SECONDS)
          .withWaitForReady()
          .unaryRpc(SimpleRequest.newBuilder().setRequestMessage("xds").build());
      assertThat(response.getResponseMessage()).isEqualTo("hello xds");
      assertThat(harness.nacks).as("grpc-java accepted every resource").isEmpty();
      assertThat(harness.server.connectedStreams()).containsEntry("grpc-client-1", 1);
    } finally {
      channel.shutdownNow();
      channel.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
