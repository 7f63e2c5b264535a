package io.holdfast.testkit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Checks the election's promise against what the API actually received: every leader-only write must come from the
 * replica that held the Lease at the moment the API received it. A replica's leader-only writes are all its writes
 * but those to the Lease: statuses, through a {@code /status} subresource or, for Gloo Edge's kinds (no such
 * subresource), through a PUT of the whole object; the record says which entries are which
 * ({@link ApiWrite#auditEntry}). The holder timeline is built from the successful Lease writes in the same record,
 * never from what replicas say about themselves.
 *
 * <p>Pure: give it the record as entries (any source: the in-process {@link MockKubeApi}, a process's record
 * file) and it returns the violations. Entries are ordered by {@code receivedAt}; entries with equal times keep
 * their order in the list (give them in the order the API handled them). One Lease is assumed.
 */
public final class FencingAudit {

  /** A Lease write, or a leader-only write (a status, however it is written). */
  public enum Kind { LEASE, STATUS }

  /**
   * One write as the API received it.
   *
   * @param receivedAt when the API received it, on one clock for the whole record (any unit, e.g. nanos)
   * @param writer     the identity of the replica that sent it
   * @param holder     for a Lease write, the holder it sets ({@code ""} for a release); ignored for leader-only writes
   * @param applied    whether the API accepted it (a 2xx answer)
   */
  public record Entry(long receivedAt, String writer, Kind kind, String holder, boolean applied) {
    public Entry {
      Objects.requireNonNull(writer, "writer");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(holder, "holder");
    }
  }

  /** Who held the Lease from {@code from} on ({@code ""}: nobody), by the API's record. */
  public record Holding(long from, String holder) {}

  /**
   * A leader-only write whose writer did not hold the Lease when the API received it; {@code holder} is who did
   * ({@code ""}: nobody). Rejected writes count too: the replica had no right to send them.
   */
  public record Violation(Entry write, String holder) {}

  private FencingAudit() {
  }

  /** The holder timeline: one change per applied Lease write that set a different holder. */
  public static List<Holding> timeline(List<Entry> record) {
    List<Holding> out = new ArrayList<>();
    String current = "";
    for (Entry e : sorted(record)) {
      if (e.kind() == Kind.LEASE && e.applied() && !e.holder().equals(current)) {
        current = e.holder();
        out.add(new Holding(e.receivedAt(), current));
      }
    }
    return out;
  }

  /** Every leader-only write in {@code record} that reached the API while its writer was not the holder. */
  public static List<Violation> violations(List<Entry> record) {
    List<Violation> out = new ArrayList<>();
    String holder = "";
    for (Entry e : sorted(record)) {
      if (e.kind() == Kind.LEASE) {
        if (e.applied()) {
          holder = e.holder();
        }
      } else if (!e.writer().equals(holder)) {
        out.add(new Violation(e, holder));
      }
    }
    return out;
  }

  private static List<Entry> sorted(List<Entry> record) {
    List<Entry> copy = new ArrayList<>(record);
    copy.sort(Comparator.comparingLong(Entry::receivedAt)); // stable: ties keep the given order
    return copy;
  }
}
