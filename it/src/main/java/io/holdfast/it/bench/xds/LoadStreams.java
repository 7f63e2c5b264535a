package io.holdfast.it.bench.xds;

import io.grpc.ManagedChannel;

/** What {@link LoadClient} needs of its streams ({@link LoadStream}, {@link LoadDeltaStream}) and they of it. */
final class LoadStreams {

  private LoadStreams() {
  }

  /** One ADS stream of either protocol. */
  interface Stream {
    int index();

    void open(ManagedChannel channel);

    /** What the stream holds of {@code type}, as a string equal across streams that hold the same. */
    String state(String type);

    void close();
  }

  /** Told about every response; runs on the stream's transport thread. */
  interface Sink {
    void onResponse(Stream stream, String typeUrl, String version, int bytes, long arrivedNanos);

    void onError(Stream stream, Throwable t);
  }

}
