package io.holdfast.ir;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Claims.Claim;
import io.holdfast.ir.Claims.Claimant;
import io.holdfast.ir.Claims.Loss;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClaimsTest {

  private static final Claimant OLD = claimant("old", Optional.of(Instant.parse("2025-01-01T00:00:00Z")));
  private static final Claimant YOUNG = claimant("young", Optional.of(Instant.parse("2025-06-01T00:00:00Z")));
  private static final Claimant UNDATED = claimant("a-undated", Optional.empty());

  @Test
  void oldestWinsWhateverTheInputOrder() {
    List<Claim<String>> claims = new ArrayList<>(List.of(new Claim<>(YOUNG, List.of("x.test")),
        new Claim<>(UNDATED, List.of("x.test")), new Claim<>(OLD, List.of("x.test"))));
    for (int i = 0; i < 3; i++) {
      Collections.rotate(claims, 1);
      assertThat(Claims.settleEqual(claims)).extracting(Loss::loser).containsExactly(YOUNG, UNDATED);
      assertThat(Claims.settleEqual(claims)).extracting(Loss::winner).containsOnly(OLD);
    }
  }

  @Test
  void aLoserHoldsNothingSoItBlocksNoYoungerClaimant() {
    List<Loss<String>> losses = Claims.settleEqual(List.of(new Claim<>(OLD, List.of("a.test")),
        new Claim<>(YOUNG, List.of("b.test", "a.test")), new Claim<>(UNDATED, List.of("b.test"))));
    assertThat(losses).hasSize(1);
    assertThat(losses.get(0).loser()).isEqualTo(YOUNG);
    assertThat(losses.get(0).index()).isEqualTo(1);
  }

  @Test
  void overlapIsDecidedWithinABucket() {
    record Port(String address, int port) {
    }
    List<Loss<Port>> losses = Claims.settle(List.of(new Claim<>(OLD, List.of(new Port("0.0.0.0", 80))),
            new Claim<>(YOUNG, List.of(new Port("127.0.0.1", 80))), new Claim<>(UNDATED, List.of(new Port("127.0.0.1", 81)))),
        Port::port, (a, b) -> a.address().equals("0.0.0.0") || a.address().equals(b.address()));
    assertThat(losses).extracting(Loss::loser).containsExactly(YOUNG);
    assertThat(losses.get(0).held()).isEqualTo(new Port("0.0.0.0", 80));
  }

  private static Claimant claimant(String name, Optional<Instant> created) {
    return new Claimant(ResourceKey.virtualService("demo", name), created);
  }
}
