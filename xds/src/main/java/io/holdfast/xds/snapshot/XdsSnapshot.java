package io.holdfast.xds.snapshot;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import java.io.ByteArrayOutputStream;
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
   * A stable hash over type URLs, names and the deterministic serialisation of each resource. Deterministic
   * protobuf serialisation orders map fields, so equal content always gives an equal version.
   */
  public static String contentVersion(SortedMap<String, ? extends SortedMap<String, ? extends Message>> resources) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
    var out = new ByteArrayOutputStream();
    for (var type : resources.entrySet()) {
      digest.update(type.getKey().getBytes(StandardCharsets.UTF_8));
      digest.update((byte) 0);
      for (var named : type.getValue().entrySet()) {
        digest.update(named.getKey().getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
        out.reset();
        try {
          var coded = CodedOutputStream.newInstance(out);
          coded.useDeterministicSerialization();
          named.getValue().writeTo(coded);
          coded.flush();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        digest.update(out.toByteArray());
        digest.update((byte) 0);
      }
    }
    return HexFormat.of().formatHex(digest.digest(), 0, 8);
  }
}
