package io.holdfast.xds.server;

import static io.holdfast.xds.server.Fixtures.edsCluster;
import static io.holdfast.xds.server.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Any;
import com.google.rpc.Status;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryRequest;
import io.envoyproxy.envoy.service.discovery.v3.DeltaDiscoveryResponse;
import io.envoyproxy.envoy.service.discovery.v3.Resource;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Delta bookkeeping of one stream and type, without gRPC. */
class DeltaTypeStateTest {

  private static final String CDS = Fixtures.CDS;

  private final DeltaTypeState state = new DeltaTypeState();

  private static IndexedSnapshot indexed(com.google.protobuf.Message... resources) {
    return IndexedSnapshot.of(snapshot(resources), null);
  }

  /** Simulates sending {@code plan} under {@code nonce} and returns it. */
  private DeltaTypeState.Plan send(Optional<DeltaTypeState.Plan> plan, String version, String nonce) {
    assertThat(plan).isPresent();
    var response = DeltaDiscoveryResponse.newBuilder().setNonce(nonce).setSystemVersionInfo(version)
        .setTypeUrl(CDS).addAllRemovedResources(plan.get().removed());
    plan.get().resources().forEach((name, versioned) -> response.addResources(
        Resource.newBuilder().setName(name).setVersion(versioned.version()).setResource(versioned.any())));
    state.sent(response.build());
    return plan.get();
  }

