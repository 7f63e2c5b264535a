package io.holdfast.frontend.holdfast;

import com.google.common.net.InetAddresses;
import io.holdfast.api.Cidr;
import io.holdfast.api.Reasons;
import io.holdfast.api.RouteAction;
import io.holdfast.api.SecurityChecks;
import io.holdfast.api.TcpGateway;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A TcpGateway's own rules; its upstream references are resolved by {@link Validator}. Two hosts of one gateway
 * that would take the same connections (one SNI name on both, or two hosts without SNI names) reject the whole
 * gateway, naming the earlier host: Envoy refuses such a listener, and rejecting the object (rather than
 * dropping one host) keeps its last accepted version serving every host until the edit is fixed. A host that
 * terminates TLS ({@code sslConfig}) is selected by the host's own {@code sniDomains}; server names in its
 * {@code sslConfig} would be a second, contradicting list and are refused ({@code ConflictingFields}). Its TLS
 * material is checked by {@link Validator} ({@link TlsRules}, {@link ConsentRules}).
 */
final class TcpGatewayRules {

  /** A filter chain name: also part of the chain's stat prefix, so kept to a DNS label. */
  private static final Pattern HOST_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private TcpGatewayRules() {
  }

  static void check(TcpGateway gateway, Ledger.Sink sink) {
    MetadataRules.check(gateway.metadata(), sink);
    MetadataRules.checkPort(gateway.port(), "spec.port", sink);
    if (!Syntax.isIpAddress(gateway.bindAddress())) {
      sink.error("spec.bindAddress", Reasons.INVALID_ADDRESS,
          "\"" + gateway.bindAddress() + "\" is not an IP address");
    }
    if (gateway.hosts().isEmpty()) {
      sink.error("spec.hosts", Reasons.MISSING_FIELD, "at least one host is required");
    }
    Map<String, Integer> names = new HashMap<>();
    // Per set of client networks (as written): hosts with different source ranges match different connections.
    Map<Set<String>, Map<String, Integer>> sniOwners = new HashMap<>();
    Map<Set<String>, Integer> defaultHosts = new HashMap<>();
    for (int i = 0; i < gateway.hosts().size(); i++) {
      TcpGateway.Host host = gateway.hosts().get(i);
      String field = "spec.hosts[" + i + "]";
      if (host.name().length() > 63 || !HOST_NAME.matcher(host.name()).matches()) {
        sink.error(field + ".name", Reasons.INVALID_NAME, "\"" + host.name()
            + "\" is not a valid host name (lower case letters, digits and '-', at most 63 characters)");
      } else {
        Integer earlier = names.putIfAbsent(host.name(), i);
        if (earlier != null) {
          sink.error(field + ".name", Reasons.DUPLICATE_HOST,
              "host name \"" + host.name() + "\" is already used by spec.hosts[" + earlier + "]");
        }
      }
      Set<String> sources = checkSourceRanges(host.sourcePrefixRanges(), field, sink);
      if (host.isDefault()) {
        Integer defaultHost = defaultHosts.putIfAbsent(sources, i);
        if (defaultHost != null) {
          sink.error(field + ".sniDomains", Reasons.DUPLICATE_HOST, "spec.hosts[" + defaultHost
              + "] already takes every connection without a matching SNI name"
              + (sources.isEmpty() ? "" : " from these source ranges") + "; give this host sniDomains");
        }
      }
      checkSniDomains(host, field, i, sniOwners.computeIfAbsent(sources, k -> new HashMap<>()), sink);
      host.sslConfig().flatMap(io.holdfast.api.SslConfig::sniDomains).filter(sni -> !sni.isEmpty())
          .ifPresent(sni -> sink.error(field + ".sslConfig.sniDomains", Reasons.CONFLICTING_FIELDS,
              "a TCP host is selected by its own sniDomains (" + field + ".sniDomains); do not list server names"
              + " in its sslConfig"));
      checkDestination(host.destination(), field, sink);
    }
  }

  private static void checkSniDomains(TcpGateway.Host host, String field, int index, Map<String, Integer> owners,
      Ledger.Sink sink) {
    Set<String> own = new HashSet<>();
    for (int j = 0; j < host.sniDomains().size(); j++) {
      String name = host.sniDomains().get(j);
      String at = field + ".sniDomains[" + j + "]";
      String error = Syntax.serverNameError(name);
      if (error != null) {
        sink.error(at, Reasons.INVALID_DOMAIN, "\"" + name + "\" is not a valid SNI name: " + error);
      } else if (!own.add(name)) {
        sink.error(at, Reasons.DUPLICATE_DOMAIN, "SNI name \"" + name + "\" is listed twice");
      } else {
        Integer earlier = owners.putIfAbsent(name, index);
        if (earlier != null) {
          sink.error(at, Reasons.DUPLICATE_DOMAIN,
              "SNI name \"" + name + "\" is already taken by spec.hosts[" + earlier + "]");
        }
      }
    }
  }

  /**
   * Source ranges one host may list. Reason: each is a filter-chain match entry Envoy checks on every new
   * connection, and the listener is rebuilt and sent whole on every change; real splits name a few networks.
   */
  static final int MAX_SOURCE_RANGES = 64;

  /**
   * Reports malformed or repeated CIDRs of a host's (or a Gateway's) {@code sourcePrefixRanges} under {@code field};
   * returns them in canonical form (network/length).
   */
  static Set<String> checkSourceRanges(List<String> ranges, String field, Ledger.Sink sink) {
    Set<String> canonical = new HashSet<>();
    if (ranges.size() > MAX_SOURCE_RANGES) {
      sink.error(field + ".sourcePrefixRanges", SecurityChecks.INVALID_CIDR, ranges.size()
          + " ranges; at most " + MAX_SOURCE_RANGES);
      return canonical;
    }
    for (int j = 0; j < ranges.size(); j++) {
      String at = field + ".sourcePrefixRanges[" + j + "]";
      try {
        Cidr cidr = Cidr.parse(ranges.get(j));
        if (!canonical.add(canonical(cidr))) {
          sink.error(at, SecurityChecks.INVALID_CIDR, "\"" + cidr.text() + "\" is listed twice");
        }
      } catch (IllegalArgumentException e) {
        sink.error(at, SecurityChecks.INVALID_CIDR, e.getMessage());
      }
    }
    return canonical;
  }

  /** {@code cidr} in canonical form: its network address (no host bits) and prefix length. */
  static String canonical(Cidr cidr) {
    return networkAddress(cidr) + "/" + cidr.prefixLength();
  }

  /** The network address of {@code cidr} as an IP literal (Envoy's {@code address_prefix}). */
  static String networkAddress(Cidr cidr) {
    try {
      return InetAddresses.toAddrString(InetAddress.getByAddress(cidr.network()));
    } catch (java.net.UnknownHostException e) {
      // Unreachable: getByAddress fails only on a wrong byte count, and Cidr holds 4 or 16 bytes.
      throw new IllegalStateException(e);
    }
  }

  private static void checkDestination(RouteAction destination, String field, Ledger.Sink sink) {
    if (destination instanceof RouteAction.Forward forward) {
      MetadataRules.checkRef(forward.upstream(), field + ".upstream.name", field + ".upstream.namespace", sink);
    } else if (destination instanceof RouteAction.Split split) {
      RouteRules.checkSplitTargets(split, field + ".split", ".upstream.name", ".upstream.namespace", sink);
    }
  }
}
