package io.holdfast.election;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Records listener callbacks in order, as strings like {@code elected r0#1} or {@code demoted r0#1: cause}. */
final class RecordingListener implements LeadershipListener {
  final List<String> events = new CopyOnWriteArrayList<>();
  final List<Term> elected = new CopyOnWriteArrayList<>();
  final List<String> demotions = new CopyOnWriteArrayList<>();

  @Override
  public void onElected(Term term) {
    elected.add(term);
    events.add("elected " + term);
  }

  @Override
  public void onDemoted(Term term, String cause) {
    demotions.add(cause);
    events.add("demoted " + term + ": " + cause);
  }

  @Override
  public void onNewLeader(String identity) {
    events.add("leader " + (identity.isEmpty() ? "<none>" : identity));
  }
}
