package io.holdfast.xds.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * The raw bytes of one read of an {@link XdsTls}'s files, and a fingerprint of them. Parsing works on these
 * bytes, so what is checked for change is exactly what gets installed (no re-read between hash and parse).
 */
final class TlsFiles {

  static final String CHAIN = "certificate chain";
  static final String KEY = "private key";
  static final String CLIENT_CA = "client CA";

  /** Far above any real PEM bundle; keeps a mistaken path (a log, a disk image) from being slurped. */
  private static final long MAX_BYTES = 1 << 20;

  final byte[] chain;
  final byte[] key;
  final Optional<byte[]> clientCa;

  private TlsFiles(byte[] chain, byte[] key, Optional<byte[]> clientCa) {
    this.chain = chain;
    this.key = key;
    this.clientCa = clientCa;
  }

  /** Reads every file of {@code tls}; a missing, unreadable or oversized one throws naming it. */
  static TlsFiles read(XdsTls tls) {
    byte[] chain = read(CHAIN, tls.certificateChainFile());
    byte[] key = read(KEY, tls.privateKeyFile());
    Optional<byte[]> ca = tls.clientCaFile().map(path -> read(CLIENT_CA, path));
    return new TlsFiles(chain, key, ca);
  }

  /** SHA-256 over every file, each prefixed by its length so content cannot shift between files unnoticed. */
  byte[] fingerprint() {
    MessageDigest digest = sha256();
    for (byte[] part : new byte[][] {chain, key, clientCa.orElse(new byte[0])}) {
      digest.update(Integer.toString(part.length).getBytes(StandardCharsets.US_ASCII));
      digest.update((byte) ':');
      digest.update(part);
    }
    return digest.digest();
  }

  static byte[] fingerprintOf(String text) {
    return sha256().digest(text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] read(String role, Path path) {
    try {
      if (Files.isDirectory(path)) {
        throw new XdsTlsException(role, path, "is a directory, expected a PEM file");
      }
      long size = Files.size(path);
      if (size > MAX_BYTES) {
        throw new XdsTlsException(role, path, "is " + size + " bytes, more than a PEM file can be (" + MAX_BYTES
            + ")");
      }
      return Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new XdsTlsException(role, path, "missing (no such file)", e);
    } catch (AccessDeniedException e) {
      throw new XdsTlsException(role, path, "unreadable (permission denied)", e);
    } catch (IOException e) {
      throw new XdsTlsException(role, path, "unreadable (" + e + ")", e);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
