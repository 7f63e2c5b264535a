package io.holdfast.server.snapshot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The AES-256 key that seals Secrets in the snapshot file ({@code --snapshot-key-file}): a file of exactly 32 bytes,
 * or their base64 (e.g. {@code head -c 32 /dev/urandom | base64 > key}, or a Kubernetes Secret mounted as a file).
 * Errors name the file, never its content.
 */
public final class SnapshotKey {

  static final int KEY_BYTES = 32;

  private SnapshotKey() {
  }

  /**
   * @throws IllegalArgumentException naming the flag and the file if it cannot be read or is not a 256-bit key
   */
  public static SecretKey read(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("--snapshot-key-file " + file + " cannot be read: " + IoErrors.describe(e), e);
    }
    if (bytes.length == KEY_BYTES) {
      return new SecretKeySpec(bytes, "AES");
    }
    byte[] decoded;
    try {
      decoded = Base64.getMimeDecoder().decode(new String(bytes, StandardCharsets.US_ASCII).trim());
    } catch (IllegalArgumentException e) {
      decoded = new byte[0];
    }
    if (decoded.length != KEY_BYTES) {
      throw new IllegalArgumentException("--snapshot-key-file " + file + " must hold a 256-bit key: 32 bytes, or"
          + " their base64 (e.g. head -c 32 /dev/urandom | base64)");
    }
    return new SecretKeySpec(decoded, "AES");
  }
}
