package io.holdfast.election;

import java.util.Optional;

/** The election of one: no lock, no API, one endless term. */
final class AlwaysLeader implements Leadership {
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
