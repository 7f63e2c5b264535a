package io.holdfast.it.outage;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What happened during a scenario, in order: harness actions, replica role changes seen by polling
 * {@code /state}, accepted writes from the API's record, client failures. Rendered into the test output and into
 * {@code docs/RELIABILITY.md}.
 */
final class Timeline {
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
  private static volatile Timeline global = new Timeline();

  record Event(long millis, String source, String text) {
  }

  private final List<Event> events = new CopyOnWriteArrayList<>();

  /** The timeline harness pieces mark into; {@link #startNew()} begins a fresh one per scenario. */
  static Timeline global() {
    return global;
  }

  static Timeline startNew() {
    global = new Timeline();
    return global;
  }

  void mark(String source, String text) {
    mark(System.currentTimeMillis(), source, text);
  }

  void mark(long millis, String source, String text) {
    events.add(new Event(millis, source, text));
  }

  List<Event> events() {
    List<Event> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(Event::millis));
    return sorted;
  }

  /** First event time whose text contains {@code part}, from {@code source}; -1 if none. */
  long firstTime(String source, String part) {
    return events().stream().filter(e -> e.source().equals(source) && e.text().contains(part))
        .mapToLong(Event::millis).findFirst().orElse(-1);
  }

  /** One line per event, times relative to the first event ({@code +12.345s}). */
  String render() {
    List<Event> all = events();
    if (all.isEmpty()) {
      return "(no events)\n";
    }
    long t0 = all.get(0).millis();
    StringBuilder b = new StringBuilder();
    for (Event e : all) {
      b.append(String.format("%s  +%7.3fs  %-10s %s%n", CLOCK.format(Instant.ofEpochMilli(e.millis())),
          (e.millis() - t0) / 1000.0, e.source(), e.text()));
    }
    return b.toString();
  }
}
