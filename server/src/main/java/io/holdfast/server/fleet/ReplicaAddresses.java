package io.holdfast.server.fleet;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The replicas to ask: given one by one ({@code --replica host:port}), or every address a headless Service's DNS
 * name resolves to ({@code --service NAME --admin-port PORT}). The cluster DNS answers from its own cache of
 * endpoints, so the lookup works while the Kubernetes API server is down, which {@code kubectl} does not.
 */
public final class ReplicaAddresses {
  /**
   * Replicas one run asks: more is not one Holdfast Deployment, and each answer may be megabytes. The lookup's
   * surplus is dropped with a warning rather than failing the run.
   */
  public static final int MAX_REPLICAS = 64;

  /** Resolves a name to all its addresses (A and AAAA); {@link InetAddress#getAllByName} in production. */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String name) throws UnknownHostException;
  }

  /** The addresses to ask and what the caller should be told (a truncated lookup). */
  public record Resolved(List<String> addresses, List<String> warnings) {
    public Resolved {
      addresses = List.copyOf(addresses);
      warnings = List.copyOf(warnings);
    }
  }

  private ReplicaAddresses() {
  }

  /**
   * {@code host:port} or {@code [v6]:port} checked for shape (the host is not resolved here: the HTTP client
   * does, per replica, within its timeout).
   *
   * @throws IllegalArgumentException naming the flag value
   */
  public static String checkReplica(String value) {
    String v = value == null ? "" : value.trim();
    int colon = v.lastIndexOf(':');
    if (colon <= 0 || colon == v.length() - 1) {
      throw new IllegalArgumentException("--replica must be host:port, got '" + value + "'");
    }
    String host = v.substring(0, colon);
    if (host.contains(":") && !(host.startsWith("[") && host.endsWith("]"))) {
      throw new IllegalArgumentException("--replica: put an IPv6 address in brackets, [addr]:port, got '"
          + value + "'");
    }
    port(v.substring(colon + 1), "--replica '" + value + "'");
    return v;
  }

  /** Every address {@code service} resolves to, each with {@code adminPort}, sorted and without duplicates. */
  public static Resolved resolve(String service, int adminPort, Resolver resolver) throws UnknownHostException {
    if (adminPort < 1 || adminPort > 65_535) {
      throw new IllegalArgumentException("--admin-port must be 1-65535, got " + adminPort);
    }
    InetAddress[] found = resolver.resolve(service);
    Set<String> hosts = new java.util.TreeSet<>();
    for (InetAddress a : found) {
      hosts.add(a instanceof Inet6Address ? "[" + a.getHostAddress().replaceFirst("%.*$", "") + "]"
          : a.getHostAddress());
    }
    List<String> addresses = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (String host : new LinkedHashSet<>(hosts)) {
      if (addresses.size() == MAX_REPLICAS) {
        warnings.add(service + " resolves to " + hosts.size() + " addresses; asking the first " + MAX_REPLICAS);
        break;
      }
      addresses.add(host + ":" + adminPort);
    }
    return new Resolved(addresses, warnings);
  }

  private static int port(String text, String what) {
    try {
      int port = Integer.parseInt(text);
      if (port >= 1 && port <= 65_535) {
        return port;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + ": the port must be 1-65535");
  }
}
