package io.holdfast.pki;

/**
 * PEM text that does not hold what was asked for. The message says what is wrong and what the text holds instead
 * (block labels, counts), never any of its content: callers put it in statuses and logs.
 */
public final class PemException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  PemException(String message) {
    super(message);
  }
}
