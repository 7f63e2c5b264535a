package io.holdfast.xds.snapshot;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which resources of a snapshot each proxy may be served, by proxy name: the listeners of the Gateways it serves,
 * their route configurations, the clusters those use, their endpoints and the secrets of those listeners and
 * clusters. Built by translation; the xDS server serves a stream authenticated as proxy {@code P} only
 * {@code P}'s scope (a proxy name with no scope gets nothing).
 *
 * <p>{@link #UNKNOWN} marks a snapshot that was built without scopes (a snapshot file from before scopes, or a
 * hand-made snapshot): it may be served whole when authorisation is off, and is served to no authenticated
 * proxy.
 *
 * @param known   false only for {@link #UNKNOWN}
 * @param byProxy proxy name to its scope; sorted, immutable
 */
public record ProxyScopes(boolean known, SortedMap<String, Scope> byProxy) {

  /** Scopes of a snapshot built without them. */
  public static final ProxyScopes UNKNOWN = new ProxyScopes(false, new TreeMap<>());

  public ProxyScopes {
    Objects.requireNonNull(byProxy, "byProxy");
    if (!known && !byProxy.isEmpty()) {
      throw new IllegalArgumentException("unknown scopes cannot list proxies");
    }
    byProxy = Collections.unmodifiableSortedMap(new TreeMap<>(byProxy));
  }

  /** Known scopes, by proxy name. */
  public static ProxyScopes of(Map<String, Scope> byProxy) {
    return new ProxyScopes(true, new TreeMap<>(byProxy));
  }

  /** The scope of {@code proxyName}; empty if it has none (it serves no Gateway) or the scopes are unknown. */
  public Optional<Scope> of(String proxyName) {
    return Optional.ofNullable(byProxy.get(proxyName));
  }

  /**
   * A stable hash of the scopes (proxy names, type URLs and names), folded into a snapshot's version so a change
   * of who may see what is a new version even when no resource changed.
   */
  public String digest() {
    MessageDigest sha = XdsSnapshot.sha256();
    sha.update((byte) (known ? 1 : 0));
    byProxy.forEach((proxy, scope) -> {
      update(sha, proxy);
      scope.names().forEach((type, names) -> {
        update(sha, type);
        names.forEach(name -> update(sha, name));
        sha.update((byte) 1);
      });
      sha.update((byte) 2);
    });
    return HexFormat.of().formatHex(sha.digest(), 0, 8);
  }

  private static void update(MessageDigest sha, String text) {
    sha.update(text.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
  }

  /**
   * What one proxy may be served: resource names by type URL.
   *
   * @param names type URL to the names of that type in scope; sorted, immutable
   */
  public record Scope(SortedMap<String, SortedSet<String>> names) {

    public static final Scope EMPTY = new Scope(new TreeMap<>());

    public Scope {
      TreeMap<String, SortedSet<String>> copy = new TreeMap<>();
      names.forEach((type, ofType) -> {
        if (!ofType.isEmpty()) {
          copy.put(type, Collections.unmodifiableSortedSet(new TreeSet<>(ofType)));
        }
      });
      names = Collections.unmodifiableSortedMap(copy);
    }

    /** Whether {@code name} of {@code typeUrl} is in scope. */
    public boolean contains(String typeUrl, String name) {
      SortedSet<String> ofType = names.get(typeUrl);
      return ofType != null && ofType.contains(name);
    }

    /** The names of {@code typeUrl} in scope. */
    public Set<String> ofType(String typeUrl) {
      return names.getOrDefault(typeUrl, Collections.emptySortedSet());
    }
  }
}
