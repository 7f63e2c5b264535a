package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.holdfast.api.ResourceKey;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Chains may share a server-name match when their client networks differ; the same whole match twice is refused. */
class ChainMatchSourceRangeTest {

  private static final Origin GATEWAY = Origin.of(ResourceKey.tcpGateway("demo", "db"));
  private static final Listener.SourceRange DOC = new Listener.SourceRange("192.0.2.0", 24);
  private static final Listener.SourceRange DOC6 = new Listener.SourceRange("2001:db8::", 32);

  private static Listener.FilterChain chain(String name, Listener.ChainMatch match) {
    return new Listener.FilterChain.Tcp(GATEWAY, name, match, Optional.empty(),
        List.of(new RouteAction.WeightedCluster(ResourceKey.upstream("demo", "db"), 1)));
  }

  private static Listener.Socket socket(Listener.FilterChain... chains) {
    return new Listener.Socket(GATEWAY, "0.0.0.0", 5432, List.of(chains));
  }

  @Test
  void catchAllsAndServerNamesMayRepeatUnderOtherSourceRanges() {
    Listener.ChainMatch sni = new Listener.ChainMatch(List.of("a.test"));
    Listener.Socket socket = socket(chain("a", Listener.ChainMatch.ANY),
        chain("b", Listener.ChainMatch.ANY.withSourcePrefixRanges(List.of(DOC))),
        chain("c", sni), chain("d", sni.withSourcePrefixRanges(List.of(DOC, DOC6))));
    assertThat(socket.filterChains()).hasSize(4);
    assertThat(socket.inspectsTls()).isTrue();
  }

  @Test
  void theSameMatchTwiceIsRefusedWhateverTheOrderOfItsRanges() {
    assertThatThrownBy(() -> socket(
        chain("a", Listener.ChainMatch.ANY.withSourcePrefixRanges(List.of(DOC, DOC6))),
        chain("b", Listener.ChainMatch.ANY.withSourcePrefixRanges(List.of(DOC6, DOC)))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two filter chains without server names");
    Listener.ChainMatch sni = new Listener.ChainMatch(List.of("a.test"), List.of(DOC));
    assertThatThrownBy(() -> socket(chain("a", sni), chain("b", sni)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a.test is on two filter chains");
  }

  @Test
  void malformedOrRepeatedRangesAreRefused() {
    assertThatThrownBy(() -> new Listener.SourceRange("192.0.2.0", 33)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Listener.SourceRange("example.test", 8))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Listener.ChainMatch(List.of(), List.of(DOC, DOC)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theOldConstructorTakesEveryClient() {
    assertThat(new Listener.ChainMatch(List.of()).sourcePrefixRanges()).isEmpty();
    assertThat(new Listener.ChainMatch(List.of())).isEqualTo(Listener.ChainMatch.ANY);
  }
}
