package io.holdfast.server.admin;

import io.holdfast.api.ResourceKey;
import io.holdfast.election.LeadershipListener;
import io.holdfast.election.Term;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.ir.NackEvent;
import io.holdfast.ir.NackListener;
import io.holdfast.kube.source.KubeConfigSource;
import io.holdfast.pipeline.BuildOutcome;
import io.holdfast.pipeline.StatusBoard;
import io.holdfast.server.admin.EventTimeline.Kind;
import io.holdfast.xds.server.DisconnectListener;
import io.holdfast.xds.server.ProxyStatus;
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

  /** Newly rejected objects and newly unreadable manifests recorded per build; the rest are counted in one line. */
  static final int CHANGES_RECORDED_PER_BUILD = 5;

  /**
   * A listener for {@link StatusBoard#onPublish}: records each object that became rejected, and each manifest
   * problem that appeared, since the previous build (at most {@link #CHANGES_RECORDED_PER_BUILD} of each, so one bad
   * apply of many objects cannot push every other event out of the ring). Runs on the pipeline thread only.
   */
  public static Runnable rejections(EventTimeline timeline, StatusBoard board, ConfigState.Locations locations) {
    Objects.requireNonNull(timeline, "timeline");
    Objects.requireNonNull(board, "board");
    Objects.requireNonNull(locations, "locations");
    return new Runnable() {
      private java.util.Set<ResourceKey> rejected = java.util.Set.of();
      private java.util.Set<String> manifestErrors = java.util.Set.of();

      @Override
      public void run() {
        board.current().ifPresent(build -> {
          java.util.Set<ResourceKey> nowRejected = new java.util.TreeSet<>();
          build.statuses().forEach((key, status) -> {
            if (status.state() == ResourceStatus.State.REJECTED) {
              nowRejected.add(key);
            }
          });
          java.util.List<String> newly = nowRejected.stream().filter(k -> !rejected.contains(k))
              .map(k -> ConfigState.described(k, locations) + ": " + build.statuses().get(k).problems().stream()
                  .findFirst().map(Object::toString).orElse("no reason given"))
              .toList();
          record(Kind.REJECTION, newly, "Rejected ", "more objects rejected");
          java.util.Set<String> nowErrors = new java.util.LinkedHashSet<>();
          build.manifestErrors().forEach(e -> nowErrors.add(e.toString()));
          record(Kind.REJECTION, nowErrors.stream().filter(e -> !manifestErrors.contains(e)).toList(),
              "Unreadable manifest ", "more manifest problems");
          rejected = nowRejected;
          manifestErrors = nowErrors;
        });
      }

      private void record(Kind kind, java.util.List<String> items, String prefix, String rest) {
        items.stream().limit(CHANGES_RECORDED_PER_BUILD).forEach(i -> timeline.record(kind, prefix + i));
        if (items.size() > CHANGES_RECORDED_PER_BUILD) {
          timeline.record(kind, "And " + (items.size() - CHANGES_RECORDED_PER_BUILD) + " " + rest);
        }
      }
    };
  }

  /**
   * A listener for {@link StatusBoard#onOutcome}: records a build that failed or contained a failure of Holdfast's
   * own when the previous one did not (or failed otherwise), and the first good build after. Runs on the pipeline
   * thread only.
   */
  public static java.util.function.Consumer<BuildOutcome> builds(EventTimeline timeline) {
    Objects.requireNonNull(timeline, "timeline");
    return new java.util.function.Consumer<>() {
      private String lastProblem = "";

      @Override
      public void accept(BuildOutcome outcome) {
        String problem = outcome.problems().stream().findFirst().map(Object::toString).orElse("");
        if (problem.equals(lastProblem)) {
          return;
        }
        lastProblem = problem;
        timeline.record(Kind.BUILD, switch (outcome.verdict()) {
          case OK -> "Config builds succeed again";
          case FAILED -> "Config build failed, the previous snapshot is still served: " + problem;
          case DEGRADED -> "Config build contained a failure of Holdfast's own: " + problem;
        });
      }
    };
  }

  /** Proxies whose last stream closed, with what they last said (a NACK is named: it may concern the next one). */
  public static DisconnectListener disconnects(EventTimeline timeline) {
    Objects.requireNonNull(timeline, "timeline");
    return (ProxyStatus last) -> timeline.record(Kind.DISCONNECT, "Proxy " + last.nodeId() + " disconnected"
        + last.lastNack().map(n -> " after rejecting " + StatusPage.typeLabel(n.typeUrl())
        + (n.rejectedVersion().isEmpty() ? "" : " of version " + n.rejectedVersion()) + ": " + n.errorDetail())
        .orElse(last.ackedVersions().isEmpty() ? " before ACKing anything"
        : " (last ACKed " + String.join(", ", new java.util.TreeSet<>(last.ackedVersions().values())) + ")"));
  }

  private static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
