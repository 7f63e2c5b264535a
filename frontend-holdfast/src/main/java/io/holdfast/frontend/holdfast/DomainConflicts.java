package io.holdfast.frontend.holdfast;

import io.holdfast.api.Gateway;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.VirtualService;
import io.holdfast.ir.Claims;
import io.holdfast.ir.Claims.Claim;
import io.holdfast.ir.Claims.Loss;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two VirtualServices conflict on a domain only where they meet in one Envoy route configuration: the one HTTP
 * filter chain of a plain-HTTP (or gRPC-server) Gateway that serves both ({@link Serving#serves}). On an HTTPS
 * Gateway each VirtualService has a TLS chain and a route configuration of its own, so there they meet on server
 * names only ({@code DuplicateSniDomain}, {@link TlsRules}). On each such Gateway the oldest keeps the domain
 * ({@link Claims}: a loser holds none of its domains there). A loser still served cleanly by another Gateway is
 * only left out of the Gateways it lost on, with a warning per Gateway (as Contour and Gateway API contain a
 * conflict on the parent where it happens); a loser served nowhere else is rejected.
 *
 * <p>Proxyless gRPC clients ask for a domain by name ({@code xds:///domain}), and a name is one listener in the
 * snapshot whichever proxies it is served to, so every accepted VirtualService claims its non-wildcard domains for
 * gRPC clients, each on its own: the oldest keeps the client listener ({@link #grpcLosses}), and a younger one is
 * served to Envoy as usual and warned that gRPC clients of that domain get the older one.
 *
 * <p>Bound: VirtualServices are grouped by domain first, and only those sharing a domain with another one are
 * looked at per Gateway, so the work is the domains listed plus the Gateways' references (a named selection), or
 * Gateways x VirtualServices sharing a domain (a rule; testing the Gateways' rules already costs as much).
 */
final class DomainConflicts {

  private DomainConflicts() {
  }

  /**
   * Settles the domains of the served VirtualServices on the served Gateways, reporting in {@code ledger}.
   *
   * @return per Gateway, the VirtualServices it must leave out (losers still served elsewhere)
   */
  static Map<ResourceKey, Set<ResourceKey>> settle(List<VirtualService> candidates, List<Gateway> gateways,
      Ledger ledger) {
    List<VirtualService> sharing = sharingADomain(candidates);
    Map<ResourceKey, Set<ResourceKey>> pruned = new HashMap<>();
    if (sharing.isEmpty()) {
      return pruned;
    }
    // Per VirtualService: how many Gateways serve it, and its losses on those with one route configuration.
    Map<ResourceKey, VirtualService> pool = new LinkedHashMap<>();
    sharing.forEach(vs -> pool.put(vs.key(), vs));
    Map<ResourceKey, Integer> servedBy = new HashMap<>();
    Map<ResourceKey, Lost> losses = new LinkedHashMap<>();
    for (Gateway gateway : gateways) { // bounded by the Gateways x (their references, or those sharing a domain)
      List<VirtualService> served = Serving.served(gateway, pool);
      served.forEach(vs -> servedBy.merge(vs.key(), 1, Integer::sum));
      if (gateway.ssl() || served.size() < 2) {
        continue; // one TLS chain, and one route configuration, per VirtualService
      }
      List<Claim<String>> claims = served.stream()
          .map(vs -> new Claim<>(Conflicts.claimant(vs), vs.domains())).toList();
      Set<ResourceKey> losers = new HashSet<>();
      for (Loss<String> loss : Claims.settleEqual(claims)) {
        // The first loss is enough: the loser holds no domain on this Gateway.
        if (losers.add(loss.loser().key())) {
          losses.computeIfAbsent(loss.loser().key(), k -> new Lost()).add(gateway, loss);
        }
      }
    }
    losses.forEach((key, lost) -> {
      int elsewhere = servedBy.getOrDefault(key, 0) - lost.gateways.size();
      for (Reported reported : lost.reported) {
        Loss<String> loss = reported.loss();
        String message = "domain \"" + loss.value() + "\" is already served by " + loss.winner().key()
            + ", which is older, on " + reported.gateway() + " (one route configuration holds a domain once)";
        String field = "spec.domains[" + loss.index() + "]";
        if (elsewhere > 0) {
          ledger.warn(key, field, Reasons.DUPLICATE_DOMAIN, message + "; not served there, still served by its"
              + " other Gateways");
        } else {
          ledger.error(key, field, Reasons.DUPLICATE_DOMAIN, message + (lost.gateways.size() > 1
              ? "; so on " + (lost.gateways.size() - 1) + " more Gateway(s) serving it" : ""));
          break; // one error says why it is not served
        }
      }
      if (elsewhere > 0) {
        if (lost.gateways.size() > lost.reported.size()) {
          ledger.warn(key, "spec.domains", Reasons.DUPLICATE_DOMAIN, "not served on "
              + (lost.gateways.size() - lost.reported.size()) + " more Gateway(s) for the same reason");
        }
        lost.gateways.forEach(gateway -> pruned.computeIfAbsent(gateway, k -> new HashSet<>()).add(key));
      }
    });
    return pruned;
  }

  /**
   * Findings a VirtualService gets for the Gateways it lost a domain on: the rest are counted in one more, so a
   * VirtualService thousands of Gateways serve does not get a finding for each.
   */
  static final int MAX_REPORTED_LOSSES = 8;

  private record Reported(ResourceKey gateway, Loss<String> loss) {
  }

  /** One VirtualService's losses: every Gateway it lost on, and the first few losses to report. */
  private static final class Lost {
    final List<ResourceKey> gateways = new ArrayList<>();
    final List<Reported> reported = new ArrayList<>();

    void add(Gateway gateway, Loss<String> loss) {
      gateways.add(gateway.key());
      if (reported.size() < MAX_REPORTED_LOSSES) {
        reported.add(new Reported(gateway.key(), loss));
      }
    }
  }

  /** The candidates that list a domain some other candidate lists too, in their given order. */
  private static List<VirtualService> sharingADomain(List<VirtualService> candidates) {
    Map<String, List<VirtualService>> byDomain = new HashMap<>();
    for (VirtualService vs : candidates) { // bounded by the domains the candidates list
      for (String domain : new LinkedHashSet<>(vs.domains())) {
        byDomain.computeIfAbsent(domain, d -> new ArrayList<>()).add(vs);
      }
    }
    Set<ResourceKey> shared = new HashSet<>();
    byDomain.values().stream().filter(group -> group.size() > 1)
        .forEach(group -> group.forEach(vs -> shared.add(vs.key())));
    return candidates.stream().filter(vs -> shared.contains(vs.key())).toList();
  }

  /** A non-wildcard domain a VirtualService does not serve to gRPC clients, and who does. */
  record GrpcLoss(ResourceKey loser, String domain, int index, ResourceKey winner) {
  }

  /**
   * The gRPC client listeners the accepted {@code virtualServices} leave to an older one: each non-wildcard
   * domain is claimed on its own, the oldest claimant keeps it. Lowering drops these listeners; validation warns.
   */
  static List<GrpcLoss> grpcLosses(List<VirtualService> virtualServices) {
    List<Claim<String>> claims = new ArrayList<>();
    Map<String, List<VirtualService>> byDomain = new HashMap<>();
    Map<ResourceKey, VirtualService> byKey = new HashMap<>();
    for (VirtualService vs : virtualServices) { // bounded by the domains they list
      byKey.put(vs.key(), vs);
      for (String domain : new LinkedHashSet<>(vs.grpcDomains())) {
        byDomain.computeIfAbsent(domain, d -> new ArrayList<>()).add(vs);
      }
    }
    byDomain.forEach((domain, group) -> {
      if (group.size() > 1) {
        group.forEach(vs -> claims.add(new Claim<>(Conflicts.claimant(vs), List.of(domain))));
      }
    });
    List<GrpcLoss> out = new ArrayList<>();
    for (Loss<String> loss : Claims.settleEqual(claims)) {
      VirtualService loser = byKey.get(loss.loser().key());
      out.add(new GrpcLoss(loser.key(), loss.value(), loser.domains().indexOf(loss.value()), loss.winner().key()));
    }
    return out;
  }

  /** A VirtualService's claim on the gRPC client listener of one domain. */
  record GrpcTarget(ResourceKey virtualService, String domain) {
  }

  /** The gRPC client listeners {@link #grpcLosses} leaves to an older VirtualService. */
  static Set<GrpcTarget> leftToOlder(List<VirtualService> virtualServices) {
    Set<GrpcTarget> out = new HashSet<>();
    grpcLosses(virtualServices).forEach(loss -> out.add(new GrpcTarget(loss.loser(), loss.domain())));
    return out;
  }

  /** Warns each VirtualService that leaves a domain's gRPC clients to an older one. */
  static void warnGrpc(List<VirtualService> virtualServices, Ledger ledger) {
    for (GrpcLoss loss : grpcLosses(virtualServices)) {
      ledger.warn(loss.loser(), "spec.domains[" + loss.index() + "]", Reasons.DUPLICATE_DOMAIN, "gRPC clients"
          + " asking for xds:///" + loss.domain() + " get " + loss.winner() + ", which is older and serves the"
          + " same domain; this VirtualService serves it to Envoy only");
    }
  }
}
