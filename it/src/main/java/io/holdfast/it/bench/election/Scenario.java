package io.holdfast.it.bench.election;

/** What happens to the leader at t0. */
enum Scenario {
  GRACEFUL("leader shuts down gracefully (Holdfast close(), fabric8 cancel with release on cancel)"),
  RESET("leader cut off, connections reset (= leader process killed: the API and the other replica cannot tell)"),
  BLACKHOLE("leader cut off, packets dropped (connections hang)");

  final String description;

  Scenario(String description) {
    this.description = description;
  }

  boolean isFault() {
    return this != GRACEFUL;
  }
}
