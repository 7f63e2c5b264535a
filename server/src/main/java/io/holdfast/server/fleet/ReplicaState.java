package io.holdfast.server.fleet;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code holdfast status} reads from one replica's {@code /state}. Tolerant by design: replicas of another
 * version may lack a field or have one more; a missing or mistyped field reads as unknown (empty, null in the
 * optional sense), never as an error, so one odd replica cannot hide the rest of the fleet.
 *
 * @param identity           the replica's identity ({@code --identity}, the pod name)
 * @param role               {@code leader}, {@code follower}, {@code starting}, {@code stopped}; empty if unknown
 * @param electionMode       {@code lease} or {@code single-replica}; empty if unknown
 * @param leaseHolder        the lease holder as this replica last saw it (its own record, maybe stale)
 * @param snapshotVersion    the version it serves; empty when it serves nothing
 * @param snapshotAge        since the served snapshot was built here; empty if loaded from disk or unknown
 * @param staleFor           how long its config has been unconfirmed by its source (by its own clock); empty if fresh
 * @param apiAnswered        whether the Kubernetes API answered it last time; empty in file mode or unknown
 * @param sinceApiContact    since its last contact with the API; empty if never or file mode
 * @param lastBuildOutcome   {@code ok}, {@code degraded}, {@code failed}; empty if no build yet
 * @param lastBuildMessage   the first problem of the last build, if any
 * @param proxies            the proxies connected to it
 * @param rejected           its rejected resources with their problems
 * @param manifestErrors     manifests it could not read, as {@code file:line:column: reason}
 * @param verdict            the replica's own verdict when its {@code /state} has one ({@code verdict} object)
 */
