package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestLineCounterTest {

  private static final String TWO_REQUESTS = "GET /api/v1/x HTTP/1.1\r\nHost: a\r\n\r\n"
      + "PUT /apis/coordination.k8s.io/v1/leases/l HTTP/1.1\r\nContent-Length: 20\r\n\r\n{\"note\":\"HTTP/1.1\"}\n";

  @Test
  void countsRequestLinesButNotTheSameTextInABody() {
    assertThat(new RequestLineCounter().feed(bytes(TWO_REQUESTS), TWO_REQUESTS.length())).isEqualTo(2);
  }

  @Test
  void countsARequestLineSplitAcrossChunksAtEveryOffset() {
    byte[] all = bytes(TWO_REQUESTS);
    for (int split = 1; split < all.length; split++) {
      RequestLineCounter counter = new RequestLineCounter();
      byte[] first = java.util.Arrays.copyOfRange(all, 0, split);
      byte[] second = java.util.Arrays.copyOfRange(all, split, all.length);
      assertThat(counter.feed(first, first.length) + counter.feed(second, second.length))
          .as("split at %d", split).isEqualTo(2);
    }
  }

  @Test
  void recognisesHttp10AndRestartsAfterAPartialMatch() {
    String text = "GET / HTTP/1.0\r\nX: y HTTP/1.x HTTP/1.1\r\n";
    assertThat(new RequestLineCounter().feed(bytes(text), text.length())).isEqualTo(2);
  }

  @Test
  void ignoresAStatusLine() {
    String text = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    assertThat(new RequestLineCounter().feed(bytes(text), text.length())).isZero();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
