package io.holdfast.xds.server;

/**
 * Text a client chose (a NACK's {@code error_detail}, a type URL, a nonce), made safe to put in a log line, a
 * metric or a status: control characters (a newline would forge a log line) become spaces and the text is cut at
 * a bound, marked with its full length. Reason for the bound: an Envoy's error_detail names the rejected
 * resource and the cause in well under 1 KiB, while a client may send megabytes that would be logged and stored.
 */
final class ClientText {

  /** Longest NACK detail kept, in chars (see the class doc). */
  static final int MAX_DETAIL_LENGTH = 1024;
  /** Longest type URL or nonce shown: a real one is under 100 chars. */
  static final int MAX_TOKEN_LENGTH = 200;

  private ClientText() {
  }

  /** {@code text} without control characters, at most {@code max} chars plus a marker naming the full length. */
  static String sanitise(String text, int max) {
    int length = Math.min(text.length(), max);
    StringBuilder out = new StringBuilder(length + 32);
    for (int i = 0; i < length; i++) {
      char c = text.charAt(i);
      out.append(isControl(c) ? ' ' : c);
    }
    if (length > 0 && Character.isHighSurrogate(out.charAt(length - 1)) && text.length() > length) {
      out.setLength(length - 1); // never leave half a character
    }
    if (text.length() > max) {
      out.append("...(").append(text.length()).append(" chars)");
    }
    return out.toString();
  }

  /** True if {@code text} has a character {@link #sanitise} would replace. */
  static boolean hasControl(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (isControl(text.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** ISO controls (C0, DEL, C1) and the Unicode line and paragraph separators, which end lines in some viewers. */
  private static boolean isControl(char c) {
    return Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
  }

  static String detail(String text) {
    return sanitise(text, MAX_DETAIL_LENGTH);
  }

  static String token(String text) {
    return sanitise(text, MAX_TOKEN_LENGTH);
  }
}
