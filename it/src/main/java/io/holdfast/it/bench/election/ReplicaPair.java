package io.holdfast.it.bench.election;

import io.holdfast.it.bench.Waits;
import io.holdfast.testkit.MockKubeApi;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Two replicas of one implementation on one lease. */
final class ReplicaPair implements AutoCloseable {
  final Implementation impl;
  final List<Contender> replicas;

  private ReplicaPair(Implementation impl, List<Contender> replicas) {
    this.impl = impl;
    this.replicas = replicas;
  }

  static ReplicaPair start(MockKubeApi api, Implementation impl, String lease, Timings timings) {
    return new ReplicaPair(impl, List.of(impl.start(api, lease, "a", timings), impl.start(api, lease, "b", timings)));
  }

  /** Waits until exactly one replica leads and both are settled; that leader, or empty past the bound. */
  Optional<Contender> awaitSettledLeader(Duration bound) {
    boolean ok = Waits.until(() -> leaders().size() == 1 && replicas.stream().allMatch(Contender::settled), bound);
    return ok ? Optional.of(leaders().get(0)) : Optional.empty();
  }

  /** "a: leads, settled; b: follows, unsettled", for diagnostics. */
  String describe() {
    return String.join("; ", replicas.stream().map(c -> c.identity() + ": " + (c.leads() ? "leads" : "follows")
        + ", " + (c.settled() ? "settled" : "unsettled") + ", sees " + c.observedLeader().orElse("no leader")).toList());
  }

  List<Contender> leaders() {
    return replicas.stream().filter(Contender::leads).toList();
  }

  Contender other(Contender than) {
    return replicas.get(0) == than ? replicas.get(1) : replicas.get(0);
  }

  @Override
  public void close() {
    replicas.forEach(Contender::close);
  }
}
