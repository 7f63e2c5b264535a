package io.holdfast.election;

import java.util.Optional;

/** The election of one: no lock, no API, one endless term. */
final class AlwaysLeader implements Leadership {
  /** A single replica's fence never expires; a long, finite value keeps timeout arithmetic safe. */
  static final java.time.Duration UNBOUNDED = java.time.Duration.ofDays(365);
  private final Term term;

  AlwaysLeader(String identity) {
    this.term = new Term(0, identity);
  }

  @Override
  public boolean isLeader() {
    return true;
  }

  @Override
  public ElectorState state() {
    return ElectorState.LEADER;
  }

  @Override
  public Optional<Term> currentTerm() {
    return Optional.of(term);
  }

  @Override
  public Optional<String> observedLeader() {
    return Optional.of(term.holder());
  }

  @Override
  public String identity() {
    return term.holder();
  }

  @Override
  public boolean runIfLeader(Fence.FencedAction action) {
    action.run(new Fence() {
      @Override
      public Term term() {
        return term;
      }

      @Override
      public boolean isValid() {
        return true;
      }

      @Override
      public java.time.Duration timeLeft() {
        return UNBOUNDED;
      }
    });
    return true;
  }

  /** Elected once, at registration, so listeners that rebuild state on election still do so. */
  @Override
  public void addListener(LeadershipListener listener) {
    listener.onNewLeader(term.holder());
    listener.onElected(term);
  }
}
