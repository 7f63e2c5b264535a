package io.holdfast.it.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.controlplane.cache.Resources;
import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Problem;
import io.holdfast.api.Reasons;
import io.holdfast.api.VirtualService;
import io.holdfast.frontend.holdfast.HoldfastFrontEnd;
import io.holdfast.frontend.holdfast.ResourceStatus;
import io.holdfast.frontend.holdfast.ValidationResult;
import io.holdfast.frontend.holdfast.Validator;
import io.holdfast.xds.translate.Translation;
import io.holdfast.xds.translate.Translator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark input must be what it claims: clean, of the requested size, deterministic. */
class GeneratedConfigsTest {

  @ParameterizedTest
  @ValueSource(ints = {1, 49, 50, 51, 1000})
  void generatesExactlyTheRequestedRoutesAllAccepted(int routes) {
    GatewayConfig config = GeneratedConfigs.withRoutes(routes);
    assertThat(config.virtualServices().stream().mapToInt(vs -> vs.routes().size()).sum()).isEqualTo(routes);
    ValidationResult result = new Validator().validate(config);
    // Accepted, with warnings only for the redirect and direct-response routes its gRPC domains carry.
    assertThat(result.statuses().values()).extracting(ResourceStatus::state)
        .doesNotContain(ResourceStatus.State.REJECTED);
    assertThat(result.statuses().values()).flatExtracting(ResourceStatus::problems)
        .extracting(Problem::reason).allMatch(Reasons.GRPC_NON_FORWARDING_ROUTE::equals);
    Translation translation = new Translator().translate(HoldfastFrontEnd.lowerAccepted(result.accepted()));
    RouteConfiguration gateway = (RouteConfiguration) translation.snapshot().ofType(Resources.V3.ROUTE_TYPE_URL)
        .get("gateway/bench/edge");
    assertThat(gateway.getVirtualHostsList().stream().mapToInt(vh -> vh.getRoutesCount()).sum()).isEqualTo(routes);
  }

  @Test
  void isDeterministic() {
    assertThat(GeneratedConfigs.withRoutes(300)).isEqualTo(GeneratedConfigs.withRoutes(300));
    assertThat(GeneratedConfigs.withRoutes(300).virtualServices()).extracting(VirtualService::domains)
        .doesNotHaveDuplicates();
  }
}
