package io.holdfast.server.admin;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The recent events an on-call engineer reads first on the status page: leadership changes, API outages,
 * snapshot versions served, NACKs, objects newly rejected or unreadable, proxies disconnecting, builds failing. A bounded ring in memory (the oldest event goes when it is full), stamped
 * from an injected clock; fed by listeners wired in {@code HoldfastServer} (see {@link TimelineFeeds}).
 * Thread-safe: the feeding listeners run on the elector's listener thread, the kube health thread, the
 * pipeline thread and gRPC threads.
 */
public final class EventTimeline {
  /** Events kept by default: a few hours of a flapping API at one outage per minute. */
  public static final int DEFAULT_CAPACITY = 200;

  /** What an event is about; {@link #label()} is what the page shows. */
  public enum Kind {
    LEADERSHIP("Leadership"),
    OUTAGE("API outage"),
    SNAPSHOT("Snapshot"),
    NACK("NACK"),
    REJECTION("Rejected"),
    DISCONNECT("Disconnect"),
    BUILD("Build");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** One event: when, what about, and a sentence saying what happened. */
  public record Event(Instant at, Kind kind, String text) {
    public Event {
      Objects.requireNonNull(at, "at");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(text, "text");
    }
  }

  private final Clock clock;
  private final int capacity;
  private final Deque<Event> events = new ArrayDeque<>();
  private long dropped;

  public EventTimeline(Clock clock, int capacity) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
  }

  /** Records an event now (by the timeline's clock). */
  public void record(Kind kind, String text) {
    Event event = new Event(clock.instant(), kind, text);
    synchronized (events) {
      if (events.size() == capacity) {
        events.removeFirst();
        dropped++;
      }
      events.addLast(event);
    }
  }

  /** The events kept, newest first. */
  public List<Event> recent() {
    synchronized (events) {
      List<Event> out = new ArrayList<>(events);
      java.util.Collections.reverse(out);
      return out;
    }
  }

  /** How many events were dropped to keep the ring bounded. */
  public long dropped() {
    synchronized (events) {
      return dropped;
    }
  }

  /** The {@code timeline} part of {@code /state}: events newest first, as {@code at}, {@code kind}, {@code text}. */
  public List<Map<String, Object>> toState() {
    return recent().stream().map(e -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("at", e.at().toString());
      m.put("kind", e.kind().name().toLowerCase(java.util.Locale.ROOT));
      m.put("text", e.text());
      return m;
    }).toList();
  }
}
