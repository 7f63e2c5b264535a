package io.holdfast.xds.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.rpc.Status;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ACK/NACK bookkeeping of one SotW stream and type, without gRPC. */
class SotwTypeStateTest {

  private static final SotwPlan PLAN_A = new SotwPlan(Fixtures.LDS, "v1", List.of(), List.of("r1"), "key-a");
  private static final SotwPlan PLAN_B = new SotwPlan(Fixtures.LDS, "v1", List.of(), List.of("r1"), "key-b");

  private final SotwTypeState state = new SotwTypeState();

  private static DiscoveryRequest request(String version, String nonce, String error) {
    var builder = DiscoveryRequest.newBuilder().setVersionInfo(version).setResponseNonce(nonce).addResourceNames("r1");
    if (error != null) {
      builder.setErrorDetail(Status.newBuilder().setMessage(error));
    }
    return builder.build();
  }

  /** Simulates the server sending plan at version under nonce. */
  private void send(SotwPlan plan, String version, String nonce) {
    state.sent(new SotwTypeState.Sent(version, plan.key(), plan.names()), nonce);
  }

  @Test
  void freshSubscriptionIsAnswered() {
    assertThat(state.onRequest(request("", "", null))).isEqualTo(Reply.OK);
    assertThat(state.shouldSend(PLAN_A, "v1", false)).isTrue();
  }

  @Test
  void ackedAnswerIsNotSentAgainButAChangedOneIs() {
    DiscoveryRequest first = request("", "", null);
    state.onRequest(first);
    send(PLAN_A, "v1", "0");
    assertThat(state.onRequest(request("v1", "0", null))).isEqualTo(Reply.OK);

    assertThat(state.shouldSend(PLAN_A, "v2", false)).isFalse();
    assertThat(state.shouldSend(PLAN_B, "v2", false)).isTrue();
    assertThat(state.shouldSend(PLAN_A, "v2", true)).as("EDS after a CDS push").isTrue();
  }

  @Test
  void nackBlocksTheRejectedVersionOnlyAndIsReportedOnce() {
    DiscoveryRequest first = request("", "", null);
    state.onRequest(first);
    send(PLAN_A, "v1", "0");

    Reply reply = state.onRequest(request("", "0", "bad route"));
    assertThat(reply).isEqualTo(Reply.nack("v1", List.of("r1")));
    assertThat(state.shouldSend(PLAN_A, "v1", false)).isFalse();
    assertThat(state.shouldSend(PLAN_A, "v1", true)).as("forcing never overrides a NACK").isFalse();
    assertThat(state.onRequest(request("", "0", "bad route"))).isEqualTo(Reply.REPEATED_NACK);
    assertThat(state.shouldSend(PLAN_A, "v2", false)).isTrue();
  }

  @Test
  void requestAfterANackWithTheSameNonceAcceptsNothing() {
    DiscoveryRequest first = request("", "", null);
    state.onRequest(first);
    send(PLAN_A, "v1", "0");
    state.onRequest(request("", "0", "bad"));
    // Envoy sends error_detail once; a later request (e.g. new names) has the same nonce and the old version.
    assertThat(state.onRequest(request("", "0", null))).isEqualTo(Reply.OK);
    assertThat(state.shouldSend(PLAN_A, "v2", false)).as("v1's content was never accepted").isTrue();
  }

  @Test
  void nackOfAnUnknownNonceIsReportedWithoutAVersion() {
    assertThat(state.onRequest(request("", "77", "stale"))).isEqualTo(Reply.nack("", List.of("r1")));
  }

  /**
   * gRFC A46 / Envoy: a proxy that NACKs a response still applies its valid resources, so after a NACK what it
   * holds is unknown. Regression: a revert to the answer it had ACKed before the NACK was never sent, leaving it
   * on the rejected response's valid parts.
   */
  @Test
  void afterANackARevertToThePreviouslyAckedAnswerIsSent() {
    DiscoveryRequest first = request("", "", null);
    state.onRequest(first);
    send(PLAN_A, "v1", "0");
    DiscoveryRequest ack = request("v1", "0", null);
    state.onRequest(ack);
    send(PLAN_B, "v2", "1");
    state.onRequest(request("v1", "1", "cluster h: unsupported lb policy"));

    assertThat(state.shouldSend(PLAN_B, "v2", false)).as("the rejected version is not resent").isFalse();
    assertThat(state.shouldSend(PLAN_A, "v1", false)).as("the proxy may hold parts of v2").isTrue();
  }

  /** The block on a rejected version lasts until the snapshot moves on, not for the life of the stream. */
  @Test
  void aRejectedVersionIsSentAgainAfterTheSnapshotMovedOnAndBack() {
    DiscoveryRequest first = request("", "", null);
    state.onRequest(first);
    send(PLAN_A, "v1", "0");
    DiscoveryRequest nack = request("", "0", "bad");
    state.onRequest(nack);
    assertThat(state.shouldSend(PLAN_B, "v2", false)).isTrue();
    send(PLAN_B, "v2", "1");
    state.onRequest(request("v2", "1", null));

    assertThat(state.shouldSend(PLAN_A, "v1", false)).as("v1 is current again; the proxy holds v2").isTrue();
  }

  /** A new question (other names) at the rejected version is not a resend of the rejected response. */
  @Test
  void aNewSubscriptionAtTheRejectedVersionIsAnswered() {
    DiscoveryRequest first = request("", "", null);
    state.onRequest(first);
    send(PLAN_A, "v1", "0");
    state.onRequest(request("", "0", "bad"));
    SotwPlan moreNames = new SotwPlan(Fixtures.LDS, "v1", List.of(), List.of("r1", "r2"), "key-a-and-r2");

    assertThat(state.shouldSend(PLAN_A, "v1", false)).isFalse();
    assertThat(state.shouldSend(moreNames, "v1", false)).isTrue();
  }
}
