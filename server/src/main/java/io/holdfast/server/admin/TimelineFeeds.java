package io.holdfast.server.admin;

import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import io.holdfast.ir.NackListener;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.admin.EventTimeline.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Listeners that write into an {@link EventTimeline}, one per source of events. Each turns the event into one
 * sentence; the page escapes it when shown.
 */
public final class TimelineFeeds {
  private TimelineFeeds() {}

  /** Leadership changes of this replica and of the observed lease holder. */
  public static LeadershipListener leadership(EventTimeline timeline) {
    Objects.requireNonNull(timeline, "timeline");
    return new LeadershipListener() {
      @Override
      public void onElected(Term term) {
        timeline.record(Kind.LEADERSHIP, "This replica became leader (term " + term + ")");
      }

      @Override
      public void onDemoted(Term term, String cause) {
        timeline.record(Kind.LEADERSHIP, "This replica stopped leading (term " + term + "): " + cause);
      }

      @Override
      public void onNewLeader(String identity) {
        timeline.record(Kind.LEADERSHIP, identity.isEmpty() ? "Nobody holds the lease"
            : "Lease holder is now " + identity);
      }
    };
  }

  /** Outages of the Kubernetes API as the config source sees them (its view turning stale and current). */
  public static KubeConfigSource.HealthListener outages(EventTimeline timeline) {
    Objects.requireNonNull(timeline, "timeline");
    return new KubeConfigSource.HealthListener() {
      @Override
      public void onStale(Instant since, String reason) {
        timeline.record(Kind.OUTAGE, "Config view went stale, serving the cached config: " + reason);
      }

      @Override
      public void onRecovered(Instant staleSince, Instant now) {
        timeline.record(Kind.OUTAGE, "Config view is current again after "
            + StatusPage.humanDuration(Duration.between(staleSince, now)));
      }
    };
  }

  /** Every NACK a proxy sent. */
  public static NackListener nacks(EventTimeline timeline) {
    Objects.requireNonNull(timeline, "timeline");
    return (NackEvent nack) -> timeline.record(Kind.NACK, (nack.nodeId().isEmpty() ? "A proxy without a node id"
        : "Proxy " + nack.nodeId()) + " rejected " + StatusPage.typeLabel(nack.typeUrl())
        + (nack.rejectedVersion().isEmpty() ? "" : " of version " + nack.rejectedVersion()) + ": "
        + nack.errorDetail());
  }

  /**
   * A listener for {@link StatusBoard#onPublish}: records each new snapshot version the board shows (a rebuild
   * with the same version is not an event). Runs on the pipeline thread only.
   */
  public static Runnable snapshots(EventTimeline timeline, StatusBoard board) {
    Objects.requireNonNull(timeline, "timeline");
    Objects.requireNonNull(board, "board");
    return new Runnable() {
      private String lastVersion;

      @Override
      public void run() {
        board.current().ifPresent(build -> {
          if (build.version().equals(lastVersion)) {
            return;
          }
          lastVersion = build.version();
          long rejected = build.statuses().values().stream()
              .filter(s -> s.state() == ResourceStatus.State.REJECTED).count();
          timeline.record(Kind.SNAPSHOT, "Serving snapshot " + build.version() + " built from "
              + plural(build.statuses().size(), "resource") + (rejected == 0 ? "" : ", " + rejected + " rejected")
              + (build.manifestErrors().isEmpty() ? "" : ", " + plural(build.manifestErrors().size(),
              "unreadable manifest")));
        });
      }
    };
  }

  private static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
