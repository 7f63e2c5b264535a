package io.holdfast.xds.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.envoyproxy.envoy.config.route.v3.RouteConfiguration;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A RouteConfiguration's digest is a hash tree over its virtual hosts ({@link XdsSnapshot#routeConfigurationDigest}):
 * equal content, equal digest; any change of a host, of their order or of the other fields changes it.
 */
class XdsSnapshotDigestTest {

  private static VirtualHost host(String name, String domain) {
    return VirtualHost.newBuilder().setName(name).addDomains(domain).build();
  }

  private static RouteConfiguration routes(String name, VirtualHost... hosts) {
    return RouteConfiguration.newBuilder().setName(name).addAllVirtualHosts(List.of(hosts)).build();
  }

  @Test
  void aRouteConfigurationsDigestIsTheTreeOfItsHostsDigests() {
    VirtualHost a = host("a", "a.test");
    VirtualHost b = host("b", "b.test");
    byte[] digest = XdsSnapshot.digest(routes("r", a, b));

    assertThat(digest).isEqualTo(XdsSnapshot.routeConfigurationDigest(routes("r"), List.of(
        XdsSnapshot.sha256().digest(XdsSnapshot.serialize(a)), XdsSnapshot.sha256().digest(XdsSnapshot.serialize(b)))));
    assertThat(XdsSnapshot.digest(routes("r", host("a", "a.test"), host("b", "b.test")))).isEqualTo(digest);
    assertThat(XdsSnapshot.digest(routes("r", b, a))).isNotEqualTo(digest);
    assertThat(XdsSnapshot.digest(routes("s", a, b))).isNotEqualTo(digest);
    assertThat(XdsSnapshot.digest(routes("r", a, host("b", "c.test")))).isNotEqualTo(digest);
    assertThat(XdsSnapshot.digest(routes("r", a, b).toBuilder().setIgnorePortInHostMatching(true).build()))
        .isNotEqualTo(digest);
  }

  @Test
  void otherResourcesAreHashedWhole() {
    VirtualHost a = host("a", "a.test");
    assertThat(XdsSnapshot.digest(a)).isEqualTo(XdsSnapshot.sha256().digest(XdsSnapshot.serialize(a)));
  }

  @Test
  void theTreeIsGivenTheConfigurationWithoutItsHosts() {
    assertThatThrownBy(() -> XdsSnapshot.routeConfigurationDigest(routes("r", host("a", "a.test")), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("still has its hosts");
  }
}
