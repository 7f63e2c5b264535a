package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplicaStateTest {
  @Test
  void readsTheContractFields() {
    ReplicaState s = ReplicaState.parse("""
        {"identity":"r2","role":"leader","election":{"state":"LEADER","holder":"r2","term":3,
         "leaseTransitions":2,"secondsSinceRenew":0.1,"watchHealthy":true},
         "kube":{"synced":true,"staleSince":null,"lastContact":"2025-01-01T00:00:00Z"},
         "snapshotVersion":"abc","staleSince":null,"xdsStreams":2,
         "config":{"version":"abc","resources":{"VirtualService/demo/echo":{"state":"ACCEPTED","problems":[]},
           "Upstream/demo/a":{"state":"REJECTED","problems":["x"]}}}}
        """);
    assertThat(s.isLeader()).isTrue();
    assertThat(s.holder()).isEqualTo("r2");
    assertThat(s.term()).isEqualTo(3);
    assertThat(s.leaseTransitions()).isEqualTo(2);
    assertThat(s.kubeSynced()).isTrue();
    assertThat(s.xdsStreams()).isEqualTo(2);
    assertThat(s.resourceStates()).containsEntry("VirtualService/demo/echo", "ACCEPTED")
        .containsEntry("Upstream/demo/a", "REJECTED");
  }

  @Test
  void missingFieldsReadAsEmpty() {
    ReplicaState s = ReplicaState.parse("{\"role\":\"follower\"}");
    assertThat(s.isLeader()).isFalse();
    assertThat(s.holder()).isEmpty();
    assertThat(s.term()).isEqualTo(-1);
    assertThat(s.resourceStates()).isEmpty();
  }
}
