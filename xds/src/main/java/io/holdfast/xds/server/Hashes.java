package io.holdfast.xds.server;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Short, stable content hashes: per-resource versions (delta xDS) and SotW response keys. */
final class Hashes {

  private Hashes() {
  }

  /** Hash of the deterministic serialisation of {@code resource}: equal content, equal hash. */
  static String of(Message resource) {
    return of(serialize(resource));
  }

  /** The deterministic serialisation of {@code resource} (map entries in key order). */
  static byte[] serialize(Message resource) {
    byte[] bytes = new byte[resource.getSerializedSize()];
    try {
      var coded = CodedOutputStream.newInstance(bytes);
      coded.useDeterministicSerialization();
      resource.writeTo(coded);
      coded.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes;
  }

  /** Hash of serialized bytes. */
  static String of(byte[] bytes) {
    return HexFormat.of().formatHex(sha256().digest(bytes), 0, 8);
  }

  /** Hash of a string (used over "name=version" lines). */
  static String of(String text) {
    return HexFormat.of().formatHex(sha256().digest(text.getBytes(StandardCharsets.UTF_8)), 0, 8);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