  private Reply ack(String nonce) {
    return state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce(nonce).build());
  }

  @Test
  void missingSubscribedNameIsRemovedOnceAndAChangeSendsOnlyTheChangedResource() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS)
        .addResourceNamesSubscribe("a").addResourceNamesSubscribe("ghost").build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    var first = send(state.plan(v1, CDS, false), v1.version(), "0");
    assertThat(first.resources()).containsOnlyKeys("a");
    assertThat(first.removed()).containsExactly("ghost");
    assertThat(ack("0")).isEqualTo(Reply.OK);

    assertThat(state.plan(v1, CDS, false)).as("nothing new, ghost already reported").isEmpty();
    IndexedSnapshot v2 = indexed(edsCluster("a", 9), edsCluster("b", 9));
    var second = send(state.plan(v2, CDS, false), v2.version(), "1");
    assertThat(second.resources()).containsOnlyKeys("a");
    assertThat(second.removed()).isEmpty();
  }

  @Test
  void wildcardSendsEverythingThenRemovalsOfWhatWasHeld() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    ack("0");
    IndexedSnapshot v2 = indexed(edsCluster("a"));
    var plan = state.plan(v2, CDS, true);
    assertThat(plan).get().satisfies(p -> {
      assertThat(p.resources()).isEmpty();
      assertThat(p.removed()).containsExactly("b");
    });
  }

  @Test
  void initialResourceVersionsSuppressUnchangedResources() {
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS)
        .putInitialResourceVersions("a", v1.resourceVersion(CDS, "a"))
        .putInitialResourceVersions("gone", "old")
        .build());
    var plan = state.plan(v1, CDS, true);
    assertThat(plan).get().satisfies(p -> {
      assertThat(p.resources()).containsOnlyKeys("b");
      assertThat(p.removed()).containsExactly("gone");
    });
  }

  @Test
  void nackBlocksTheRejectedVersionAndUnknownAckIsAProtocolError() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    Reply nack = state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce("0")
        .setErrorDetail(Status.newBuilder().setMessage("bad")).build());
    assertThat(nack.kind()).isEqualTo(Reply.Kind.NACK);
    assertThat(nack.rejectedVersion()).isEqualTo(v1.version());
    assertThat(nack.rejectedNames()).containsExactly("a");
    assertThat(state.plan(v1, CDS, true)).isEmpty();
    IndexedSnapshot v2 = indexed(edsCluster("a", 5));
    assertThat(state.plan(v2, CDS, true)).get().satisfies(p -> assertThat(p.resources()).containsOnlyKeys("a"));

    assertThat(ack("99")).isEqualTo(Reply.UNKNOWN_NONCE);
  }

  private Reply nack(String nonce) {
    return state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce(nonce)
        .setErrorDetail(Status.newBuilder().setMessage("bad")).build());
  }

  /**
   * gRFC A46 / Envoy: a proxy that NACKs a response still applies its valid resources, so after a NACK the
   * versions it holds of the resources in that response are unknown. Regression: a revert to what it had ACKed
   * before was "nothing changed", and the proxy kept the rejected response's valid parts.
   */
  @Test
  void afterANackARevertResendsEveryResourceOfTheRejectedResponse() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    ack("0");
    IndexedSnapshot v2 = indexed(edsCluster("a", 2), edsCluster("c"));
    var rejected = send(state.plan(v2, CDS, true), v2.version(), "1");
    assertThat(rejected.resources()).containsOnlyKeys("a", "c");
    assertThat(rejected.removed()).containsExactly("b");
    assertThat(nack("1").kind()).isEqualTo(Reply.Kind.NACK);
    assertThat(state.plan(v2, CDS, true)).as("the rejected version is not resent").isEmpty();

    IndexedSnapshot revert = indexed(edsCluster("a"), edsCluster("b"));
    assertThat(revert.version()).isEqualTo(v1.version());
    assertThat(state.plan(revert, CDS, true)).get().satisfies(p -> {
      assertThat(p.resources()).containsOnlyKeys("a", "b");
      assertThat(p.removed()).as("the proxy may have added c").containsExactly("c");
    });
  }

  @Test
  void resourcesOfAnAckedResponseAreKnownAgain() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    nack("0");
    IndexedSnapshot v2 = indexed(edsCluster("a", 2));
    send(state.plan(v2, CDS, true), v2.version(), "1");
    ack("1");
    assertThat(state.plan(v2, CDS, true)).isEmpty();
  }

  /** While the snapshot stays at the rejected version, only the rejected resources are held back. */
  @Test
  void aNewSubscriptionAtTheRejectedVersionIsAnswered() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesSubscribe("a").build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    send(state.plan(v1, CDS, false), v1.version(), "0");
    nack("0");
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesSubscribe("b").build());

    assertThat(state.plan(v1, CDS, false)).get().satisfies(p -> {
      assertThat(p.resources()).containsOnlyKeys("b");
      assertThat(p.removed()).isEmpty();
    });
  }

  private static IndexedSnapshot next(IndexedSnapshot previous, com.google.protobuf.Message... resources) {
    return IndexedSnapshot.of(snapshot(resources), previous);
  }

  @Test
  void aSyncedWildcardStreamGetsOnlyWhatChangedAddedOrWentAway() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"), edsCluster("c"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    ack("0");
    assertThat(state.plan(v1, CDS, true)).isEmpty();

    IndexedSnapshot v2 = next(v1, edsCluster("a"), edsCluster("b", 7), edsCluster("d"));
    var second = send(state.plan(v2, CDS, true), v2.version(), "1");
    assertThat(second.resources()).containsOnlyKeys("b", "d");
    assertThat(second.resources().get("b").version()).isEqualTo(v2.resourceVersion(CDS, "b"));
    assertThat(second.removed()).containsExactly("c");
    ack("1");

    IndexedSnapshot v3 = next(v2, edsCluster("a", 3), edsCluster("b", 7), edsCluster("d"));
    assertThat(send(state.plan(v3, CDS, true), v3.version(), "2").resources()).containsOnlyKeys("a");
  }

  @Test
  void aSubscriptionChangeAfterSyncIsAnsweredFromEveryNameNotJustTheChangedOnes() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesSubscribe("a").build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    send(state.plan(v1, CDS, false), v1.version(), "0");
    ack("0");
    IndexedSnapshot v2 = next(v1, edsCluster("a", 5), edsCluster("b"));
    send(state.plan(v2, CDS, false), v2.version(), "1");
    // The ACK also subscribes to "b", which did not change between v1 and v2 but was never sent.
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).setResponseNonce("1")
        .addResourceNamesSubscribe("b").build());
    var plan = send(state.plan(v2, CDS, false), v2.version(), "2");
    assertThat(plan.resources()).containsOnlyKeys("b");
    ack("2");
    assertThat(state.plan(v2, CDS, false)).isEmpty();
  }

  @Test
  void anUnackedResponseIsNotTakenAsHeldWhenTheNextSnapshotArrives() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    ack("0");
    IndexedSnapshot v2 = next(v1, edsCluster("a", 2), edsCluster("b"));
    send(state.plan(v2, CDS, true), v2.version(), "1");
    // v3 arrives before the ACK of "1": the stream's synced state is still v1, so "a" is sent again.
    IndexedSnapshot v3 = next(v2, edsCluster("a", 2), edsCluster("b", 3));
    assertThat(state.plan(v3, CDS, true)).get().satisfies(p -> assertThat(p.resources()).containsOnlyKeys("a", "b"));
  }

  @Test
  void aSyncedStreamKeepsNoMapOfWhatItHoldsAndStillAnswersExactly() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesSubscribe("a")
        .addResourceNamesSubscribe("b").build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"), edsCluster("c"));
    send(state.plan(v1, CDS, false), v1.version(), "0");
    assertThat(state.holdsMap()).isTrue();
    ack("0");
    assertThat(state.holdsMap()).as("synced: held = v1's a and b").isFalse();

    IndexedSnapshot v2 = next(v1, edsCluster("a", 2), edsCluster("c", 2));
    var second = send(state.plan(v2, CDS, false), v2.version(), "1");
    assertThat(second.resources()).containsOnlyKeys("a");
    assertThat(second.removed()).containsExactly("b");
    ack("1");
    assertThat(state.holdsMap()).isFalse();

    // Unsubscribing materialises the map again: "a" is no longer held, and later changes to it are not sent.
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesUnsubscribe("a")
        .addResourceNamesSubscribe("c").build());
    assertThat(state.holdsMap()).isTrue();
    var third = send(state.plan(v2, CDS, false), v2.version(), "2");
    assertThat(third.resources()).containsOnlyKeys("c");
    ack("2");
    IndexedSnapshot v3 = next(v2, edsCluster("a", 3), edsCluster("c", 2));
    assertThat(state.plan(v3, CDS, false)).isEmpty();
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesSubscribe("a").build());
    assertThat(send(state.plan(v3, CDS, false), v3.version(), "3").resources()).containsOnlyKeys("a");
  }

  @Test
  void aSyncedStreamAnswersASnapshotThatSkippedOneFromEveryName() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    send(state.plan(v1, CDS, true), v1.version(), "0");
    ack("0");
    assertThat(state.holdsMap()).isFalse();
    IndexedSnapshot v2 = next(v1, edsCluster("a", 2), edsCluster("b"));
    IndexedSnapshot v3 = next(v2, edsCluster("a", 2), edsCluster("c"));
    // v2 was never planned for this stream: v3 is compared with what it holds (v1), name by name.
    var plan = send(state.plan(v3, CDS, true), v3.version(), "1");
    assertThat(plan.resources()).containsOnlyKeys("a", "c");
    assertThat(plan.removed()).containsExactly("b");
  }

  @Test
  void heldNamesTheStreamDoesNotWantKeepTheMapSoTheirRemovalIsStillSent() {
    IndexedSnapshot v1 = indexed(edsCluster("a"), edsCluster("b"));
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).addResourceNamesSubscribe("a")
        .putInitialResourceVersions("b", v1.resourceVersion(CDS, "b")).build());
    send(state.plan(v1, CDS, false), v1.version(), "0");
    ack("0");
    assertThat(state.holdsMap()).as("b is held but not wanted: not what a synced snapshot says").isTrue();
    IndexedSnapshot v2 = next(v1, edsCluster("a"));
    assertThat(send(state.plan(v2, CDS, false), v2.version(), "1").removed()).containsExactly("b");
  }
  /**
   * Regression (issue 22): a wildcard stream remembered every name it was ever told was removed, so a long-lived
   * proxy's stream grew with every cluster ever deleted. It needs none of them: removals go to what it holds.
   */
  @Test
  void aWildcardStreamRemembersNoRemovedNameAfterManySnapshots() {
    state.onRequest(DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS).build());
    int nonce = 0;
    IndexedSnapshot previous = null;
    for (int i = 0; i < 2_000; i++) {
      IndexedSnapshot next = indexed(edsCluster("keep"), edsCluster("churn-" + i));
      var plan = send(state.plan(next, CDS, true), next.version(), Integer.toString(nonce));
      assertThat(plan.resources()).containsKey("churn-" + i);
      if (previous != null) {
        assertThat(plan.removed()).as("the previous name is still removed").containsExactly("churn-" + (i - 1));
      }
      assertThat(ack(Integer.toString(nonce++))).isEqualTo(Reply.OK);
      previous = next;
    }
    assertThat(state.toldAbsentCount()).isZero();
  }

  /**
   * Names subscribed by name that do not exist are reported once, and remembered only up to the bound: past it a
   * missing name costs the stream nothing and is reported again when the snapshot changes (a duplicate removal,
   * which the protocol lets the proxy ignore).
   */
  @Test
  void missingNamedSubscriptionsAreRememberedOnlyUpToTheBound() {
    int asked = DeltaTypeState.MAX_TOLD_ABSENT + 500;
    DeltaDiscoveryRequest.Builder subscribe = DeltaDiscoveryRequest.newBuilder().setTypeUrl(CDS);
    for (int i = 0; i < asked; i++) {
      subscribe.addResourceNamesSubscribe("ghost-" + i);
    }
    state.onRequest(subscribe.build());
    IndexedSnapshot v1 = indexed(edsCluster("a"));
    var first = send(state.plan(v1, CDS, false), v1.version(), "0");
    assertThat(first.removed()).hasSize(asked);
    ack("0");

    assertThat(state.toldAbsentCount()).isEqualTo(DeltaTypeState.MAX_TOLD_ABSENT);
    assertThat(state.plan(v1, CDS, false)).as("synced: nothing to send again").isEmpty();
    IndexedSnapshot v2 = indexed(edsCluster("a", 7));
    var again = state.plan(v2, CDS, false).orElseThrow();
    assertThat(again.resources()).isEmpty();
    assertThat(again.removed().size()).as("only the names past the bound are reported again").isEqualTo(500);
    assertThat(state.toldAbsentCount()).isEqualTo(DeltaTypeState.MAX_TOLD_ABSENT);
  }
}
