package io.holdfast.xds.snapshot;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One immutable, complete set of Envoy v3 resources served to every proxy: the hand-off point between
 * translation (which builds it) and the xDS server (which serves it). Nothing else is shared between them.
 *
 * <p>{@code version} is a hash of the content (see {@link #contentVersion}), so an unchanged config yields an
 * equal version and never causes a push.
 *
 * <p>{@code scopes} says which resources each proxy may be served (see {@link ProxyScopes}); when known, it is
 * folded into the version ({@link #scopedVersion}), so a change of scopes alone is a new version.
 *
 * @param version   content hash of all resources (and of the scopes, when known)
 * @param resources type URL (e.g. {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}) to resources by
 *                  name; both levels sorted so iteration, hashing and persistence are deterministic
 * @param scopes    the resources each proxy may be served; {@link ProxyScopes#UNKNOWN} if built without them
 */
public record XdsSnapshot(String version, SortedMap<String, SortedMap<String, Message>> resources,
    ProxyScopes scopes) {

  private static final byte[] ROUTE_CONFIGURATION_MARKER = "RouteConfiguration/v1\0".getBytes(StandardCharsets.UTF_8);

  public XdsSnapshot {
    Objects.requireNonNull(version, "version");
    TreeMap<String, SortedMap<String, Message>> copy = new TreeMap<>();
    resources.forEach((type, byName) -> copy.put(type, Collections.unmodifiableSortedMap(new TreeMap<>(byName))));
    resources = Collections.unmodifiableSortedMap(copy);
    Objects.requireNonNull(scopes, "scopes");
  }

  /** A snapshot without scopes ({@link ProxyScopes#UNKNOWN}). */
  public XdsSnapshot(String version, SortedMap<String, SortedMap<String, Message>> resources) {
    this(version, resources, ProxyScopes.UNKNOWN);
  }

  /** Builds a snapshot with {@code scopes}, versioned by {@link #scopedVersion} of its content. */
  public static XdsSnapshot of(Map<String, ? extends Map<String, ? extends Message>> resources,
      ProxyScopes scopes) {
    TreeMap<String, SortedMap<String, Message>> sorted = new TreeMap<>();
    resources.forEach((type, byName) -> sorted.put(type, new TreeMap<>(byName)));
    return new XdsSnapshot(scopedVersion(contentVersion(sorted), scopes), sorted, scopes);
  }

  /**
   * The version of a snapshot whose resources have the content version {@code resourcesVersion}: that version
   * itself without scopes (so snapshots without scopes keep the versions they always had), else a hash of it and
   * {@link ProxyScopes#digest}.
   */
  public static String scopedVersion(String resourcesVersion, ProxyScopes scopes) {
    if (!scopes.known()) {
      return resourcesVersion;
    }
    MessageDigest sha = sha256();
    sha.update(resourcesVersion.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) 0);
    sha.update(scopes.digest().getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(sha.digest(), 0, 8);
  }

  /** Builds a snapshot whose version is the content hash of {@code resources}. */
  public static XdsSnapshot of(Map<String, ? extends Map<String, ? extends Message>> resources) {
    TreeMap<String, SortedMap<String, Message>> sorted = new TreeMap<>();
    resources.forEach((type, byName) -> sorted.put(type, new TreeMap<>(byName)));
    return new XdsSnapshot(contentVersion(sorted), sorted);
  }

  /** An empty snapshot (no resources), served before any config has been loaded. */
  public static XdsSnapshot empty() {
    return of(Map.of());
  }

  /** The resources of one type by name; empty if the snapshot has none of that type. */
  public SortedMap<String, Message> ofType(String typeUrl) {
    return resources.getOrDefault(typeUrl, Collections.emptySortedMap());
  }

  /**
   * A stable hash over type URLs, names and the SHA-256 {@link #digest} of each resource's deterministic
   * serialisation. Deterministic protobuf serialisation orders map fields, so equal content always gives an equal
   * version. Hashing per-resource digests (not the whole serialised content) lets a translator that remembers
   * each unchanged resource's digest version a new snapshot without serialising it again; see
   * {@link #versionOfDigests}, which gives the same result.
   */
  public static String contentVersion(SortedMap<String, ? extends SortedMap<String, ? extends Message>> resources) {
    SortedMap<String, SortedMap<String, byte[]>> digests = new TreeMap<>();
    resources.forEach((type, byName) -> {
      SortedMap<String, byte[]> ofType = new TreeMap<>();
      byName.forEach((name, resource) -> ofType.put(name, digest(resource)));
      digests.put(type, ofType);
    });
    return versionOfDigests(digests);
  }

  /** The content version of resources given by their {@link #digest}s: equal to {@link #contentVersion}. */
  public static String versionOfDigests(SortedMap<String, ? extends SortedMap<String, byte[]>> digests) {
    MessageDigest sha = sha256();
    for (var type : digests.entrySet()) {
      sha.update(type.getKey().getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      for (var named : type.getValue().entrySet()) {
        sha.update(named.getKey().getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(named.getValue());
      }
      sha.update((byte) 0);
    }
    return HexFormat.of().formatHex(sha.digest(), 0, 8);
  }

  /**
   * A resource's part of the content version: SHA-256 of its deterministic serialisation, except for a
   * RouteConfiguration, whose digest is {@link #routeConfigurationDigest} over its virtual hosts' digests, so a
   * translator that changed one virtual host of a large route configuration hashes that host again, not the whole
   * configuration. Still a function of the content only: equal resources have equal digests.
   */
  public static byte[] digest(Message resource) {
    if (resource instanceof RouteConfiguration routes) {
      List<byte[]> hosts = new ArrayList<>(routes.getVirtualHostsCount());
      routes.getVirtualHostsList().forEach(host -> hosts.add(sha256().digest(serialize(host))));
      return routeConfigurationDigest(routes.toBuilder().clearVirtualHosts().build(), hosts);
    }
    return sha256().digest(serialize(resource));
  }

  /**
   * The digest of a RouteConfiguration: SHA-256 over a marker, the length and serialisation of the configuration
   * without its virtual hosts, and each virtual host's SHA-256 in order (a hash tree of depth one).
   *
   * @param withoutHosts the configuration with {@code virtual_hosts} cleared
   * @param hostDigests  SHA-256 of each virtual host's deterministic serialisation, in order
   */
  public static byte[] routeConfigurationDigest(RouteConfiguration withoutHosts, List<byte[]> hostDigests) {
    if (withoutHosts.getVirtualHostsCount() != 0) {
      throw new IllegalArgumentException("route configuration " + withoutHosts.getName() + " still has its hosts");
    }
    MessageDigest sha = sha256();
    byte[] rest = serialize(withoutHosts);
    sha.update(ROUTE_CONFIGURATION_MARKER);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(rest.length).array());
    sha.update(rest);
    hostDigests.forEach(sha::update);
    return sha.digest();
  }

  /** The deterministic serialisation of {@code message} (map entries ordered by key). */
  public static byte[] serialize(Message message) {
    byte[] bytes = new byte[message.getSerializedSize()];
    CodedOutputStream coded = CodedOutputStream.newInstance(bytes);
    coded.useDeterministicSerialization();
    try {
      message.writeTo(coded);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // cannot happen: writing into an array of the exact size
    }
    coded.checkNoSpaceLeft();
    return bytes;
  }

  /** A new SHA-256 digest. */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
