package io.holdfast.server.e2e;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Local gRPC backends on loopback that answer every call with their own name. */
final class Backends implements AutoCloseable {
  private final Map<String, Server> servers = new LinkedHashMap<>();

  Backends(String... names) throws IOException {
    for (String name : names) {
      Server s = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
          .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
            @Override
            public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
              response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
              response.onCompleted();
            }
          })
          .build()
          .start();
      servers.put(name, s);
    }
  }

  int port(String name) {
    return servers.get(name).getPort();
  }

  @Override
  public void close() throws InterruptedException {
    for (Server s : servers.values()) {
      s.shutdownNow();
      s.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
