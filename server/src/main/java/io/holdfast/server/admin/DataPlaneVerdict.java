package io.holdfast.server.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The one answer the status page opens with: is the data plane safe, at risk, or broken, and why. Pure: the facts
 * in, the verdict out, by the fixed table {@link #RULES} (first the rules that make it broken, then those that put
 * it at risk; safe when none applies). {@code /state}, the page's banner and {@code holdfast status} all show this
 * verdict, so they never disagree.
 *
 * <ul>
 *   <li><b>broken</b>: proxies are, or would be, without the config they should have: no snapshot is served, a
 *       connected proxy rejects (NACKs) the current version, or a served certificate has expired.</li>
 *   <li><b>at risk</b>: proxies run, but the next change or the next proxy may not get what the operator meant:
 *       a config build failing, an unreadable manifest (its last good version served), rejected objects, a proxy
 *       that rejected the current version and disconnected, the Kubernetes API
 *       not answering (cached config served), the first listing not finished, no leader confirmed (statuses not
 *       written), a certificate close to expiry.</li>
 *   <li><b>safe</b>: none of these.</li>
 * </ul>
 */
public final class DataPlaneVerdict {
  /** A served certificate this close to its end, in days, puts the data plane at risk. */
  public static final long CERTIFICATE_WARNING_DAYS = 14;
  /** Names shown per reason: the banner is read at a glance; the sections below list them all. */
  static final int NAMES_SHOWN = 3;

  private DataPlaneVerdict() {}

  /** From best to worst. */
  public enum Level {
    SAFE("Safe"), AT_RISK("At risk"), BROKEN("Broken");

    private final String label;

    Level(String label) {
      this.label = label;
    }

    /** What the banner shows, e.g. {@code At risk}. */
    public String label() {
      return label;
    }

    /** What {@code /state} carries, e.g. {@code at-risk}. */
    public String code() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /** What this replica knows of the election, as far as the data plane's safety goes. */
  public enum Leadership {
    /** This replica leads (or is the only one): statuses are written. */
    LEADING,
    /** Another replica was seen holding the lease within the lease's duration. */
    FOLLOWING,
    /** Nobody holds the lease, or the record seen is this replica's own stale one, or it is older than the lease. */
    UNCONFIRMED,
    /** This replica has not joined the election yet. */
    STARTING
  }

  /** The Kubernetes API as the config source sees it. */
  public enum Api {
    /** File mode: there is no API. */
    NOT_USED,
    /** Kubernetes mode, nothing asked yet. */
    UNCHECKED,
    ANSWERING,
    UNREACHABLE
  }

  /**
   * Everything the verdict depends on, each list already in the order it is to be shown.
   *
   * @param currentVersion  the snapshot version served, empty when none is
   * @param proxies         connected proxies (node ids)
   * @param nacking         connected proxies whose latest answer to the current version is a NACK
   * @param nackedThenGone  proxies that NACKed the current version and have no stream open any more
   * @param rejected        rejected objects, e.g. {@code VirtualService/demo/web (web.yaml:3)}
   * @param manifestErrors  unreadable manifests, e.g. {@code web.yaml:4:7: mapping values are not allowed}
   * @param buildProblem    the last build's failure, e.g. {@code failed at stage translate: ...}; empty when it
   *                        went well
   * @param staleFor        how long the served config has gone unconfirmed by its source; empty while current
   * @param synced          every kind has been listed once (always true in file mode)
   * @param leaseHolder     the holder as last seen, with its age, e.g. {@code replica-1, seen 12s ago}; empty when
   *                        nobody holds it or there is no lease
   * @param expired         served certificates past their end
   * @param expiring        served certificates within the warning window
   * @param behind          connected proxies that have left what this replica sent them unconfirmed longer than
   *                        {@link UnconfirmedProxies#GRACE} (NACKing ones are in {@code nacking} instead)
   */
  public record Facts(Optional<String> currentVersion, List<String> proxies, List<String> nacking,
      List<String> nackedThenGone, List<String> rejected, List<String> manifestErrors,
      Optional<String> buildProblem, Api api, Optional<Duration> staleFor, boolean synced, Leadership leadership,
      Optional<String> leaseHolder, List<String> expired, List<String> expiring, List<String> behind) {
    public Facts {
      Objects.requireNonNull(currentVersion, "currentVersion");
      proxies = List.copyOf(proxies);
      nacking = List.copyOf(nacking);
      nackedThenGone = List.copyOf(nackedThenGone);
      rejected = List.copyOf(rejected);
      manifestErrors = List.copyOf(manifestErrors);
      Objects.requireNonNull(buildProblem, "buildProblem");
      Objects.requireNonNull(api, "api");
      Objects.requireNonNull(staleFor, "staleFor");
      Objects.requireNonNull(leadership, "leadership");
      Objects.requireNonNull(leaseHolder, "leaseHolder");
      expired = List.copyOf(expired);
      expiring = List.copyOf(expiring);
      behind = List.copyOf(behind);
    }

    /** A replica serving {@code version} to {@code proxies}, all of them on it, with nothing wrong. */
    public static Facts healthy(String version, List<String> proxies) {
      return new Facts(Optional.of(version), proxies, List.of(), List.of(), List.of(), List.of(),
          Optional.empty(), Api.NOT_USED, Optional.empty(), true, Leadership.LEADING, Optional.empty(), List.of(),
          List.of(), List.of());
    }
  }

