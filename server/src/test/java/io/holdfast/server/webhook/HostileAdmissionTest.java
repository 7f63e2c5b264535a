package io.holdfast.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.holdfast.server.hostile.HostileCorpus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Every hostile input that can reach the webhook (YAML syntax cannot: the API server sends JSON) is reviewed as
 * the API server would send its offending object, the rest of the input being the replica's view: each is denied
 * with its own named reason, so its check ended within the default budgets (5 s wall-clock, 2 s CPU; over them
 * the denial would be CheckBudgetExceeded), the answer came before the API server's 10 s timeout, and an
 * ordinary object is admitted right after.
 */
class HostileAdmissionTest {

  @TempDir
  static Path dir;
  private static WebhookFixture webhook;

  @BeforeAll
  static void start() throws Exception {
    webhook = WebhookFixture.start(dir, b -> b);
  }

  @AfterAll
  static void stop() {
    webhook.close();
  }

  @Test
  void everyHostileObjectIsDeniedWithItsReasonInTime() throws Exception {
    List<String> reviewed = new ArrayList<>();
    for (HostileCorpus.Input input : HostileCorpus.inputs()) {
      if (input.review().isEmpty()) {
        continue;
      }
      List<String> documents = new ArrayList<>(Arrays.asList(input.yaml().split("\n---\n")));
      String object = documents.stream().filter(d -> d.contains("metadata: {name: " + input.review() + ","))
          .findFirst().orElseThrow(() -> new AssertionError(input.name() + ": no document " + input.review()));
      documents.remove(object);
      webhook.viewOf(HostileCorpus.BASE + "---\n" + String.join("\n---\n", documents));
      // The review is built before the clock starts: the API server's 10 s bound is on the webhook's answer, and
      // turning a 1 MB object from YAML into the review's JSON here took seconds of this test's own time.
      String review = WebhookFixture.create("uid-" + input.name(), object.replace("---\n", ""));
      long start = System.nanoTime();
      JsonNode response = webhook.review(review);
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(response.get("allowed").asBoolean()).as(input.name()).isFalse();
      assertThat(response.toString()).as(input.name()).contains(input.expected())
          .doesNotContain("\\tat ", CheckBudget.OVER_BUDGET, CheckBudget.BUSY);
      assertThat(took).as(input.name()).isLessThan(Duration.ofSeconds(10));
      assertThat(response.toString().length()).as(input.name() + ": answer size").isLessThan(64 * 1024);
      // The webhook is still there for the next, ordinary object.
      webhook.viewOf(HostileCorpus.BASE);
      assertThat(webhook.review(WebhookFixture.create("uid-after-" + input.name(), """
          apiVersion: gateway.holdfast.io/v1
          kind: VirtualService
          metadata: {name: fine, namespace: default}
          spec:
            domains: [fine.example]
            routes: [{match: {prefix: /}, route: {upstream: up}}]
          """)).get("allowed").asBoolean()).as("after " + input.name()).isTrue();
      reviewed.add(input.name());
    }
    assertThat(reviewed).contains("regex-bomb", "delegation-chain-2000", "delegation-fan-out-10");
  }
}