public record ReplicaState(String identity, String role, String electionMode, Optional<String> leaseHolder,
    Optional<String> snapshotVersion, Optional<Duration> snapshotAge, Optional<Duration> staleFor,
    Optional<Boolean> apiAnswered, Optional<Duration> sinceApiContact, Optional<String> lastBuildOutcome,
    Optional<String> lastBuildMessage, List<Proxy> proxies, List<Rejection> rejected, List<String> manifestErrors,
    Optional<OwnVerdict> verdict) {

  /**
   * Proxies and rejected resources read per replica: a {@code /state} listing more is cut there, with a line
   * saying so, so the report of a whole fleet stays one screen per replica at worst.
   */
  public static final int MAX_LISTED = 500;

  public ReplicaState {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(electionMode, "electionMode");
    proxies = List.copyOf(proxies);
    rejected = List.copyOf(rejected);
    manifestErrors = List.copyOf(manifestErrors);
  }

  /**
   * A proxy connected to the replica.
   *
   * @param ackedVersions the version it last ACKed, by short type name ({@code Listener}); sorted
   * @param lastNack      its most recent NACK on an open stream
   * @param sentVersions  the version of the last response the replica sent it, by short type name; empty from a
   *                      replica that does not say. A type whose content did not change is not sent again, and
   *                      under proxy-identity authorisation versions are the proxy's own view's, so only these,
   *                      never the snapshot's version, tell whether the proxy holds what it is served
   */
  public record Proxy(String nodeId, int streams, Map<String, String> ackedVersions, Optional<Nack> lastNack,
      Map<String, String> sentVersions) {
    public Proxy {
      ackedVersions = Collections.unmodifiableMap(new java.util.TreeMap<>(ackedVersions));
      sentVersions = Collections.unmodifiableMap(new java.util.TreeMap<>(sentVersions));
    }

    /** Types whose last response is not ACKed (sent and ACKed versions differ); empty when in sync or unknown. */
    public java.util.SortedSet<String> pending() {
      java.util.SortedSet<String> out = new java.util.TreeSet<>();
      sentVersions.forEach((type, version) -> {
        if (!version.equals(ackedVersions.get(type))) {
          out.add(type);
        }
      });
      return out;
    }

    /** Whether it ACKed every response sent it; empty when the replica does not say what it sent. */
    public Optional<Boolean> inSync() {
      return sentVersions.isEmpty() ? Optional.empty() : Optional.of(pending().isEmpty());
    }
  }

  /** A rejected response: of {@code type}, {@code version}, with Envoy's {@code error}. */
  public record Nack(String type, String version, String error, Optional<Instant> at) {
  }

  /** A resource the replica rejected, with its problems as one line each. */
  public record Rejection(String resource, List<String> problems) {
    public Rejection {
      problems = List.copyOf(problems);
    }
  }

  /**
   * The replica's own verdict ({@code /state}'s {@code verdict} object: {@code level}, {@code reasons[]} each with
   * its own {@code level}, {@code code} and {@code message}).
   */
  public record OwnVerdict(Verdict verdict, List<Reason> reasons) {
    public OwnVerdict {
      reasons = List.copyOf(reasons);
    }
  }

  /** One reason of a replica's own verdict, at its own level (the verdict's when it gives none). */
  public record Reason(Verdict level, String text) {
  }

  /** Reads a parsed {@code /state} document (a JSON object as maps, lists, strings, numbers, booleans). */
  public static ReplicaState of(Map<?, ?> state) {
    Optional<Instant> generatedAt = instant(state.get("generatedAt"));
    Map<?, ?> election = map(state.get("election"));
    Map<?, ?> kube = map(state.get("kube"));
    Map<?, ?> config = map(state.get("config"));
    Map<?, ?> lastBuild = map(config.get("lastBuild"));
    Optional<Duration> staleFor = instant(state.get("staleSince"))
        .map(since -> Duration.between(since, generatedAt.orElse(since)));
    List<Proxy> proxies = new ArrayList<>();
    for (Object p : first(list(state.get("proxies")))) {
      Map<?, ?> proxy = map(p);
      proxies.add(new Proxy(string(proxy.get("nodeId")).orElse("(no node id)"), integer(proxy.get("streams")),
          versions(proxy.get("ackedVersions")), nack(proxy.get("lastNack")), versions(proxy.get("sentVersions"))));
    }
    List<Rejection> rejected = new ArrayList<>();
    for (Map.Entry<?, ?> r : map(config.get("resources")).entrySet()) {
      Map<?, ?> resource = map(r.getValue());
      if ("REJECTED".equals(resource.get("state")) && rejected.size() < MAX_LISTED) {
        // Where it was declared, when the replica says (file mode): "Upstream/demo/a (upstreams.yaml:7)".
        String at = string(resource.get("file")).map(f -> " (" + f + (resource.get("line") instanceof Number n
            ? ":" + n : "") + ")").orElse("");
        rejected.add(new Rejection(r.getKey() + at,
            list(resource.get("problems")).stream().map(ReplicaState::line).toList()));
      }
    }
    return new ReplicaState(string(state.get("identity")).orElse(""), string(state.get("role")).orElse(""),
        string(state.get("electionMode")).orElse(""), string(election.get("holder")),
        string(state.get("snapshotVersion")), seconds(state.get("snapshotAgeSeconds")), staleFor,
        state.get("kube") == null || !(kube.get("apiAnswered") instanceof Boolean b) ? Optional.empty()
            : Optional.of(b),
        seconds(kube.get("secondsSinceContact")), string(lastBuild.get("outcome")),
        string(lastBuild.get("message")), proxies, rejected,
        first(list(config.get("manifestErrors"))).stream().map(ReplicaState::line).toList(),
        ownVerdict(state.get("verdict")));
  }

  /** Whether it says it leads now (not what others think). */
  public boolean leads() {
    return role.equals("leader");
  }

  /** The replica's identity, or {@code fallback} (its address) when it gave none. */
  public String name(String fallback) {
    return identity.isEmpty() ? fallback : identity;
  }

  /** A map of short type name to version; entries that are not strings are left out. */
  private static Map<String, String> versions(Object value) {
    Map<String, String> out = new LinkedHashMap<>();
    map(value).forEach((type, version) -> {
      if (type instanceof String t && version instanceof String v) {
        out.put(t, v);
      }
    });
    return out;
  }

  private static Optional<OwnVerdict> ownVerdict(Object value) {
    Map<?, ?> v = map(value);
    Optional<Verdict> verdict = Verdict.parse(v.get("state")).or(() -> Verdict.parse(v.get("level")))
        .or(() -> Verdict.parse(v.get("verdict"))).or(() -> Verdict.parse(v.get("status")))
        .or(() -> Verdict.parse(value));
    if (verdict.isEmpty()) {
      return Optional.empty();
    }
    Object reasons = v.get("reasons") != null ? v.get("reasons") : v.get("problems");
    List<Reason> out = new ArrayList<>();
    for (Object r : first(list(reasons))) {
      Verdict level = Verdict.parse(map(r).get("level")).orElse(verdict.get());
      out.add(new Reason(level, line(r)));
    }
    return Optional.of(new OwnVerdict(verdict.get(), out));
  }

  private static Optional<Nack> nack(Object value) {
    Map<?, ?> n = map(value);
    if (n.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Nack(string(n.get("type")).orElse("?"), string(n.get("version")).orElse("?"),
        string(n.get("error")).orElse(""), instant(n.get("at"))));
  }

  /**
   * One line for a problem given as a string, or as an object (a newer replica's shape): its location, reason
   * and message, whichever it has.
   */
  static String line(Object problem) {
    if (!(problem instanceof Map<?, ?> m)) {
      return String.valueOf(problem);
    }
    StringBuilder out = new StringBuilder();
    Optional<String> file = string(m.get("file")).or(() -> string(m.get("source")));
    file.ifPresent(f -> out.append(f).append(m.get("line") instanceof Number n ? ":" + n : "").append(": "));
    string(m.get("field")).ifPresent(f -> out.append(f).append(": "));
    string(m.get("reason")).ifPresent(r -> out.append(r).append(": "));
    out.append(string(m.get("message")).or(() -> string(m.get("text"))).orElse(""));
    String text = out.toString().replaceAll(": $", "");
    return text.isEmpty() ? String.valueOf(problem) : text;
  }

  private static List<?> first(List<?> items) {
    return items.size() <= MAX_LISTED ? items : items.subList(0, MAX_LISTED);
  }

  private static Optional<String> string(Object value) {
    return value instanceof String s && !s.isEmpty() ? Optional.of(s)
        : value instanceof Number n ? Optional.of(n.toString()) : Optional.empty();
  }

  private static int integer(Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }

  private static Optional<Duration> seconds(Object value) {
    return value instanceof Number n && Double.isFinite(n.doubleValue()) && n.doubleValue() >= 0
        ? Optional.of(Duration.ofMillis(Math.round(n.doubleValue() * 1000))) : Optional.empty();
  }

  private static Optional<Instant> instant(Object value) {
    if (value instanceof String s) {
      try {
        return Optional.of(Instant.parse(s));
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> m ? m : Map.of();
  }

  private static List<?> list(Object value) {
    return value instanceof List<?> l ? l : List.of();
  }
}
