package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A finding added after the front end (an IR claim lost, an invariant breach, a last good build standing in) must
 * not take away the conditions the front end wrote in its API's terms. Regression: {@code with(Finding)} rebuilt
 * the Accepted condition alone, so a Gateway API Gateway lost Programmed and a GatewayClass SupportedVersion.
 */
class ObjectStatusWithFindingTest {

  private static final ResourceKey GATEWAY = new ResourceKey("gateway.networking.k8s.io", "Gateway", "demo", "web");
  private static final ResourceKey OTHER = new ResourceKey("Gateway", "demo", "older");
  private static final Condition ACCEPTED = new Condition(Condition.ACCEPTED, Condition.Status.TRUE,
      "ListenersNotValid", "1 of 2 listeners are not valid; see status.listeners", 4);
  private static final Condition PROGRAMMED = new Condition(Condition.PROGRAMMED, Condition.Status.TRUE,
      Condition.PROGRAMMED, "1 listener(s) served", 4);
  private static final SectionStatus LISTENER = new SectionStatus("http", List.of(PROGRAMMED), List.of(), 1);

  private static ObjectStatus gateway() {
    return new ObjectStatus(GATEWAY, 4, List.of(ACCEPTED, PROGRAMMED), List.of(), List.of(), List.of(LISTENER));
  }

  @Test
  void aWarningKeepsEveryConditionTheFrontEndWrote() {
    ObjectStatus status = gateway().with(new Finding(Finding.Severity.WARNING, "", "FrontEndFailed", "stand-in"));

    assertThat(status.conditions()).containsExactly(ACCEPTED, PROGRAMMED);
    assertThat(status.sections()).containsExactly(LISTENER);
    assertThat(status.findings()).extracting(Finding::reason).containsExactly("FrontEndFailed");
  }

  @Test
  void anErrorTurnsAcceptedFalseAndKeepsTheOtherConditionsInPlace() {
    ObjectStatus status = gateway().with(new Finding(Finding.Severity.ERROR, "spec", "DuplicateListener", "taken"));

    assertThat(status.conditions()).extracting(Condition::type)
        .containsExactly(Condition.ACCEPTED, Condition.PROGRAMMED);
    Condition accepted = status.condition(Condition.ACCEPTED);
    assertThat(accepted.status()).isEqualTo(Condition.Status.FALSE);
    assertThat(accepted.reason()).isEqualTo("DuplicateListener");
    assertThat(accepted.message()).isEqualTo("spec: taken (DuplicateListener)");
    assertThat(accepted.observedGeneration()).isEqualTo(4);
    assertThat(status.condition(Condition.PROGRAMMED)).isEqualTo(PROGRAMMED);
  }

  @Test
  void anErrorOnAnObjectAlreadyRejectedKeepsItsFirstReason() {
    Condition rejected = new Condition(Condition.ACCEPTED, Condition.Status.FALSE, "Invalid", "cannot be read", 4);
    ObjectStatus before = new ObjectStatus(GATEWAY, 4, List.of(rejected, PROGRAMMED),
        List.of(new Finding(Finding.Severity.ERROR, "", "Invalid", "cannot be read")), List.of());

    ObjectStatus status = before.with(new Finding(Finding.Severity.ERROR, "", "InternalError", "bug"));

    assertThat(status.conditions()).containsExactly(rejected, PROGRAMMED);
    assertThat(status.findings()).extracting(Finding::reason).containsExactly("Invalid", "InternalError");
  }

  /** Holdfast's kinds: their one condition is derived from the findings, as before. */
  @Test
  void anAcceptedConditionDerivedFromTheFindingsIsDerivedAgain() {
    Finding warning = new Finding(Finding.Severity.WARNING, "spec.a", "Odd", "odd");
    Finding error = new Finding(Finding.Severity.ERROR, "spec.b", "Bad", "bad");
    ObjectStatus derived = ObjectStatus.of(OTHER, 2, List.of(warning));

    assertThat(derived.with(error)).isEqualTo(ObjectStatus.of(OTHER, 2, List.of(warning, error)));
  }

  @Test
  void anObjectLeftOutByABreachIsNotProgrammedAndKeepsItsListeners() {
    ResourceKey cluster = new ResourceKey("Upstream", "demo", "never-added");
    IrBuilder builder = new IrBuilder();
    builder.status(gateway(), Optional.of(Instant.parse("2025-01-01T00:00:00Z")));
    builder.add(new Listener.Socket(Origin.of(GATEWAY), "0.0.0.0", 8080, List.of(new Listener.FilterChain.Http(
        Origin.of(GATEWAY), "http", Listener.ChainMatch.ANY, Optional.empty(), List.of(new VirtualHost(
            Origin.of(GATEWAY), List.of("a.test"), List.of(new Route(Origin.of(GATEWAY), "r", new RouteMatch(
                new RouteMatch.PathMatch.Prefix("/"), List.of(), List.of()), new RouteAction.Forward(cluster,
                RouteAction.ForwardPolicy.NONE)))))))));

    ObjectStatus status = builder.build().statuses().get(GATEWAY);

    assertThat(status.condition(Condition.ACCEPTED).reason()).isEqualTo(IrBuilder.INTERNAL_ERROR);
    assertThat(status.condition(Condition.PROGRAMMED).status()).isEqualTo(Condition.Status.FALSE);
    assertThat(status.condition(Condition.PROGRAMMED).reason()).isEqualTo(IrBuilder.INTERNAL_ERROR);
    assertThat(status.condition(Condition.PROGRAMMED).observedGeneration()).isEqualTo(4);
    assertThat(status.sections()).containsExactly(LISTENER);
  }

  @Test
  void aGatewayWhosePortsAreAllTakenByAnOlderObjectIsNotProgrammed() {
    IrBuilder builder = new IrBuilder();
    builder.status(gateway(), Optional.of(Instant.parse("2025-06-01T00:00:00Z")));
    builder.status(ObjectStatus.of(OTHER, 1, List.of()), Optional.of(Instant.parse("2025-01-01T00:00:00Z")));
    builder.add(socket(GATEWAY, 8080)).add(socket(OTHER, 8080));

    ObjectStatus status = builder.build().statuses().get(GATEWAY);

    assertThat(status.condition(Condition.ACCEPTED).reason()).isEqualTo(IrBuilder.DUPLICATE_LISTENER);
    assertThat(status.condition(Condition.PROGRAMMED).status()).isEqualTo(Condition.Status.FALSE);
    assertThat(status.condition(Condition.PROGRAMMED).reason()).isEqualTo(IrBuilder.DUPLICATE_LISTENER);
  }

  @Test
  void aGatewayStillServingOnePortStaysProgrammed() {
    IrBuilder builder = new IrBuilder();
    builder.status(gateway(), Optional.of(Instant.parse("2025-06-01T00:00:00Z")));
    builder.status(ObjectStatus.of(OTHER, 1, List.of()), Optional.of(Instant.parse("2025-01-01T00:00:00Z")));
    builder.add(socket(GATEWAY, 8080)).add(socket(GATEWAY, 8443)).add(socket(OTHER, 8080));

    ObjectStatus status = builder.build().statuses().get(GATEWAY);

    assertThat(status.isAccepted()).isFalse();
    assertThat(status.condition(Condition.PROGRAMMED)).isEqualTo(PROGRAMMED);
  }

  private static Listener socket(ResourceKey key, int port) {
    return new Listener.Socket(Origin.of(key), "0.0.0.0", port, List.of(new Listener.FilterChain.Http(
        Origin.of(key), "http", Listener.ChainMatch.ANY, Optional.empty(), List.of())));
  }
}