  /** One reason for the verdict: how bad, a stable code for machines, and a sentence for a person. */
  public record Reason(Level level, String code, String message) {
    public Reason {
      Objects.requireNonNull(level, "level");
      Objects.requireNonNull(code, "code");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * The verdict: its level (the worst of its reasons, {@link Level#SAFE} when there are none), the reasons worst
   * first, and a one-line headline.
   */
  public record Verdict(Level level, List<Reason> reasons, String headline) {
    public Verdict {
      Objects.requireNonNull(level, "level");
      reasons = List.copyOf(reasons);
      Objects.requireNonNull(headline, "headline");
    }

    /** The {@code verdict} part of {@code /state}: {@code level}, {@code headline}, {@code reasons[]}. */
    public Map<String, Object> toState() {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("level", level.code());
      out.put("headline", headline);
      out.put("reasons", reasons.stream().map(r -> {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("level", r.level().code());
        m.put("code", r.code());
        m.put("message", r.message());
        return m;
      }).toList());
      return out;
    }
  }

  /** One row of the table: when it applies, how bad it is, and what it says. */
  record Rule(String code, Level level, Predicate<Facts> applies, Function<Facts, String> message) {
  }

  /** The table, worst first; within a level in the order an operator should look. */
  static final List<Rule> RULES = List.of(
      new Rule("NoSnapshot", Level.BROKEN, f -> f.currentVersion().isEmpty(),
          f -> "No config is served: a proxy that connects gets nothing"),
      new Rule("ProxiesNacking", Level.BROKEN, f -> !f.nacking().isEmpty(),
          f -> count(f.nacking().size(), "connected proxy rejects", "connected proxies reject") + " version "
              + version(f) + " and keep" + (f.nacking().size() == 1 ? "s" : "")
              + " running the last version accepted: " + names(f.nacking())),
      new Rule("CertificateExpired", Level.BROKEN, f -> !f.expired().isEmpty(),
          f -> count(f.expired().size(), "served certificate has", "served certificates have") + " expired: "
              + names(f.expired())),
      new Rule("BuildFailing", Level.AT_RISK, f -> f.buildProblem().isPresent(),
          f -> "The last config build " + f.buildProblem().orElseThrow()),
      new Rule("ManifestUnreadable", Level.AT_RISK, f -> !f.manifestErrors().isEmpty(),
          f -> count(f.manifestErrors().size(), "manifest problem", "manifest problems")
              + " (each file's last good version is served): " + names(f.manifestErrors())),
      new Rule("ObjectsRejected", Level.AT_RISK, f -> !f.rejected().isEmpty(),
          f -> count(f.rejected().size(), "object is", "objects are") + " rejected and not served: "
              + names(f.rejected())),
      new Rule("NackedThenGone", Level.AT_RISK, f -> !f.nackedThenGone().isEmpty(),
          f -> count(f.nackedThenGone().size(), "proxy", "proxies") + " rejected version " + version(f)
              + " and disconnected, so the next proxy may reject it too: " + names(f.nackedThenGone())),
      new Rule("ProxiesBehind", Level.AT_RISK, f -> !f.behind().isEmpty(),
          f -> count(f.behind().size(), "connected proxy has", "connected proxies have")
              + " not confirmed the config last sent to " + (f.behind().size() == 1 ? "it" : "them") + " for over "
              + UnconfirmedProxies.GRACE.toSeconds() + "s, so " + (f.behind().size() == 1 ? "it runs" : "they run")
              + " an older version: " + names(f.behind())),
      new Rule("ApiUnreachable", Level.AT_RISK, f -> f.api() == Api.UNREACHABLE,
          f -> "The Kubernetes API does not answer: serving the cached config" + f.staleFor()
              .map(d -> ", unconfirmed for " + StatusPage.humanDuration(d)).orElse("")
              + (f.leadership() == Leadership.LEADING ? "; this replica leads but cannot write statuses"
              : "; changes are not picked up")),
      new Rule("ServingSavedSnapshot", Level.AT_RISK,
          f -> f.api() != Api.UNREACHABLE && f.staleFor().isPresent(),
          f -> "Serving the snapshot saved on disk, unconfirmed by the config source for "
              + StatusPage.humanDuration(f.staleFor().orElseThrow())),
      new Rule("NotSynced", Level.AT_RISK, f -> !f.synced(),
          f -> "Not every kind has been listed from the Kubernetes API yet"),
      new Rule("NoLeader", Level.AT_RISK, f -> f.leadership() == Leadership.UNCONFIRMED,
          f -> "No replica is confirmed as leader, so no status is written to Kubernetes" + f.leaseHolder()
              .map(h -> " (lease holder as last seen: " + h + ")").orElse(" (nobody holds the lease)")),
      new Rule("CertificateExpiring", Level.AT_RISK, f -> !f.expiring().isEmpty(),
          f -> count(f.expiring().size(), "served certificate expires", "served certificates expire")
              + " soon: " + names(f.expiring())));

  /** Judges {@code facts} by {@link #RULES}. */
  public static Verdict judge(Facts facts) {
    List<Reason> reasons = new ArrayList<>();
    for (Rule rule : RULES) {
      if (rule.applies().test(facts)) {
        reasons.add(new Reason(rule.level(), rule.code(), rule.message().apply(facts)));
      }
    }
    reasons.sort(Comparator.comparing(Reason::level).reversed()); // stable: table order within a level
    Level level = reasons.isEmpty() ? Level.SAFE : reasons.get(0).level();
    return new Verdict(level, reasons, headline(facts, reasons));
  }

  /** Safe: what is fine; otherwise the level and the worst reason, and how many more there are. */
  private static String headline(Facts f, List<Reason> reasons) {
    if (reasons.isEmpty()) {
      return Level.SAFE.label() + ": " + (f.proxies().isEmpty() ? "serving version " + version(f)
          + "; no proxy is connected to this replica"
          : (f.proxies().size() == 1 ? "the connected proxy runs" : "all " + f.proxies().size()
          + " connected proxies run") + " the current version " + version(f));
    }
    Reason worst = reasons.get(0);
    return worst.level().label() + ": " + worst.message() + (reasons.size() == 1 ? ""
        : " (and " + count(reasons.size() - 1, "more problem", "more problems") + ")");
  }

  private static String version(Facts f) {
    return f.currentVersion().orElse("(none)");
  }

  private static String count(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  /** The first {@link #NAMES_SHOWN} names, then how many more. */
  private static String names(List<String> names) {
    String shown = String.join("; ", names.subList(0, Math.min(NAMES_SHOWN, names.size())));
    return names.size() <= NAMES_SHOWN ? shown : shown + "; and " + (names.size() - NAMES_SHOWN) + " more";
  }
}
