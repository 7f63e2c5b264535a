package io.holdfast.server.cli;

/**
 * What {@code holdfast serve} does once its flags are valid. Runs on the main thread and normally blocks until
 * the server shuts down; the returned value becomes the process exit code.
 */
@FunctionalInterface
public interface ServeAction {
  /**
   * @param settings validated settings
   * @return process exit code (0 for a clean shutdown)
   * @throws Exception reported as a one-line failure with exit code 1
   */
  int serve(ServeSettings settings) throws Exception;
}
