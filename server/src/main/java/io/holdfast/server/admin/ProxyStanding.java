package io.holdfast.server.admin;

import io.holdfast.ir.NackEvent;
import io.holdfast.xds.server.ProxyStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which connected proxies reject the version served: their latest NACK is of this version and they have not ACKed
 * this version of that type since. Whether a proxy that rejects nothing is behind cannot be told from its ACKed
 * versions: a type whose content did not change is not sent again, so its ACK keeps an older version (and a
 * proxy's scoped view has versions of its own).
 *
 * @param nacking        proxies rejecting the current version
 * @param nackingByType  how many proxies reject the current version, by the short type name of their latest NACK
 *                       ({@code Listener}); a proxy rejecting two types counts under the later one only
 */
public record ProxyStanding(List<String> nacking, Map<String, Integer> nackingByType) {
  public ProxyStanding {
    nacking = List.copyOf(nacking);
    nackingByType = Map.copyOf(nackingByType);
  }

  /** Finds the proxies rejecting {@code version} (one pass); with no version served, none. */
  public static ProxyStanding of(List<ProxyStatus> proxies, Optional<String> version) {
    List<String> nacking = new ArrayList<>();
    Map<String, Integer> byType = new TreeMap<>();
    if (version.isEmpty()) {
      return new ProxyStanding(nacking, byType);
    }
    String v = version.get();
    for (ProxyStatus proxy : proxies) {
      Optional<NackEvent> nack = proxy.lastNack().filter(n -> n.rejectedVersion().equals(v)
          && !v.equals(proxy.ackedVersions().get(n.typeUrl())));
      if (nack.isPresent()) {
        nacking.add(proxy.nodeId());
        byType.merge(shortType(nack.get().typeUrl()), 1, Integer::sum);
      }
    }
    return new ProxyStanding(nacking, byType);
  }

  /** {@code Listener} for {@code type.googleapis.com/envoy.config.listener.v3.Listener}. */
  static String shortType(String typeUrl) {
    return typeUrl.substring(typeUrl.lastIndexOf('.') + 1);
  }
}
