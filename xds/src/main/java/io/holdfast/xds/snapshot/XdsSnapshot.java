package io.holdfast.xds.snapshot;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
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
 * @param version   content hash of all resources
 * @param resources type URL (e.g. {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}) to resources by
 *                  name; both levels sorted so iteration, hashing and persistence are deterministic
 */
public record XdsSnapshot(String version, SortedMap<String, SortedMap<String, Message>> resources) {

  public XdsSnapshot {
    Objects.requireNonNull(version, "version");
    TreeMap<String, SortedMap<String, Message>> copy = new TreeMap<>();
    resources.forEach((type, byName) -> copy.put(type, Collections.unmodifiableSortedMap(new TreeMap<>(byName))));
    resources = Collections.unmodifiableSortedMap(copy);
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

  /** SHA-256 of the deterministic serialisation of {@code resource}: its part of the content version. */
  public static byte[] digest(Message resource) {
    return sha256().digest(serialize(resource));
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
