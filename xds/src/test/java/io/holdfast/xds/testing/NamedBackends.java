package io.holdfast.xds.testing;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Local gRPC backends on loopback (ports chosen by the system) that answer every call, unary or streaming,
 * with their own name: what a test routes to and reads back to see where a call went.
 */
public final class NamedBackends implements AutoCloseable {
  private final Map<String, Server> servers = new LinkedHashMap<>();

  public NamedBackends(String... names) {
    try {
      for (String name : names) {
        servers.put(name, start(name));
      }
    } catch (IOException | RuntimeException e) {
      closeQuietly();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  public int port(String name) {
    Server s = servers.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no backend named " + name + " (have " + servers.keySet() + ")");
    }
    return s.getPort();
  }

  private static Server start(String name) throws IOException {
    return NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new SimpleServiceGrpc.SimpleServiceImplBase() {
          @Override
          public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            response.onCompleted();
          }

          @Override
          public void serverStreamingRpc(SimpleRequest request, StreamObserver<SimpleResponse> response) {
            response.onNext(SimpleResponse.newBuilder().setResponseMessage(name).build());
            response.onCompleted();
          }
        })
        .build()
        .start();
  }

  private void closeQuietly() {
    try {
      close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws InterruptedException {
    for (Server s : servers.values()) {
      s.shutdownNow();
      s.awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
