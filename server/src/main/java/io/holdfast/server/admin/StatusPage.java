package io.holdfast.server.admin;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The admin {@code /} page: what an on-call engineer needs during an outage, from the {@code /state} document
 * (so the two never disagree): the summary first, then this replica's election, the Kubernetes API, the snapshot,
 * the connected proxies, every resource's verdict, and the recent events. Server-rendered HTML that refreshes
 * itself (meta refresh) and needs no script; every value shown is escaped. Fields of the document it does not
 * know (added by later features) are still shown, under "Other", with their keys spelled out.
 */
final class StatusPage {
  /** Seconds between automatic reloads. */
  static final int REFRESH_SECONDS = 5;
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
      .withZone(ZoneOffset.UTC);
  /** Envoy types in the order the server pushes them, with the name the page uses. */
  private static final Map<String, String> TYPE_LABELS = orderedMap(
      "Cluster", "Clusters", "ClusterLoadAssignment", "Endpoints", "Listener", "Listeners",
      "RouteConfiguration", "Routes", "Secret", "Secrets");
  /** Top-level /state keys this page shows in its own sections; any other goes under "Other". */
  private static final Set<String> KNOWN = Set.of("identity", "role", "electionMode", "election", "kube",
      "snapshotVersion", "staleSince", "snapshotAgeSeconds", "xdsStreams", "proxies", "config", "timeline",
      "generatedAt", "certificates", "verdict");
  private static final long CERTIFICATE_WARNING_DAYS = DataPlaneVerdict.CERTIFICATE_WARNING_DAYS;

  private StatusPage() {}

