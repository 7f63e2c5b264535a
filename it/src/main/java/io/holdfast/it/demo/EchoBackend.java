package io.holdfast.it.demo;

import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC backend on loopback that answers every call of {@link #METHOD} with its own name. The method carries
 * raw bytes, so no generated stubs are needed on either side.
 */
public final class EchoBackend implements AutoCloseable {
  /** {@code holdfast.demo.Echo/Call}: unary, bytes in, the backend's name (UTF-8) out. */
  public static final MethodDescriptor<byte[], byte[]> METHOD = MethodDescriptor.<byte[], byte[]>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY)
      .setFullMethodName(MethodDescriptor.generateFullMethodName("holdfast.demo.Echo", "Call"))
      .setRequestMarshaller(BytesMarshaller.INSTANCE)
      .setResponseMarshaller(BytesMarshaller.INSTANCE)
      .build();

  private final String name;
  private final Server server;

  private EchoBackend(String name, Server server) {
    this.name = name;
    this.server = server;
  }

  /** Starts a backend named {@code name} on an ephemeral loopback port. */
  public static EchoBackend start(String name) {
    byte[] answer = name.getBytes(StandardCharsets.UTF_8);
    ServerServiceDefinition service = ServerServiceDefinition.builder("holdfast.demo.Echo")
        .addMethod(METHOD, ServerCalls.asyncUnaryCall((request, response) -> {
          response.onNext(answer);
          response.onCompleted();
        }))
        .build();
    try {
      Server server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
          .addService(service)
          .build()
          .start();
      return new EchoBackend(name, server);
    } catch (IOException e) {
      throw new UncheckedIOException("backend " + name + " could not listen", e);
    }
  }

  public String name() {
    return name;
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private enum BytesMarshaller implements MethodDescriptor.Marshaller<byte[]> {
    INSTANCE;

    @Override
    public InputStream stream(byte[] value) {
      return new ByteArrayInputStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
      try {
        return stream.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
