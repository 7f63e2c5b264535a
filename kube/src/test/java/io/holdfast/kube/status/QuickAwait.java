package io.holdfast.kube.status;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Awaitility checks a condition first after one poll interval (100 ms by default), and again every interval: a
 * class that awaits dozens of quick conditions spends seconds there. With this extension its awaits check at once,
 * then every 20 ms; the library's defaults come back after the class.
 */
final class QuickAwait implements BeforeAllCallback, AfterAllCallback {
  @Override
  public void beforeAll(ExtensionContext context) {
    Awaitility.setDefaultPollDelay(Duration.ZERO);
    Awaitility.setDefaultPollInterval(Duration.ofMillis(20));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Awaitility.reset();
  }
}