  static String render(Map<String, Object> state) {
    Instant now = instant(state.get("generatedAt")).orElseGet(Instant::now);
    Page page = new Page(now);
    page.html.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta http-equiv=\"refresh\" content=\"").append(REFRESH_SECONDS).append("\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>Holdfast ").append(escape(text(state.get("identity")))).append("</title><style>")
        .append("body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}h1{margin:0 0 .3em}")
        .append("h2{margin:1.4em 0 .4em;font-size:1.15em}table{border-collapse:collapse}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}")
        .append("th{background:#f4f4f4;font-weight:600}ul{margin:0;padding-left:1.2em}.muted{color:#777}")
        .append(".summary{padding:.6em 1em;margin:.8em 0;font-size:1.1em;border-radius:4px}")
        .append(".ok{color:#070}.warn{color:#a60}.bad{color:#b00}")
        .append(".summary.ok{background:#e9f7e9}.summary.warn{background:#fff4e0}.summary.bad{background:#fde8e8}")
        .append("</style></head><body>");
    page.html.append("<h1>Holdfast <span id=\"identity\">").append(escape(text(state.get("identity"))))
        .append("</span></h1>");
    summary(page, state);
    replica(page, state);
    kubernetes(page, state);
    snapshot(page, state);
    proxies(page, state);
    resources(page, state);
    certificates(page, state);
    timeline(page, state);
    other(page, state);
    page.html.append("<p class=\"muted\">Generated ").append(escape(TIME.format(now))).append("; reloads every ")
        .append(REFRESH_SECONDS).append(" seconds. Raw data: <a href=\"/state\">/state</a> (JSON), ")
        .append("<a href=\"/metrics\">/metrics</a> (Prometheus).</p></body></html>");
    return page.html.toString();
  }

  /** The output and the instant the document was taken at (for ages). */
  private record Page(StringBuilder html, Instant now) {
    Page(Instant now) {
      this(new StringBuilder(8192), now);
    }

    Page heading(String title) {
      html.append("<h2>").append(escape(title)).append("</h2>");
      return this;
    }

    /** A row of a two-column table; {@code id} names the value cell for tests and bookmarks. */
    Page row(String label, String id, String value, String cssClass) {
      html.append("<tr><th>").append(escape(label)).append("</th><td id=\"").append(id).append("\"");
      if (cssClass != null) {
        html.append(" class=\"").append(cssClass).append("\"");
      }
      html.append(">").append(escape(value)).append("</td></tr>");
      return this;
    }

    Page row(String label, String id, String value) {
      return row(label, id, value, null);
    }

    Page empty(String id, String sentence) {
      html.append("<p id=\"").append(id).append("\" class=\"muted\">").append(escape(sentence)).append("</p>");
      return this;
    }
  }

  // ---- sections --------------------------------------------------------------------------------------

  /**
   * The verdict ({@link DataPlaneVerdict}, from {@code /state}'s {@code verdict}): its level, then every reason,
   * worst first; when safe, what is fine.
   */
  private static void summary(Page page, Map<String, Object> state) {
    Map<?, ?> verdict = map(state.get("verdict"));
    String level = verdict.get("level") == null ? "unknown" : text(verdict.get("level"));
    String cssClass = switch (level) {
      case "safe" -> "ok";
      case "broken" -> "bad";
      default -> "warn";
    };
    List<?> reasons = list(verdict.get("reasons"));
    String sentence = verdict.isEmpty() ? "Verdict unknown: this replica's state has none"
        : reasons.isEmpty() ? text(verdict.get("headline"))
        : levelLabel(level) + ": " + String.join(". ", reasons.stream().map(r -> text(map(r).get("message")))
        .toList()) + ".";
    page.html.append("<p id=\"summary\" class=\"summary ").append(cssClass).append("\" data-level=\"")
        .append(escape(level)).append("\">").append(escape(sentence)).append("</p>");
  }

  private static String levelLabel(String code) {
    for (DataPlaneVerdict.Level l : DataPlaneVerdict.Level.values()) {
      if (l.code().equals(code)) {
        return l.label();
      }
    }
    return capitalise(code);
  }

  private static void replica(Page page, Map<String, Object> state) {
    page.heading("This replica").html.append("<table>");
    String role = text(state.get("role"));
    page.row("Role", "role", capitalise(role), switch (role) {
      case "leader" -> "ok";
      case "follower", "starting" -> null;
      default -> "warn";
    });
    boolean lease = "lease".equals(state.get("electionMode"));
    page.row("Election", "election-mode", lease ? "Lease" : "Single replica (always leader)");
    Map<?, ?> election = map(state.get("election"));
    if (!election.isEmpty()) {
      page.row("Lease holder", "lease-holder", leaseHolder(election, "leader".equals(role),
          election.get("holder") != null && election.get("holder").equals(state.get("identity"))));
      page.row("Term", "term", election.get("term") == null ? "not leading" : text(election.get("term")));
      if (lease) {
        Object renew = election.get("secondsSinceRenew");
        page.row("Last lease renewal", "since-renew", renew instanceof Number n
            ? humanDuration(seconds(n)) + " ago" : "never (has not led since it started)");
        page.row("Lease transitions", "lease-transitions", election.get("leaseTransitions") == null ? "unknown"
            : text(election.get("leaseTransitions")));
        page.row("Lease watch", "lease-watch", Boolean.FALSE.equals(election.get("watchHealthy"))
            ? "not watching (polling)" : "watching", Boolean.FALSE.equals(election.get("watchHealthy")) ? "warn"
            : null);
        if (election.get("lastError") != null) {
          page.row("Last election error", "election-error", text(election.get("lastError")), "bad");
        }
      }
    }
    page.html.append("</table>");
  }

  /**
   * The holder as this replica last saw it. "This replica" only while it leads: a follower's record naming itself is
   * from before it stopped leading (an API outage), so it is shown with its age like any other.
   */
  private static String leaseHolder(Map<?, ?> election, boolean leading, boolean namesThisReplica) {
    Object holder = election.get("holder");
    if (holder == null) {
      return "nobody";
    }
    if (leading && namesThisReplica) {
      return text(holder) + " (this replica)";
    }
    Object seen = election.get("holderSeenSecondsAgo");
    return text(holder) + (seen instanceof Number n ? " as last seen " + humanDuration(seconds(n)) + " ago"
        : " as last seen") + (namesThisReplica ? " (this replica's own record; it no longer leads)" : "");
  }

  private static void kubernetes(Page page, Map<String, Object> state) {
    page.heading("Config source");
    Map<?, ?> kube = map(state.get("kube"));
    Optional<Instant> staleSince = instant(state.get("staleSince"));
    page.html.append("<table>");
    if (kube.isEmpty()) {
      page.row("Source", "source", "Files in the config directory");
    } else {
      page.row("Source", "source", "Kubernetes API");
      Object answered = kube.get("apiAnswered");
      page.row("API reachability", "api", Boolean.TRUE.equals(answered) ? "Reachable"
          : Boolean.FALSE.equals(answered) ? "Unreachable" : "Not checked yet",
          Boolean.TRUE.equals(answered) ? "ok" : Boolean.FALSE.equals(answered) ? "bad" : null);
      page.row("Last contact", "last-contact", instant(kube.get("lastContact"))
          .map(t -> ago(t, page.now())).orElse("never"));
      page.row("Initial listing", "synced", Boolean.TRUE.equals(kube.get("synced")) ? "complete"
          : "still listing");
    }
    page.row("Config staleness", "stale-for", staleSince.map(t -> "stale for "
        + humanDuration(Duration.between(t, page.now())) + " (since " + TIME.format(t) + ")")
        .orElse("current"), staleSince.isPresent() ? "warn" : "ok");
    page.html.append("</table>");
  }

  private static void snapshot(Page page, Map<String, Object> state) {
    page.heading("Snapshot").html.append("<table>");
    Object version = state.get("snapshotVersion");
    page.row("Version served", "snapshot-version", version == null ? "none yet" : text(version),
        version == null ? "bad" : null);
    Object age = state.get("snapshotAgeSeconds");
    page.row("Built", "snapshot-age", age instanceof Number n ? humanDuration(seconds(n)) + " ago"
        : version == null ? "never" : "before this replica started (loaded from disk)");
    Map<?, ?> lastBuild = map(map(state.get("config")).get("lastBuild"));
    if (!lastBuild.isEmpty()) {
      String outcome = text(lastBuild.get("outcome"));
      page.row("Last build", "last-build", switch (outcome) {
        case "ok" -> "served as given";
        case "failed" -> "failed at stage " + text(lastBuild.get("stage")) + ": " + text(lastBuild.get("message"));
        default -> "served with internal errors contained, first at stage " + text(lastBuild.get("stage")) + ": "
            + text(lastBuild.get("message"));
      }, outcome.equals("ok") ? "ok" : "bad");
    }
    page.html.append("</table>");
  }

  private static void proxies(Page page, Map<String, Object> state) {
    List<?> proxies = list(state.get("proxies"));
    page.heading("Connected proxies (" + proxies.size() + ")");
    if (proxies.isEmpty()) {
      page.empty("proxies", "No proxy is connected to this replica.");
      return;
    }
    Set<String> types = new LinkedHashSet<>(TYPE_LABELS.keySet());
    types.remove("Secret");
    proxies.forEach(p -> types.addAll(map(map(p).get("ackedVersions")).keySet().stream().map(String::valueOf)
        .toList()));
    page.html.append("<table id=\"proxies\"><tr><th>Node id</th><th>Streams</th>");
    types.forEach(t -> page.html.append("<th>").append(escape(typeLabel(t) + " ACKed")).append("</th>"));
    page.html.append("<th>Last NACK</th></tr>");
    Object current = state.get("snapshotVersion");
    List<?> sorted = proxies.stream().sorted(java.util.Comparator.comparing(
        (Object p) -> !nacksCurrent(map(p), current))).toList(); // problems first, then by node id (stable)
    for (Object p : sorted) {
      Map<?, ?> proxy = map(p);
      Map<?, ?> acked = map(proxy.get("ackedVersions"));
      page.html.append("<tr><td class=\"node\">").append(escape(text(proxy.get("nodeId")))).append("</td><td>")
          .append(escape(text(proxy.get("streams")))).append("</td>");
      types.forEach(t -> page.html.append("<td>").append(escape(acked.containsKey(t) ? text(acked.get(t)) : "—"))
          .append("</td>"));
      Map<?, ?> nack = map(proxy.get("lastNack"));
      page.html.append(nack.isEmpty() ? "<td class=\"muted\">none</td>" : "<td class=\""
          + (nacksCurrent(proxy, current) ? "bad" : "muted") + " nack\">" + escape(nackSentence(nack, page.now())
          + (nacksCurrent(proxy, current) ? "" : " (an earlier version)")) + "</td>");
      page.html.append("</tr>");
    }
    page.html.append("</table>");
  }

  /** The proxy's last NACK is of the version served, and it has not ACKed that version of that type since. */
  private static boolean nacksCurrent(Map<?, ?> proxy, Object currentVersion) {
    Map<?, ?> nack = map(proxy.get("lastNack"));
    return !nack.isEmpty() && currentVersion != null && currentVersion.equals(nack.get("version"))
        && !currentVersion.equals(map(proxy.get("ackedVersions")).get(nack.get("type")));
  }

  private static void resources(Page page, Map<String, Object> state) {
    Map<?, ?> config = map(state.get("config"));
    Map<?, ?> resources = map(config.get("resources"));
    page.heading("Resources (" + resources.size() + ")");
    if (resources.isEmpty()) {
      page.empty("resources", config.get("version") == null ? "No config has been built yet."
          : "The config has no resources.");
    } else {
      page.html.append("<table id=\"resources\"><tr><th>Resource</th><th>Verdict</th><th>Problems</th>")
          .append("<th>Proxy rejection</th></tr>");
      Set<String> connected = new java.util.HashSet<>();
      list(state.get("proxies")).forEach(p -> connected.add(text(map(p).get("nodeId"))));
      resources.entrySet().stream().sorted(java.util.Comparator.comparingInt(e -> verdictRank(map(e.getValue()))))
          .forEach(entry -> { // problems first; the document's order (by key) within a verdict
        Map<?, ?> r = map(entry.getValue());
        String verdict = text(r.get("state"));
        String cssClass = switch (verdict) {
          case "ACCEPTED" -> "ok";
          case "WARNING" -> "warn";
          default -> "bad";
        };
        String where = r.get("file") == null ? "" : " (" + text(r.get("file")) + ":" + text(r.get("line")) + ")";
        page.html.append("<tr><td class=\"resource\">").append(escape(text(entry.getKey()) + where))
            .append("</td><td class=\"").append(cssClass).append(" verdict\">").append(escape(capitalise(verdict)))
            .append("</td><td>");
        bullets(page, list(r.get("problems")).stream().map(StatusPage::problemText).toList(), "none");
        Map<?, ?> nack = map(r.get("nack"));
        boolean gone = !nack.isEmpty() && !connected.contains(text(nack.get("node")));
        page.html.append("</td><td>").append(nack.isEmpty() ? "<span class=\"muted\">none</span>"
            : "<span class=\"" + (gone ? "muted" : "bad") + "\">" + escape(nackSentence(nack, page.now())
            + (gone ? " (that proxy has since disconnected)" : "")) + "</span>").append("</td></tr>");
      });
      page.html.append("</table>");
    }
    List<?> manifestErrors = list(config.get("manifestErrors"));
    if (!manifestErrors.isEmpty()) {
      page.html.append("<h3>Unreadable manifests</h3><div id=\"manifest-errors\">");
      bullets(page, manifestErrors.stream().map(StatusPage::problemText).toList(), "none");
      page.html.append("</div>");
    }
    List<?> unattributed = list(config.get("unattributedNacks"));
    if (!unattributed.isEmpty()) {
      page.html.append("<h3>Rejections not traced to a resource</h3><div id=\"unattributed-nacks\">");
      bullets(page, unattributed, "none");
      page.html.append("</div>");
    }
  }

  private static int verdictRank(Map<?, ?> resource) {
    return switch (text(resource.get("state"))) {
      case "REJECTED" -> 0;
      case "WARNING" -> 1;
      default -> 2;
    };
  }

  /**
   * A problem object of {@code /state} as one line: a resource's ({@code field: message (Reason)}, the form the
   * page always used) or a file's, which names no object ({@code file:line:column: message}); any other value as
   * its text. Every key is present in the one problem shape, with {@code null} where unknown.
   */
  private static String problemText(Object problem) {
    if (!(problem instanceof Map<?, ?> p)) {
      return text(problem);
    }
    if (p.get("kind") == null && p.get("file") != null) {
      return text(p.get("file")) + ":" + text(p.get("line")) + ":" + text(p.get("column")) + ": "
          + text(p.get("message"));
    }
    String field = p.get("field") == null ? "" : text(p.get("field"));
    return (field.isEmpty() ? "" : field + ": ") + text(p.get("message")) + " (" + text(p.get("reason")) + ")";
  }

  private static void certificates(Page page, Map<String, Object> state) {
    List<?> certificates = list(state.get("certificates"));
    if (certificates.isEmpty()) {
      return; // no TLS served: nothing to expire
    }
    page.heading("Certificates (" + certificates.size() + ")");
    page.html.append("<table id=\"certificates\"><tr><th>Secret</th><th>Expires</th><th>Time left</th></tr>");
    for (Object c : certificates) {
      Map<?, ?> cert = map(c);
      long days = cert.get("daysLeft") instanceof Number n ? n.longValue() : Long.MAX_VALUE;
      String cssClass = days < 0 ? "bad" : days < CERTIFICATE_WARNING_DAYS ? "warn" : "ok";
      page.html.append("<tr><td>").append(escape(text(cert.get("secret")))).append("</td><td>")
          .append(escape(instant(cert.get("notAfter")).map(TIME::format).orElse(text(cert.get("notAfter")))))
          .append("</td><td class=\"").append(cssClass).append("\">")
          .append(escape(days == Long.MAX_VALUE ? "unknown" : expiry(days))).append("</td></tr>");
    }
    page.html.append("</table>");
  }

  private static String expiry(long daysLeft) {
    return daysLeft < 0 ? "expired " + -daysLeft + (daysLeft == -1 ? " day" : " days") + " ago"
        : daysLeft == 0 ? "expires within a day" : "expires in " + daysLeft + (daysLeft == 1 ? " day" : " days");
  }

  private static void timeline(Page page, Map<String, Object> state) {
    List<?> events = list(state.get("timeline"));
    page.heading("Recent events");
    if (events.isEmpty()) {
      page.empty("timeline", "Nothing has happened yet.");
      return;
    }
    page.html.append("<table id=\"timeline\"><tr><th>When</th><th>What</th><th>Details</th></tr>");
    for (Object e : events) {
      Map<?, ?> event = map(e);
      Optional<Instant> at = instant(event.get("at"));
      page.html.append("<tr><td>").append(escape(at.map(t -> ago(t, page.now())).orElse("unknown")))
          .append("</td><td class=\"kind\">").append(escape(kindLabel(text(event.get("kind")))))
          .append("</td><td>").append(escape(text(event.get("text")))).append("</td></tr>");
    }
    page.html.append("</table>");
  }

  /** Fields this page does not know yet, so a new feature's data is visible before the page learns it. */
  private static void other(Page page, Map<String, Object> state) {
    List<String> keys = state.keySet().stream().filter(k -> !KNOWN.contains(k)).sorted().toList();
    if (keys.isEmpty()) {
      return;
    }
    page.heading("Other").html.append("<table id=\"other\">");
    keys.forEach(k -> page.html.append("<tr><th>").append(escape(humanKey(k))).append("</th><td>")
        .append(escape(plain(state.get(k)))).append("</td></tr>"));
    page.html.append("</table>");
  }

  // ---- wording ---------------------------------------------------------------------------------------

  private static String nackSentence(Map<?, ?> nack, Instant now) {
    String version = text(nack.get("version"));
    String what = typeLabel(text(nack.get("type"))) + (version.isEmpty() || nack.get("version") == null ? ""
        : " version " + version);
    String node = nack.get("node") == null ? "" : " by " + text(nack.get("node"));
    String when = instant(nack.get("at")).map(t -> ", " + ago(t, now)).orElse("");
    return what + " rejected" + node + when + ": " + text(nack.get("error"));
  }

  private static void bullets(Page page, List<?> items, String whenEmpty) {
    if (items.isEmpty()) {
      page.html.append("<span class=\"muted\">").append(escape(whenEmpty)).append("</span>");
      return;
    }
    page.html.append("<ul>");
    items.forEach(i -> page.html.append("<li>").append(escape(text(i))).append("</li>"));
    page.html.append("</ul>");
  }

  /** "Listeners" for {@code Listener} or its type URL; the message name itself for a type this page does not know. */
  static String typeLabel(String typeUrlOrName) {
    String name = typeUrlOrName.substring(typeUrlOrName.lastIndexOf('.') + 1);
    return TYPE_LABELS.getOrDefault(name, name.isEmpty() ? "unknown type" : name);
  }

  private static String kindLabel(String kind) {
    for (EventTimeline.Kind k : EventTimeline.Kind.values()) {
      if (k.name().equalsIgnoreCase(kind)) {
        return k.label();
      }
    }
    return capitalise(kind);
  }

  /** {@code 0.4s}, {@code 42s}, {@code 3m 12s}, {@code 1m}, {@code 2h 5m}, {@code 3d 4h}; negative reads as 0s. */
  static String humanDuration(Duration d) {
    long millis = Math.max(0, d.toMillis());
    if (millis < 10_000) {
      return String.format(Locale.ROOT, "%.1fs", millis / 1000.0).replace(".0s", "s");
    }
    long s = millis / 1000;
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return units(s / 60, "m", s % 60, "s");
    }
    if (s < 86_400) {
      return units(s / 3600, "h", s % 3600 / 60, "m");
    }
    return units(s / 86_400, "d", s % 86_400 / 3600, "h");
  }

  /** {@code 3m 12s}, or {@code 3m} when the smaller unit is zero. */
  private static String units(long big, String bigUnit, long small, String smallUnit) {
    return big + bigUnit + (small == 0 ? "" : " " + small + smallUnit);
  }

  private static String ago(Instant t, Instant now) {
    return humanDuration(Duration.between(t, now)) + " ago (" + TIME.format(t) + ")";
  }

  /** {@code secondsSinceRenew} becomes "Seconds since renew": camelCase spelled out for a person. */
  static String humanKey(String key) {
    String spaced = key.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    return capitalise(spaced);
  }

  private static String capitalise(String s) {
    if (s.isEmpty()) {
      return s;
    }
    String lower = s.equals(s.toUpperCase(Locale.ROOT)) ? s.toLowerCase(Locale.ROOT) : s;
    return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
  }

  /** A value as a person reads it: lists joined (or "none"), maps as "key: value" pairs, nothing as "—". */
  private static String plain(Object value) {
    if (value instanceof List<?> l) {
      return l.isEmpty() ? "none" : String.join(", ", l.stream().map(StatusPage::plain).toList());
    }
    if (value instanceof Map<?, ?> m) {
      return m.isEmpty() ? "none" : String.join("; ", m.entrySet().stream()
          .map(e -> humanKey(String.valueOf(e.getKey())) + ": " + plain(e.getValue())).toList());
    }
    if (value instanceof Boolean b) {
      return b ? "yes" : "no";
    }
    return text(value);
  }

  private static String text(Object value) {
    return value == null ? "—" : String.valueOf(value);
  }

  private static Duration seconds(Number n) {
    return Duration.ofMillis(Math.round(n.doubleValue() * 1000));
  }

  private static Optional<Instant> instant(Object value) {
    if (value instanceof Instant i) {
      return Optional.of(i);
    }
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

  private static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.put(pairs[i], pairs[i + 1]);
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /** Escapes text for HTML element content and quoted attribute values. */
  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
