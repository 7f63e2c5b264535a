package io.holdfast.frontend.holdfast;

import static io.holdfast.api.TestManifests.config;
import static io.holdfast.api.TestManifests.upstream;
import static io.holdfast.api.TestManifests.virtualService;
import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.holdfast.ResourceStatus.State;
import io.holdfast.ir.Listener;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Gateways split by {@code sourcePrefixRanges}: one listener on a shared port, one chain set per Gateway. */
class GatewaySourceRangesTest {

  private final Validator validator = new Validator();

  private static String gateway(String name, String extra) {
    return """
        apiVersion: gateway.holdfast.io/v1
        kind: Gateway
        metadata: {name: %s, creationTimestamp: "2026-01-0%dT00:00:00Z"}
        spec: {port: 8080, virtualServices: [{name: %s}]%s}
        """.formatted(name, name.length() % 9 + 1, name.equals("near") ? "a" : "b", extra);
  }

  @Test
  void gatewaysWithDifferentSourceRangesShareOneListener() {
    ValidationResult result = validator.validate(config(upstream("u", 9101), virtualService("a", "a.test", "u"),
        virtualService("b", "b.test", "u"),
        gateway("near", ", sourcePrefixRanges: [198.51.100.7/24, '2001:db8::/32']"), gateway("rest", "")));
    assertThat(result.status(ResourceKey.gateway("default", "near")).state()).isEqualTo(State.ACCEPTED);
    assertThat(result.status(ResourceKey.gateway("default", "rest")).state()).isEqualTo(State.ACCEPTED);
    List<Listener> listeners = HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().stream()
        .filter(l -> l instanceof Listener.Socket).toList();
    assertThat(listeners).hasSize(1);
    Listener.Socket socket = (Listener.Socket) listeners.get(0);
    assertThat(socket.origin().object()).isEqualTo(ResourceKey.gateway("default", "near"));
    assertThat(socket.filterChains()).extracting(Listener.FilterChain::name)
        .containsExactly("default/near/http", "default/rest/http");
    assertThat(socket.filterChains()).extracting(c -> c.match().sourcePrefixRanges()).containsExactly(
        List.of(new Listener.SourceRange("198.51.100.0", 24), new Listener.SourceRange("2001:db8::", 32)),
        List.of());
    assertThat(socket.filterChains()).extracting(c -> ((Listener.FilterChain.Http) c).virtualHosts().get(0).domains())
        .containsExactly(List.of("a.test"), List.of("b.test"));
  }

  @Test
  void theSameRangesOrOtherSocketSettingsDoNotShareTheOldestWins() {
    String a = virtualService("a", "a.test", "u");
    String b = virtualService("b", "b.test", "u");
    // The same networks written differently take the same connections.
    ValidationResult same = validator.validate(config(upstream("u", 9101), a, b,
        gateway("near", ", sourcePrefixRanges: [198.51.100.0/24]"),
        gateway("rest", ", sourcePrefixRanges: [198.51.100.9/24]")));
    assertThat(same.status(ResourceKey.gateway("default", "near")).state()).isEqualTo(State.ACCEPTED);
    assertThat(same.status(ResourceKey.gateway("default", "rest")).problems())
        .extracting(p -> p.field() + " " + p.reason()).containsExactly("spec.port " + Reasons.DUPLICATE_LISTENER);
    ValidationResult proxies = validator.validate(config(upstream("u", 9101), a, b,
        gateway("near", ", sourcePrefixRanges: [198.51.100.0/24]"), gateway("rest", ", proxyNames: [other]")));
    assertThat(proxies.status(ResourceKey.gateway("default", "rest")).problems())
        .extracting(p -> p.reason()).containsExactly(Reasons.DUPLICATE_LISTENER);
  }

