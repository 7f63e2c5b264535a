package io.holdfast.server.fleet;

import java.util.Objects;
import java.util.Optional;

/**
 * One replica's answer to {@code GET /state}: its state, or why there is none (refused, timed out, not JSON).
 *
 * @param address {@code host:port} as asked
 */
public record ReplicaAnswer(String address, Optional<ReplicaState> state, Optional<String> error) {
  public ReplicaAnswer {
    Objects.requireNonNull(address, "address");
    if (state.isPresent() == error.isPresent()) {
      throw new IllegalArgumentException("an answer has a state or an error, not both or neither");
    }
  }

  public static ReplicaAnswer answered(String address, ReplicaState state) {
    return new ReplicaAnswer(address, Optional.of(state), Optional.empty());
  }

  public static ReplicaAnswer failed(String address, String error) {
    return new ReplicaAnswer(address, Optional.empty(), Optional.of(error));
  }

  /** The replica's identity if it answered, else its address. */
  public String name() {
    return state.map(s -> s.name(address)).orElse(address);
  }
}
