package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.service;
import static io.holdfast.kube.source.KubeObjects.slice;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.holdfast.api.Endpoint;
import io.holdfast.kube.source.KubeObjects.Ep;
import java.util.List;
import org.junit.jupiter.api.Test;

class EndpointResolverTest {

  private static final List<Ep> THREE =
      List.of(new Ep("127.0.0.1", true), new Ep("127.0.0.2", null), new Ep("127.0.0.3", false));

  @Test
  void readyAndUnknownEndpointsOfTheNamedPortAreUsed() {
    var svc = service("demo", "echo", "http:80", "admin:9000");
    var slices = List.of(slice("demo", "echo-a", "echo", "http", 8080, THREE),
        slice("demo", "echo-b", "echo", "admin", 9090, List.of(new Ep("127.0.0.9", true))));

    assertThat(EndpointResolver.resolve(svc, slices, 80))
        .containsExactly(new Endpoint("127.0.0.1", 8080), new Endpoint("127.0.0.2", 8080));
    assertThat(EndpointResolver.resolve(svc, slices, 9000)).containsExactly(new Endpoint("127.0.0.9", 9090));
  }

  @Test
  void anUnnamedPortMatchesUnnamedSlicePorts() {
    var svc = service("demo", "echo", ":80");
    var slices = List.of(slice("demo", "echo-a", "echo", null, 8080, THREE));

    assertThat(EndpointResolver.resolve(svc, slices, 80)).hasSize(2);
  }

  @Test
  void endpointsInSeveralSlicesAreMergedOnceAndSorted() {
    var svc = service("demo", "echo", "http:80");
    var slices = List.of(slice("demo", "echo-b", "echo", "http", 8080, List.of(new Ep("127.0.0.5", true))),
        slice("demo", "echo-a", "echo", "http", 8080,
            List.of(new Ep("127.0.0.5", true), new Ep("127.0.0.4", true))));

    assertThat(EndpointResolver.resolve(svc, slices, 80))
        .containsExactly(new Endpoint("127.0.0.4", 8080), new Endpoint("127.0.0.5", 8080));
  }

  @Test
  void anUnknownServicePortOrUdpOrFqdnGivesNothing() {
    var svc = service("demo", "echo", "http:80");
    var slices = List.of(slice("demo", "echo-a", "echo", "http", 8080, THREE));
    assertThat(EndpointResolver.resolve(svc, slices, 81)).isEmpty();

    EndpointSlice udp = new EndpointSliceBuilder(slices.get(0))
        .withPorts(new EndpointPortBuilder().withName("http").withPort(8080).withProtocol("UDP").build()).build();
    assertThat(EndpointResolver.resolve(svc, List.of(udp), 80)).isEmpty();

    EndpointSlice fqdn = new EndpointSliceBuilder(slices.get(0)).withAddressType("FQDN").build();
    assertThat(EndpointResolver.resolve(svc, List.of(fqdn), 80)).isEmpty();
  }

  @Test
  void aSliceWithoutEndpointsOrPortsIsSkipped() {
    var svc = service("demo", "echo", "http:80");
    EndpointSlice empty = new EndpointSliceBuilder()
        .withNewMetadata().withNamespace("demo").withName("echo-x").endMetadata().withAddressType("IPv4").build();
    assertThat(EndpointResolver.resolve(svc, List.of(empty), 80)).isEmpty();
  }
}
