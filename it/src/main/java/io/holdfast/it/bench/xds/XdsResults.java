package io.holdfast.it.bench.xds;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Everything the xDS benchmark measured, for {@link XdsMarkdown}. */
final class XdsResults {

  /**
   * One control plane with {@code streams} ACKing ADS streams of one protocol taking a series of snapshot changes.
   *
   * @param protocol       "SotW" or "delta"
   * @param repetition     1-based repetition of this configuration in the run
   * @param lastMs         per change: setSnapshot to the last stream having every changed type
   * @param medianMs       per change: setSnapshot to the median stream having every changed type
   * @param timeouts       changes some stream never completed within the bound
   * @param openMs         child start to every stream having all four types
   * @param heapPerStream  server heap growth from opening the streams, after full GCs, divided by streams
   * @param serverCpuMs    server JVM CPU over all changes
   * @param clientCpuMs    load-client JVM CPU over all changes
   * @param errors         streams that failed
   * @param bytes          response bytes (serialized messages plus gRPC headers) over the measured changes
   * @param mismatch       null if every stream ended holding the same complete state, else what differed
   */
  record FanOutRun(String target, String protocol, int repetition, int streams, int connections, List<Double> lastMs,
      List<Double> medianMs, int timeouts, double openMs, double heapPerStream, double serverCpuMs,
      double clientCpuMs, long errors, long bytes, String mismatch) {

    /** Measured changes made (a run ends early after repeated timeouts). */
    int changes() {
      return lastMs.size() + timeouts;
    }

    double serverCpuPerChangePer1000() {
      return serverCpuMs / Math.max(1, changes()) / (streams / 1000.0);
    }

    double bytesPerChangePerStream() {
      return bytes / (double) Math.max(1, changes()) / streams;
    }
  }

  /**
   * One control plane with NACK-everything streams: responses in a window with no change, then in a window
   * starting with one change.
   */
  record NackRun(String target, int streams, Duration window, long quietResponses, long afterChangeResponses,
      double quietServerCpuMs, double afterChangeServerCpuMs, long errors) {
    double quietPerSecond() {
      return quietResponses * 1000.0 / window.toMillis();
    }
  }

  final List<FanOutRun> fanOut = new CopyOnWriteArrayList<>();
  final List<NackRun> nack = new CopyOnWriteArrayList<>();
  final List<String> problems = new CopyOnWriteArrayList<>();
  String snapshotDescription = "";
  String changeDescription = "";
  int changedTypes;
}
