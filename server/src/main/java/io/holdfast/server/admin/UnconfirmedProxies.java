package io.holdfast.server.admin;

import io.holdfast.xds.server.ProxyStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which connected proxies are behind: they have left a response this replica sent them unanswered (neither ACK
 * nor NACK) for longer than {@link #GRACE}, without a break. The snapshot's version cannot tell (a type whose
 * content did not change is not sent again, and a scoped proxy's view has versions of its own), so behind means
 * "some type's last sent version is not its last ACKed one" ({@link ProxyStatus#inSync()}).
 *
 * <p>Every proxy is briefly behind during each update, so only one that stays so past the grace counts. The state
 * is one start time per proxy seen behind, updated when the verdict is judged (each page or {@code /state}
 * request); it holds at most one entry per connected proxy, as entries of proxies in sync or gone are dropped on
 * each call.
 */
public final class UnconfirmedProxies {
  /**
   * Longer than Envoy takes to apply an update, cluster and listener warming included (it waits for endpoints,
   * routes and secrets before it answers), and shorter than the 60 s after which an operator expects a change
   * to have landed.
   */
  public static final Duration GRACE = Duration.ofSeconds(30);

  private final Map<String, Instant> behindSince = new HashMap<>();

  /**
   * The proxies behind for longer than {@link #GRACE} at {@code now}, sorted; those in {@code nacking} are left
   * to the NACK rule.
   */
  public synchronized List<String> behind(List<ProxyStatus> proxies, Set<String> nacking, Instant now) {
    Set<String> seen = new HashSet<>();
    List<String> out = new ArrayList<>();
    for (ProxyStatus proxy : proxies) {
      if (proxy.sentVersions().isEmpty() || proxy.inSync() || nacking.contains(proxy.nodeId())) {
        continue;
      }
      seen.add(proxy.nodeId());
      Instant since = behindSince.computeIfAbsent(proxy.nodeId(), id -> now);
      if (Duration.between(since, now).compareTo(GRACE) > 0) {
        out.add(proxy.nodeId());
      }
    }
    behindSince.keySet().retainAll(seen);
    return out.stream().sorted().distinct().toList();
  }
}
