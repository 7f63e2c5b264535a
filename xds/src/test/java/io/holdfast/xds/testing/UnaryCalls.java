package io.holdfast.xds.testing;

import io.grpc.Channel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One {@code SimpleService/UnaryRpc} call with request headers, the way the gRPC end-to-end tests make them: wait
 * for the channel to be ready (the xDS config may still be loading) within a 10 s deadline of the call's own, so
 * the behaviour under test acts well before it.
 */
public final class UnaryCalls {

  private UnaryCalls() {
  }

  /** The response message; a failed call throws {@link io.grpc.StatusRuntimeException}. */
  public static String unary(Channel channel, Map<Metadata.Key<String>, String> headers, String message) {
    Metadata metadata = new Metadata();
    headers.forEach(metadata::put);
    return SimpleServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(metadata))
        .withWaitForReady()
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .unaryRpc(SimpleRequest.newBuilder().setRequestMessage(message).build())
        .getResponseMessage();
  }
}
