package io.holdfast.xds.server;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A TLS file that cannot be used. The message reads {@code "<role> file <path>: <problem>"}, e.g.
 * {@code "private key file /etc/holdfast/tls.key: does not match the certificate in /etc/holdfast/tls.crt"}, so
 * it can be shown to an operator as it is.
 */
public final class XdsTlsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient Path file;

  XdsTlsException(String role, Path file, String problem) {
    this(role, file, problem, null);
  }

  XdsTlsException(String role, Path file, String problem, Throwable cause) {
    super(role + " file " + file + ": " + problem, cause);
    this.file = Objects.requireNonNull(file, "file");
  }

  /** The file at fault. */
  public Path file() {
    return file;
  }
}
