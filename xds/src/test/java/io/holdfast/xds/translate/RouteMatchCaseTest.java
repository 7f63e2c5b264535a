package io.holdfast.xds.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.BoolValue;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.holdfast.ir.RouteMatch.PathMatch;
import io.holdfast.xds.translate.RouteTranslator.Flavor;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a path's case rule is written: for Envoy only when false (its default is true, and its goldens stay as they
 * were); for gRPC clients and servers always on a prefix or exact path, since grpc-java reads the field unset as
 * false; on a regex never, since neither Envoy nor grpc-java applies it there.
 */
class RouteMatchCaseTest {

  private static RouteMatch match(PathMatch path, Flavor flavor) {
    return RouteTranslator.match(new io.holdfast.ir.RouteMatch(path, List.of(), List.of()), flavor);
  }

  @Test
  void envoyRoutesStateTheCaseRuleOnlyWhenInsensitive() {
    assertThat(match(new PathMatch.Prefix("/a.B/"), Flavor.ENVOY).hasCaseSensitive()).isFalse();
    assertThat(match(new PathMatch.Exact("/a.B/C"), Flavor.ENVOY).hasCaseSensitive()).isFalse();
    assertThat(match(new PathMatch.Prefix("/a.B/", false), Flavor.ENVOY).getCaseSensitive())
        .isEqualTo(BoolValue.of(false));
    assertThat(match(new PathMatch.Exact("/a.B/C", false), Flavor.ENVOY).getCaseSensitive())
        .isEqualTo(BoolValue.of(false));
  }

  @Test
  void grpcRoutesStateTheCaseRuleOfEveryPrefixAndExactPath() {
    RouteMatch prefix = match(new PathMatch.Prefix("/a.B/"), Flavor.GRPC);
    assertThat(prefix.hasCaseSensitive()).isTrue();
    assertThat(prefix.getCaseSensitive().getValue()).isTrue();
    RouteMatch exact = match(new PathMatch.Exact("/a.B/C"), Flavor.GRPC);
    assertThat(exact.hasCaseSensitive()).isTrue();
    assertThat(exact.getCaseSensitive().getValue()).isTrue();
    assertThat(match(new PathMatch.Prefix("/a.B/", false), Flavor.GRPC).getCaseSensitive())
        .isEqualTo(BoolValue.of(false));
    assertThat(match(new PathMatch.Exact("/a.B/C", false), Flavor.GRPC).getCaseSensitive())
        .isEqualTo(BoolValue.of(false));
  }

  @Test
  void aRegexNeverStatesACaseRule() {
    assertThat(match(new PathMatch.Regex("/a\\.B/.*"), Flavor.GRPC).hasCaseSensitive()).isFalse();
    assertThat(match(new PathMatch.Regex("/a\\.B/.*"), Flavor.ENVOY).hasCaseSensitive()).isFalse();
  }
}
