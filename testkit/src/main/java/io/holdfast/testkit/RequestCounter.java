package io.holdfast.testkit;

import java.nio.charset.StandardCharsets;

/**
 * Counts HTTP requests in the client-to-server byte stream of one connection, fed in arbitrary chunks.
 *
 * <ul>
 *   <li>HTTP/1.x: request lines, i.e. occurrences of {@code " HTTP/1.<digit>\r\n"}. The pattern's only space is
 *       its first byte, so a mismatch restarts the match at the current byte without backtracking.
 *   <li>HTTP/2 (prior knowledge, or after an h2c upgrade, whose upgrading request was counted as HTTP/1.1):
 *       after the connection preface, frames are parsed and each HEADERS frame opening a new client stream
 *       counts once (trailers and CONTINUATION frames do not).
 * </ul>
 * Not thread-safe: one per connection direction.
 */
final class RequestCounter {
  private static final byte[] REQUEST_LINE = " HTTP/1.?\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int DIGIT_AT = 8;
  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  private static final int FRAME_HEADER = 9;
  private static final int HEADERS = 0x1;

  private int lineMatched;
  private int prefaceMatched;
  private boolean http2;
  private final byte[] header = new byte[FRAME_HEADER];
  private int headerFill;
  private long payloadLeft;
  private int highestStream;

  /** Feeds {@code buf[0..n)}; returns how many requests started in it. */
  int feed(byte[] buf, int n) {
    int found = 0;
    for (int i = 0; i < n; i++) {
      if (http2) {
        if (payloadLeft > 0) {
          long skip = Math.min(payloadLeft, n - i);
          payloadLeft -= skip;
          i += (int) skip - 1;
          continue;
        }
        header[headerFill++] = buf[i];
        if (headerFill == FRAME_HEADER) {
          headerFill = 0;
          found += onFrameHeader();
        }
        continue;
      }
      found += http1(buf[i]);
    }
    return found;
  }

  private int http1(byte b) {
    int found = 0;
    if (matchesLine(lineMatched, b)) {
      if (++lineMatched == REQUEST_LINE.length) {
        found = 1;
        lineMatched = 0;
      }
    } else {
      lineMatched = matchesLine(0, b) ? 1 : 0;
    }
    // Restarting at the current byte is exact here because a client sends the preface first on a connection
    // or right after its upgrade request's blank line, never overlapping a partial match.
    if (PREFACE[prefaceMatched] == b) {
      if (++prefaceMatched == PREFACE.length) {
        http2 = true;
      }
    } else {
      prefaceMatched = PREFACE[0] == b ? 1 : 0;
    }
    return found;
  }

  private int onFrameHeader() {
    payloadLeft = (header[0] & 0xFFL) << 16 | (header[1] & 0xFFL) << 8 | (header[2] & 0xFFL);
    int type = header[3] & 0xFF;
    int stream = (header[5] & 0x7F) << 24 | (header[6] & 0xFF) << 16 | (header[7] & 0xFF) << 8 | (header[8] & 0xFF);
    if (type == HEADERS && (stream & 1) == 1 && stream > highestStream) {
      highestStream = stream;
      return 1;
    }
    return 0;
  }

  private static boolean matchesLine(int at, byte b) {
    return at == DIGIT_AT ? b >= '0' && b <= '9' : REQUEST_LINE[at] == b;
  }
}
