package io.holdfast.it.outage;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scenario 8: the original reproduction. The replicas dial the API's port directly and an iptables rule drops
 * every packet to it for 20 s; asserts what scenario 1 asserts. Needs root and iptables (.ci/run installs it);
 * otherwise skipped with the reason printed, the suite's one allowed skip.
 */
@ExtendWith(ProcessCleanup.class)
class IptablesOutageIT {
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void droppingEveryPacketToTheApiPortTakesNothingDown() {
    Optional<String> why = Iptables.unavailable();
    why.ifPresent(reason -> System.out.println("IptablesOutageIT skipped: " + reason));
    assumeTrue(why.isEmpty(), () -> "iptables scenario skipped: " + why.orElse(""));
    Reliability.Section section = new Reliability.Section("8", "The original reproduction: iptables DROP on the"
        + " API port for 20 s", getClass());
    try (OutageCluster c = OutageCluster.start("s8-iptables", 3, true, List.of());
         Iptables rule = new Iptables(c.api().port())) {
      section.timeline(c.timeline());
      section.figure("rule", "`iptables -I OUTPUT -o lo -p tcp --dport " + c.api().port() + " -j DROP`");
      WholeOutage.run(c, new WholeOutage.Fault() {
        @Override
        public void cut() {
          try {
            rule.drop();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public void restore() {
          try {
            rule.remove();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }, section);
    } finally {
      section.write();
    }
  }
}
