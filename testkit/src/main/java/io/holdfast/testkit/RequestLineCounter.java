package io.holdfast.testkit;

/**
 * Counts HTTP/1.x request lines in a byte stream fed in arbitrary chunks: occurrences of
 * {@code " HTTP/1.<digit>\r\n"}. The pattern's only space is its first byte, so a mismatch can restart the
 * match at the current byte without backtracking. Not thread-safe: one per stream direction.
 */
final class RequestLineCounter {
  private static final byte[] PATTERN = " HTTP/1.?\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final int DIGIT_AT = 8;

  private int matched;

  /** Feeds {@code buf[0..n)}; returns how many request lines ended in it. */
  int feed(byte[] buf, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) {
      byte b = buf[i];
      if (matches(matched, b)) {
        matched++;
        if (matched == PATTERN.length) {
          found++;
          matched = 0;
        }
      } else {
        matched = matches(0, b) ? 1 : 0;
      }
    }
    return found;
  }

  private static boolean matches(int at, byte b) {
    return at == DIGIT_AT ? b >= '0' && b <= '9' : PATTERN[at] == b;
  }
}
