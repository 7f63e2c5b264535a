package io.holdfast.it.outage;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Stops every process the suite started after each test and each class, whether it passed or not. */
final class ProcessCleanup implements AfterEachCallback, AfterAllCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    ManagedProcess.stopAll();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ManagedProcess.stopAll();
  }
}
