package io.holdfast.api;

import static io.holdfast.api.TestManifests.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code match.caseSensitive}: read onto prefix and exact paths, refused where Envoy would not apply it. */
class CaseInsensitivePathTest {

  private final ModelParser parser = new ModelParser();

  private ParseResult parse(String routes) {
    return parser.parse(tree("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [a.test]
          routes:
        %s""".formatted(routes.indent(4))));
  }

  private List<Optional<PathMatch>> paths(String routes) {
    ParseResult result = parse(routes);
    assertThat(result).isInstanceOf(ParseResult.Parsed.class);
    return ((VirtualService) ((ParseResult.Parsed) result).resource()).routes().stream()
        .map(r -> r.match().path()).toList();
  }

  @Test
  void prefixAndExactPathsCarryTheirCaseRuleAndDefaultToCaseSensitive() {
    assertThat(paths("""
        - {match: {prefix: /Api/, caseSensitive: false}, route: {upstream: a}}
        - {match: {exact: /Health, caseSensitive: false}, route: {upstream: a}}
        - {match: {prefix: /b, caseSensitive: true}, route: {upstream: a}}
        - {match: {prefix: /c}, route: {upstream: a}}
        - {match: {regex: '/d.*'}, route: {upstream: a}}""")).containsExactly(
        Optional.of(new PathMatch.Prefix("/Api/", false)), Optional.of(new PathMatch.Exact("/Health", false)),
        Optional.of(new PathMatch.Prefix("/b")), Optional.of(new PathMatch.Prefix("/c")),
        Optional.of(new PathMatch.Regex("/d.*")));
  }

  @Test
  void caseSensitiveWithoutAPrefixOrExactPathIsRefusedNamingTheField() {
    ParseResult result = parse("""
        - {match: {regex: '/a.*', caseSensitive: false}, route: {upstream: a}}
        - {match: {headers: [{name: x, present: true}], caseSensitive: false}, route: {upstream: a}}
        - {match: {prefix: /c, caseSensitive: 'no'}, route: {upstream: a}}
        - {match: {regex: '/d.*', caseSensitive: true}, route: {upstream: a}}""");
    assertThat(result).isInstanceOf(ParseResult.Invalid.class);
    List<Problem> problems = ((ParseResult.Invalid) result).problems();
    assertThat(problems).extracting(Problem::field, Problem::reason).containsExactly(
        tuple("spec.routes[0].match.caseSensitive", Reasons.CONFLICTING_MATCHER),
        tuple("spec.routes[1].match.caseSensitive", Reasons.CONFLICTING_MATCHER),
        tuple("spec.routes[2].match.caseSensitive", Reasons.WRONG_TYPE),
        tuple("spec.routes[3].match.caseSensitive", Reasons.CONFLICTING_MATCHER));
    assertThat(problems.get(0).message()).contains("(?i)");
  }

  @Test
  void aCaseInsensitivePathFoldsAsciiLettersOnlyAsEnvoyDoes() {
    PathMatch.Prefix prefix = new PathMatch.Prefix("/Team-A/", false);
    assertThat(prefix.matches("/team-a/x")).isTrue();
    assertThat(prefix.matches("/TEAM-A/")).isTrue();
    assertThat(prefix.matches("/team-b/")).isFalse();
    assertThat(prefix.matches("/team")).isFalse();
    assertThat(new PathMatch.Prefix("/Team-A/").matches("/team-a/x")).isFalse();
    // Envoy folds ASCII only: the Kelvin sign (U+212A) lowers to k in Java but is not K to Envoy.
    assertThat(new PathMatch.Exact("/k", false).matches("/\u212A")).isFalse();
    assertThat(new PathMatch.Exact("/k", false).matches("/K")).isTrue();
    assertThat(new PathMatch.Exact("/k", true).matches("/K")).isFalse();
  }
}
