package io.holdfast.xds.envoycheck;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.upstream;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.translate.Translator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The validator's promise, checked on hostile routes: a VirtualService it accepts translates to resources Envoy
 * accepts. Each case is one route (YAML flow map) in a VirtualService served by a Gateway and an API listener;
 * it must be rejected by Holdfast's validator or pass the validate.rules checker.
 */
class AcceptedMeansEnvoyValidTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "{match: {prefix: /, headers: [{name: \"x-a\\nx-b\", exact: v}]}, route: {upstream: a}}",
      "{match: {prefix: /, headers: [{name: \"\", exact: v}]}, route: {upstream: a}}",
      "{match: {prefix: /, headers: [{name: x-a, prefix: \"\"}]}, route: {upstream: a}}",
      "{match: {prefix: /, headers: [{name: x-a, regex: \"\"}]}, route: {upstream: a}}",
      "{match: {regex: \"\"}, route: {upstream: a}}",
      "{match: {prefix: /}, split: []}",
      "{match: {prefix: /}, directResponse: {status: 600}}",
      "{match: {prefix: /}, redirect: {host: \"\", responseCode: 302}}",
      "{match: {prefix: /}, route: {upstream: a}, timeout: -1s}",
      "{match: {prefix: /}, route: {upstream: a}, retries: {attempts: 0, retryOn: [5xx]}}",
      "{match: {prefix: /}, redirect: {host: \"web.test\\nx-injected: 1\", responseCode: 302}}",
      "{match: {prefix: /}, redirect: {path: \"/new\\nx-injected: 1\", responseCode: 302}}",
      "{match: {prefix: /}, redirect: {prefixRewrite: \"/new\\r\", responseCode: 302}}",
      "{match: {prefix: /}, route: {upstream: a}, prefixRewrite: \"/x\\ny\"}",
  })
  void whatTheValidatorAcceptsEnvoyAccepts(String route) {
    String virtualService = """
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: web}
        spec:
          domains: [web.test]
          routes:
            - %s
        """.formatted(route);
    ValidationResult result = new Validator()
        .validate(config(upstream("a", 9101), virtualService, gateway("gw", 10080)));
    ResourceStatus status = result.statuses().get(ResourceKey.virtualService("default", "web"));
    if (status.isServed()) {
      Report report = EnvoyConstraints.inspect(new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted())).snapshot().resources());
      assertThat(report.clean()).as("accepted by Holdfast (%s) but Envoy would reject: %s", status, report).isTrue();
    }
  }
}
