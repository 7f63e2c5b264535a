package io.holdfast.it.outage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The accepted leader-only writes (status writes and Lease writes by Holdfast replicas) grouped into runs of one
 * writer, in the order the API received them: a description for reports. It judges nothing: a lease may
 * legitimately move A -> B -> A; whether two writers overlapped is {@link LeaseHolderAudit}'s call.
 */
record WriterRuns(List<Run> runs) {
  record Run(String writer, long firstMillis, long lastMillis, int writes) {
  }

  WriterRuns {
    runs = List.copyOf(runs);
  }

  static WriterRuns of(List<WriteRecord> record) {
    List<WriteRecord> writes = record.stream()
        .filter(w -> !w.writer().isEmpty() && w.accepted() && (w.isStatusWrite() || w.isLeaseWrite()))
        .sorted(Comparator.comparingLong(WriteRecord::startMillis))
        .toList();
    List<Run> runs = new ArrayList<>();
    for (WriteRecord w : writes) {
      Run last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
      if (last != null && last.writer().equals(w.writer())) {
        runs.set(runs.size() - 1, new Run(last.writer(), last.firstMillis(), w.endMillis(), last.writes() + 1));
      } else {
        runs.add(new Run(w.writer(), w.startMillis(), w.endMillis(), 1));
      }
    }
    return new WriterRuns(runs);
  }

  List<String> writers() {
    return runs.stream().map(Run::writer).toList();
  }

  /** Milliseconds between one run's last write and the next run's first. */
  List<Long> gaps() {
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < runs.size(); i++) {
      gaps.add(runs.get(i).firstMillis() - runs.get(i - 1).lastMillis());
    }
    return gaps;
  }
}
