package io.holdfast.xds.server;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending side of one xDS stream, and its end. gRPC observers are not thread-safe and a stream is sent to
 * from the publishing thread and its own request thread, so every send goes through this object's monitor; after
 * the stream is closed (completed, failed or cancelled) nothing more is sent. Closing books the stream's end with
 * {@link StreamTracker} and cancels the stream's open watches, outside the monitor (the publisher holds the
 * registry's lock when it sends, so taking that lock under this monitor could deadlock).
 */
final class ResponseChannel {

  private static final Logger log = LoggerFactory.getLogger(ResponseChannel.class);

  private final ServerCallStreamObserver<Encoded> observer;
  private final StreamState state;
  private final StreamTracker tracker;
  private final String protocol;
  private final Runnable cancelWatches;
  private boolean closed;

  /**
   * @param protocol      "SotW" or "delta", for logs
   * @param cancelWatches cancels the stream's open watches; called once the stream has ended
   */
  ResponseChannel(ServerCallStreamObserver<Encoded> observer, StreamState state, StreamTracker tracker,
      String protocol, Runnable cancelWatches) {
    this.observer = observer;
    this.state = state;
    this.tracker = tracker;
    this.protocol = protocol;
    this.cancelWatches = cancelWatches;
    observer.setOnCancelHandler(this::cancelledByClient);
  }

  /** The client ended the stream with {@code error}, or the server refuses it: ends it with that status. */
  void endWithError(Throwable error) {
    Status status = Status.fromThrowable(error);
    if (status.getCode() != Status.Code.CANCELLED) {
      log.warn("xDS {} stream closed with error: node={} stream={} status={}", protocol, state.nodeId(), state.id(),
          status);
    }
    tracker.closed(state, status.getCode().toString());
    fail(error);
    cancelWatches.run();
  }

  /** The client completed the stream: completes it too. */
  void endCompleted() {
    tracker.closed(state, "completed");
    complete();
    cancelWatches.run();
  }

  private void cancelledByClient() {
    synchronized (this) {
      closed = true;
    }
    cancelWatches.run();
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

  private synchronized void fail(Throwable error) {
    if (!closed) {
      closed = true;
      observer.onError(Status.fromThrowable(error).asException());
    }
  }

  private synchronized void complete() {
    if (!closed) {
      closed = true;
      observer.onCompleted();
    }
  }
}
