package io.holdfast.server.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import org.junit.jupiter.api.Test;

class ReplicaAddressesTest {
  private static InetAddress ip(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aServiceNameBecomesEveryAddressItResolvesToWithTheAdminPort() throws UnknownHostException {
    ReplicaAddresses.Resolved r = ReplicaAddresses.resolve("holdfast-admin.holdfast-system.svc", 9091,
        name -> new InetAddress[] {ip("192.0.2.12"), ip("2001:db8::1"), ip("192.0.2.11"), ip("192.0.2.12")});

    assertThat(r.addresses()).containsExactly("192.0.2.11:9091", "192.0.2.12:9091", "[2001:db8:0:0:0:0:0:1]:9091");
    assertThat(r.warnings()).isEmpty();
  }

  @Test
  void moreAddressesThanTheBoundAreCutWithAWarning() throws UnknownHostException {
    InetAddress[] many = new InetAddress[ReplicaAddresses.MAX_REPLICAS + 6];
    for (int i = 0; i < many.length; i++) {
      many[i] = ip("198.51.100." + (i + 1));
    }
    ReplicaAddresses.Resolved r = ReplicaAddresses.resolve("big", 9091, name -> many);

    assertThat(r.addresses()).hasSize(ReplicaAddresses.MAX_REPLICAS);
    assertThat(r.warnings()).singleElement().asString().contains("resolves to 70 addresses; asking the first 64");
  }

  @Test
  void replicaFlagsAreCheckedForShape() {
    assertThat(ReplicaAddresses.checkReplica("holdfast-0.holdfast:9091")).isEqualTo("holdfast-0.holdfast:9091");
    assertThat(ReplicaAddresses.checkReplica("[2001:db8::1]:9091")).isEqualTo("[2001:db8::1]:9091");
    assertThatThrownBy(() -> ReplicaAddresses.checkReplica("holdfast-0")).hasMessageContaining("host:port");
    assertThatThrownBy(() -> ReplicaAddresses.checkReplica("2001:db8::1:9091")).hasMessageContaining("brackets");
    assertThatThrownBy(() -> ReplicaAddresses.checkReplica("h:70000")).hasMessageContaining("1-65535");
  }
}
