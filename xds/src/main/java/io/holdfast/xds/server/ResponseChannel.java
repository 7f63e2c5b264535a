package io.holdfast.xds.server;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * The sending side of one xDS stream. gRPC observers are not thread-safe and a stream is sent to from the
 * publishing thread and its own request thread, so every call goes through this object's monitor; after the
 * stream is closed (completed, failed or cancelled) nothing more is sent.
 */
final class ResponseChannel {

  private final ServerCallStreamObserver<Encoded> observer;
  private boolean closed;

  ResponseChannel(ServerCallStreamObserver<Encoded> observer) {
    this.observer = observer;
  }

  synchronized boolean closed() {
    return closed;
  }

  /** Queues {@code response} on the stream unless it is closed; a cancelled stream is not an error. */
  synchronized void send(Encoded response) {
    if (closed) {
      return;
    }
    try {
      observer.onNext(response);
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.CANCELLED) {
        throw e;
      }
    }
  }

  /** Ends the stream with {@code error}'s status, once. */
  synchronized void fail(Throwable error) {
    if (!closed) {
      closed = true;
      observer.onError(Status.fromThrowable(error).asException());
    }
  }

  /** Ends the stream normally, once. */
  synchronized void complete() {
    if (!closed) {
      closed = true;
      observer.onCompleted();
    }
  }

  /** The client cancelled: nothing can be sent any more. */
  synchronized void cancelled() {
    closed = true;
  }
}
