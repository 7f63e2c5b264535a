package io.holdfast.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Envoy command operators in access-log formats: what passes, and the named reason for what does not. */
class CommandOperatorsTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "plain text, no operator",
      "%RESPONSE_CODE% %DURATION%ms",
      "%REQ(:PATH)% %RESP(content-type)% %TRAILER(grpc-status)%",
      "%REQ(user-agent):64%",
      "[%START_TIME%] [%START_TIME(%Y-%m-%dT%H:%M:%S.%3fZ)%]",
      "100%% done",
      "%DYNAMIC_METADATA(envoy.filters.http.jwt_authn:auth0:sub)%",
      "%UPSTREAM_HOST%%UPSTREAM_CLUSTER%"})
  void wellFormedFormatsPass(String format) {
    assertThat(CommandOperators.check(format, "f")).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "%RESPONSE_COD%|UnknownCommandOperator",
      "%req(:path)%|MalformedCommandOperator",
      "50% off|MalformedCommandOperator",
      "%REQ%|MalformedCommandOperator",
      "%REQ()%|MalformedCommandOperator",
      "%DURATION(ms)%|MalformedCommandOperator",
      "%START_TIME(%s)|MalformedCommandOperator",
      "ok %RESPONSE_CODE% then %NOPE%|UnknownCommandOperator"})
  void badFormatsAreNamed(String format, String reason) {
    Optional<Problem> problem = CommandOperators.check(format, "spec.format");
    assertThat(problem).map(Problem::reason).contains(reason);
    assertThat(problem).map(Problem::field).contains("spec.format");
  }
}
