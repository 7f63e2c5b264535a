package io.holdfast.xds.server;

/**
 * Carries a request's {@link StreamState} from the server callback to the cache. java-control-plane calls
 * {@code onV3StreamRequest(streamId, request)} and then, on the same thread and with the same request object,
 * {@code createWatch(...)}, which gets no stream id: the callback leaves the state here and the cache takes it,
 * checking it is the same request object. At most one entry per thread is ever held.
 */
final class RequestHandoff {

  private record Entry(Object request, StreamState stream) {
  }

  private static final ThreadLocal<Entry> CURRENT = new ThreadLocal<>();

  private RequestHandoff() {
  }

  static void put(Object request, StreamState stream) {
    CURRENT.set(new Entry(request, stream));
  }

  /** The stream of {@code request} if the callback just saw this very object, else null. Clears the slot. */
  static StreamState take(Object request) {
    Entry entry = CURRENT.get();
    CURRENT.remove();
    return entry != null && entry.request() == request ? entry.stream() : null;
  }
}