  @Test
  void malformedRangesAndGrpcServersAreRefused() {
    ValidationResult result = validator.validate(config(upstream("u", 9101), virtualService("a", "a.test", "u"),
        gateway("near", ", sourcePrefixRanges: [198.51.100.0/33], grpcServer: true")));
    assertThat(result.status(ResourceKey.gateway("default", "near")).problems())
        .extracting(p -> p.field() + " " + p.reason()).containsExactlyInAnyOrder(
            "spec.sourcePrefixRanges[0] InvalidCidr", "spec.sourcePrefixRanges ConflictingFields");
  }

  @Test
  void thousandsOfGatewaysOnOnePortAreOneListenerWithoutComparingEachPair() {
    // Grouped by socket settings, then by ranges: linear (pairwise, 4000 took 7 s here; grouped, 1 s).
    int count = 4000;
    String[] yamls = new String[count + 2];
    yamls[0] = upstream("u", 9101);
    yamls[1] = virtualService("a", "a.test", "u");
    for (int i = 0; i < count; i++) {
      yamls[i + 2] = """
          apiVersion: gateway.holdfast.io/v1
          kind: Gateway
          metadata: {name: g%d}
          spec: {port: 8080, virtualServices: [{name: a}], sourcePrefixRanges: ['2001:db8:%s::/48']}
          """.formatted(i, Integer.toHexString(i));
    }
    long start = System.nanoTime();
    ValidationResult result = validator.validate(config(yamls));
    List<Listener> sockets = HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().stream()
        .filter(l -> l instanceof Listener.Socket).toList();
    System.out.printf("%d Gateways on one port: %d ms%n", count, (System.nanoTime() - start) / 1_000_000);
    assertThat(result.accepted().gateways()).hasSize(count);
    assertThat(sockets).hasSize(1);
    assertThat(sockets.get(0).filterChains()).hasSize(count);
    // One VirtualService on every chain: each chain has its own route configuration, so no domain conflict.
    assertThat(sockets.get(0).filterChains()).allSatisfy(c -> assertThat(((Listener.FilterChain.Http) c)
        .virtualHosts()).extracting(h -> h.domains().get(0)).containsExactly("a.test"));
    assertThat(result.status(ResourceKey.virtualService("default", "a")).state()).isEqualTo(State.ACCEPTED);
  }

  @Test
  void aTcpGatewayAndGatewaysSplitByClientNetworkShareOneListener() {
    String tcp = """
        apiVersion: gateway.holdfast.io/v1
        kind: TcpGateway
        metadata: {name: db, creationTimestamp: "2026-01-05T00:00:00Z"}
        spec:
          port: 8080
          hosts:
          - {name: partners, sourcePrefixRanges: ['2001:db8::/32'], upstream: {name: u}}
        """;
    ValidationResult result = validator.validate(config(upstream("u", 9101), virtualService("a", "a.test", "u"),
        virtualService("b", "b.test", "u"), gateway("near", ", sourcePrefixRanges: [198.51.100.0/24]"),
        gateway("rest", ""), tcp));
    assertThat(result.status(ResourceKey.tcpGateway("default", "db")).state()).isEqualTo(State.ACCEPTED);
    List<Listener> sockets = HoldfastFrontEnd.lowerAccepted(result.accepted()).listeners().stream()
        .filter(l -> l instanceof Listener.Socket).toList();
    assertThat(sockets).hasSize(1);
    assertThat(sockets.get(0).filterChains()).extracting(Listener.FilterChain::name)
        .containsExactly("default/near/http", "default/rest/http", "default/db/partners");
    // A TCP host taking the networks a Gateway takes: the younger loses the port (same time: db before near).
    ValidationResult same = validator.validate(config(upstream("u", 9101), virtualService("a", "a.test", "u"),
        virtualService("b", "b.test", "u"), gateway("near", ", sourcePrefixRanges: ['2001:db8::/32']"),
        gateway("rest", ""), tcp));
    assertThat(same.status(ResourceKey.gateway("default", "near")).problems()).extracting(p -> p.reason())
        .containsExactly(Reasons.DUPLICATE_LISTENER);
    assertThat(same.status(ResourceKey.tcpGateway("default", "db")).state()).isEqualTo(State.ACCEPTED);
  }
}
