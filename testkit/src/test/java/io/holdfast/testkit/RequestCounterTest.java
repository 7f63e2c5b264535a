package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RequestCounterTest {

  private static final String TWO_REQUESTS = "GET /api/v1/x HTTP/1.1\r\nHost: a\r\n\r\n"
      + "PUT /apis/coordination.k8s.io/v1/leases/l HTTP/1.1\r\nContent-Length: 20\r\n\r\n{\"note\":\"HTTP/1.1\"}\n";

  @Test
  void countsRequestLinesButNotTheSameTextInABody() {
    assertThat(feedAll(ascii(TWO_REQUESTS))).isEqualTo(2);
  }

  @Test
  void countsARequestLineSplitAcrossChunksAtEveryOffset() {
    assertThat(countWithEverySplit(ascii(TWO_REQUESTS))).containsOnly(2);
  }

  @Test
  void recognisesHttp10AndRestartsAfterAPartialMatch() {
    assertThat(feedAll(ascii("GET / HTTP/1.0\r\nX: y HTTP/1.x HTTP/1.1\r\n"))).isEqualTo(2);
  }

  @Test
  void ignoresAStatusLine() {
    assertThat(feedAll(ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"))).isZero();
  }

  @Test
  void countsNewHttp2StreamsAfterAnH2cUpgrade() {
    ByteArrayOutputStream s = new ByteArrayOutputStream();
    // The upgrading request is itself stream 1 and counts as an HTTP/1.1 request.
    s.writeBytes(ascii("GET /a HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n\r\n"));
    s.writeBytes(ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
    s.writeBytes(frame(0x4, 0, 12)); // SETTINGS
    s.writeBytes(frame(0x1, 3, 40)); // HEADERS opening stream 3
    s.writeBytes(frame(0x0, 3, 300)); // DATA; its payload mentions a request line, which must not count
    s.writeBytes(frame(0x1, 3, 10)); // trailers on stream 3: not a new request
    s.writeBytes(frame(0x9, 3, 10)); // CONTINUATION
    s.writeBytes(frame(0x8, 0, 4)); // WINDOW_UPDATE
    s.writeBytes(frame(0x1, 5, 40)); // HEADERS opening stream 5
    assertThat(countWithEverySplit(s.toByteArray())).containsOnly(3);
  }

  @Test
  void countsHttp2WithPriorKnowledge() {
    ByteArrayOutputStream s = new ByteArrayOutputStream();
    s.writeBytes(ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"));
    s.writeBytes(frame(0x1, 1, 20));
    s.writeBytes(frame(0x1, 3, 20));
    assertThat(feedAll(s.toByteArray())).isEqualTo(2);
  }

  /** A frame header plus a payload whose bytes would read as HTTP/1.1 request lines. */
  private static byte[] frame(int type, int stream, int length) {
    byte[] payload = new byte[length];
    byte[] text = ascii("GET / HTTP/1.1\r\n");
    for (int i = 0; i < length; i++) {
      payload[i] = text[i % text.length];
    }
    ByteArrayOutputStream f = new ByteArrayOutputStream();
    f.write(length >>> 16);
    f.write(length >>> 8);
    f.write(length);
    f.write(type);
    f.write(0);
    f.write(stream >>> 24);
    f.write(stream >>> 16);
    f.write(stream >>> 8);
    f.write(stream);
    f.writeBytes(payload);
    return f.toByteArray();
  }

  private static int feedAll(byte[] all) {
    return new RequestCounter().feed(all, all.length);
  }

  /** The count for every way of cutting the input in two chunks. */
  private static int[] countWithEverySplit(byte[] all) {
    int[] counts = new int[all.length - 1];
    for (int split = 1; split < all.length; split++) {
      RequestCounter counter = new RequestCounter();
      byte[] first = Arrays.copyOfRange(all, 0, split);
      byte[] second = Arrays.copyOfRange(all, split, all.length);
      counts[split - 1] = counter.feed(first, first.length) + counter.feed(second, second.length);
    }
    return counts;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
