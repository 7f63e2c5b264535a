package io.holdfast.it.outage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Judges leader-only writes against who held the Lease, both read off the emulated API's write record: the
 * holder timeline comes from the accepted Lease writes (each sets the holder its body names; "" = released or
 * deleted),
 * and a <em>violation</em> is a status write the API received while its writer was not the holder. This is
 * the overlap that matters: two replicas writing statuses in the same term. A lease that legitimately moves
 * A → B → A is no violation, however the writers' runs interleave; a write by A that lands after A released
 * the lease, or after B took it, is one, whatever its response code (it was sent on a fence that had closed).
 *
 * <p>A Lease write takes effect from the moment the API began handling it: a status write received at the
 * same millisecond as a takeover by someone else counts against its writer (the strict reading).
 */
final class LeaseHolderAudit {
  /** {@code holder} ("" for none) holds the Lease from {@code fromMillis} until the next tenure. */
  record Tenure(String holder, long fromMillis) {
  }

  /** A status write received while {@code holder} held the Lease; {@code sinceChangeMs} after it changed. */
  record Violation(WriteRecord write, String holder, long sinceChangeMs) {
    @Override
    public String toString() {
      return "status write by " + write.writer() + " (HTTP " + write.code() + ") received while "
          + (holder.isEmpty() ? "nobody" : holder) + " held the lease, " + sinceChangeMs + " ms after it changed";
    }
  }

  private final List<Tenure> tenures;
  private final List<WriteRecord> statusWrites;

  private LeaseHolderAudit(List<Tenure> tenures, List<WriteRecord> statusWrites) {
    this.tenures = List.copyOf(tenures);
    this.statusWrites = List.copyOf(statusWrites);
  }

  static LeaseHolderAudit of(List<WriteRecord> record) {
    List<WriteRecord> leaseWrites = record.stream().filter(w -> w.isLeaseWrite() && w.accepted())
        .sorted(Comparator.comparingLong(WriteRecord::startMillis)).toList();
    List<Tenure> tenures = new ArrayList<>();
    for (WriteRecord w : leaseWrites) {
      String holder = w.method().equals("DELETE") ? "" : w.holderSet();
      if (tenures.isEmpty() || !tenures.get(tenures.size() - 1).holder().equals(holder)) {
        tenures.add(new Tenure(holder, w.startMillis()));
      }
    }
    List<WriteRecord> statuses = record.stream().filter(w -> w.isStatusWrite() && !w.writer().isEmpty())
        .sorted(Comparator.comparingLong(WriteRecord::startMillis)).toList();
    return new LeaseHolderAudit(tenures, statuses);
  }

  /** Every change of holder, in order (consecutive renewals by one holder are one tenure). */
  List<Tenure> timeline() {
    return tenures;
  }

  /** The tenure in effect at {@code millis}; a "" holder from time 0 when no Lease write came before it. */
  Tenure tenureAt(long millis) {
    Tenure current = new Tenure("", 0);
    for (Tenure t : tenures) {
      if (t.fromMillis() > millis) {
        break;
      }
      current = t;
    }
    return current;
  }

  List<WriteRecord> statusWrites() {
    return statusWrites;
  }

  List<Violation> violations() {
    List<Violation> out = new ArrayList<>();
    for (WriteRecord w : statusWrites) {
      Tenure t = tenureAt(w.startMillis());
      if (!t.holder().equals(w.writer())) {
        out.add(new Violation(w, t.holder(), w.startMillis() - t.fromMillis()));
      }
    }
    return out;
  }

  /** The first tenure of someone other than {@code holder} that began at or after {@code sinceMillis}. */
  Optional<Tenure> nextHolderAfter(String holder, long sinceMillis) {
    return tenures.stream().filter(t -> t.fromMillis() >= sinceMillis && !t.holder().isEmpty()
        && !t.holder().equals(holder)).findFirst();
  }

  /** The holders in order, e.g. {@code r3 -> (released) -> r1}, for reports. */
  String describe() {
    return tenures.isEmpty() ? "(no lease writes)" : String.join(" -> ", tenures.stream()
        .map(t -> t.holder().isEmpty() ? "(released)" : t.holder()).toList());
  }
}
