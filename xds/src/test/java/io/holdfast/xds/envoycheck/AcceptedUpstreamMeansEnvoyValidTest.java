package io.holdfast.xds.envoycheck;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.gateway;
import static io.holdfast.api.TestManifests.virtualService;
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
 * The validator's promise for upstream options, on values at and past Envoy's limits: an Upstream it accepts
 * translates to a Cluster Envoy accepts. Each case is an Upstream spec (YAML flow map); it must be rejected by
 * Holdfast or pass the validate.rules checker.
 */
class AcceptedUpstreamMeansEnvoyValidTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "{static: {hosts: [{address: a.test, port: 80}]}, dns: {refreshRate: 1ms}}",
      "{static: {hosts: [{address: a.test, port: 80}]}, dns: {refreshRate: 1001us}}",
      "{static: {hosts: [{address: a.test, port: 80}]}, dns: {refreshRate: 2ms}}",
      "{static: {hosts: [{address: a.test., port: 80}]}, dns: {resolution: LOGICAL}}",
      "{static: {hosts: [{address: \"a.test\\n\", port: 80}]}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, circuitBreakers: {maxConnections: 2147483647}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, outlierDetection: {failurePercentage: {threshold: 0}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, outlierDetection: {consecutive5xx: 1, interval: 1ns,"
          + " baseEjectionTime: 1ns, maxEjectionPercent: 100}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, outlierDetection: {successRate: {stdevFactor: 0.0001}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, outlierDetection: {successRate: {stdevFactor: 1000000}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, healthChecks: [{http: {path: \"/h\\nx: 1\"}, timeout: 1ns,"
          + " interval: 1ns}]}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, healthChecks: [{http: {path: /, host: \"h.test\\r\"},"
          + " timeout: 1s, interval: 1s}]}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, healthChecks: [{http: {path: /, host: \"h.test:8080\","
          + " expectedStatuses: [{start: 100, end: 600}]}, timeout: 1s, interval: 1s}]}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true, healthChecks: [{grpc: {serviceName: \"\"},"
          + " timeout: 1s, interval: 1s}]}",
      "{static: {hosts: [{address: 127.0.0.1, port: 443}]}, tls: {sni: "
          + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbb"
          + "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.cccccccccccccccccccccccccccccccccccccccccccccccccccc"
          + "ccccccccccc.ddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 443}]}, tls: {sni: \"api.test\\n\"}}",
      "{static: {hosts: [{address: \"api.test.\", port: 443}]}, tls: {verify: SYSTEM}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true, connection: {http1: {enableTrailers: true}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, connection: {http1: {}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, connection: {maxHeadersCount: 1, http1: {enableTrailers:"
          + " true, headerKeyFormat: PRESERVE_CASE, streamErrorOnInvalidHttpMessage: false}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true, connection: {http2: {maxConcurrentStreams: 1,"
          + " initialStreamWindowSize: 65535, initialConnectionWindowSize: 65535}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true, connection: {http2: {maxConcurrentStreams:"
          + " 2147483647, initialStreamWindowSize: 2147483647, initialConnectionWindowSize: 2147483647}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true, connection: {http2: {maxConcurrentStreams: 0,"
          + " initialStreamWindowSize: 65534, initialConnectionWindowSize: 2147483648}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, http2: true, connection: {http2: {maxConcurrentStreams:"
          + " 4294967296}}}",
      "{static: {hosts: [{address: 127.0.0.1, port: 80}]}, connection: {http2: {maxConcurrentStreams: 8}}}",
  })
  void whatTheValidatorAcceptsEnvoyAccepts(String spec) {
    String upstream = """
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: a}
        spec: %s
        """.formatted(spec);
    ValidationResult result = new Validator()
        .validate(config(upstream, virtualService("web", "web.test", "a"), gateway("gw", 10080)));
    ResourceStatus status = result.statuses().get(ResourceKey.upstream("default", "a"));
    if (status.isServed()) {
      Report report = EnvoyConstraints.inspect(new Translator()
          .translate(HoldfastFrontEnd.lowerAccepted(result.accepted())).snapshot().resources());
      assertThat(report.clean()).as("accepted by Holdfast (%s) but Envoy would reject: %s", status, report).isTrue();
    }
  }
}
