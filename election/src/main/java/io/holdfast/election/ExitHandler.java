package io.holdfast.election;

/**
 * Ends the process when the {@link RecoveryPolicy} says so. Injected so tests can observe the decision
 * instead of losing their JVM. Called at most once per elector, from the elector's own thread.
 */
@FunctionalInterface
public interface ExitHandler {
  /** Exit status used for every election-driven exit. */
  int EXIT_STATUS = 1;

  void exit(int status, String reason);

  /** The real one: {@link System#exit}. */
  static ExitHandler system() {
    return (status, reason) -> System.exit(status);
  }
}
