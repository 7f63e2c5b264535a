package io.holdfast.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** A proxy kept in front of a server that comes back on another port sends new connections there. */
class FaultProxyRetargetTest {
  private static int firstByteThrough(FaultProxy proxy, ServerSocket target) throws IOException {
    try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
         Socket accepted = target.accept()) {
      client.getOutputStream().write(42);
      client.getOutputStream().flush();
      return accepted.getInputStream().read();
    }
  }

  @Test
  void newConnectionsGoToTheNewTarget() throws IOException {
    try (ServerSocket first = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
         ServerSocket second = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
         FaultProxy proxy = FaultProxy.start("front", first.getLocalPort())) {
      first.setSoTimeout(5_000);
      second.setSoTimeout(5_000);
      assertThat(firstByteThrough(proxy, first)).isEqualTo(42);

      proxy.retarget(second.getLocalPort());

      assertThat(firstByteThrough(proxy, second)).isEqualTo(42);
      assertThatIllegalArgumentException().isThrownBy(() -> proxy.retarget(0)).withMessageContaining("1..65535");
    }
  }
}
