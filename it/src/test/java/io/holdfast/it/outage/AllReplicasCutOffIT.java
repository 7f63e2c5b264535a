package io.holdfast.it.outage;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Scenario 1: all three replicas cut off from the API (fault proxies blackholed) for 20 s, then restored. */
@ExtendWith(ProcessCleanup.class)
class AllReplicasCutOffIT {
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void noExitNoFailedCallAndAVirtualServiceFromTheOutageRoutesAfterwards() {
    Reliability.Section section = new Reliability.Section("1", "All replicas cut off for 20 s, then restored",
        getClass());
    try (OutageCluster c = OutageCluster.start("s1-all-cut", 3, List.of())) {
      try {
        WholeOutage.run(c, new WholeOutage.Fault() {
          @Override
          public void cut() {
            c.cutAll();
          }

          @Override
          public void restore() {
            c.restoreAll();
          }
        }, section);
      } finally {
        section.timeline(c.timeline());
      }
    } finally {
      section.write();
    }
  }
}
