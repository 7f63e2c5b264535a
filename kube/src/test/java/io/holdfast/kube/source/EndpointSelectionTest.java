package io.holdfast.kube.source;

import static io.holdfast.kube.source.KubeObjects.podSlice;
import static io.holdfast.kube.source.KubeObjects.service;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.holdfast.api.Endpoint;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.UpstreamTarget;
import io.holdfast.kube.source.KubeObjects.PodEp;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A kube Upstream's selector narrows a Service's endpoints to those of the Pods carrying its labels (issue 27). */
class EndpointSelectionTest {

  private static final Map<String, Map<String, String>> PODS = Map.of(
      "demo/echo-canary", Map.of("app", "echo", "track", "canary"),
      "demo/echo-stable", Map.of("app", "echo", "track", "stable"),
      "demo/bare", Map.of());
  private static final EndpointResolver.PodLabels KNOWN = (ns, name) -> Optional.ofNullable(PODS.get(ns + "/" + name));

  private final io.fabric8.kubernetes.api.model.Service svc = service("demo", "echo", "http:80");
  private final List<EndpointSlice> slices = List.of(podSlice("demo", "echo-a", "echo", "http", 8080, List.of(
      new PodEp("127.0.0.1", "echo-canary"), new PodEp("127.0.0.2", "echo-stable"),
      new PodEp("127.0.0.3", null), new PodEp("127.0.0.4", "gone"), new PodEp("127.0.0.5", "bare"))));

  private List<Endpoint> resolve(Map<String, String> selector) {
    ServiceRef ref = ServiceRef.selecting("demo", "echo", 80, selector);
    return EndpointResolver.resolve(svc, slices, 80, EndpointResolver.selection(ref, KNOWN));
  }

  @Test
  void onlyEndpointsWhosePodCarriesEverySelectorLabelAreKept() {
    assertThat(resolve(Map.of("track", "canary"))).containsExactly(new Endpoint("127.0.0.1", 8080));
    assertThat(resolve(Map.of("app", "echo"))).containsExactly(new Endpoint("127.0.0.1", 8080),
        new Endpoint("127.0.0.2", 8080));
    assertThat(resolve(Map.of("app", "echo", "track", "stable"))).containsExactly(new Endpoint("127.0.0.2", 8080));
  }

  @Test
  void aSelectorNoPodMatchesGivesNoEndpoints() {
    assertThat(resolve(Map.of("track", "none"))).isEmpty();
    assertThat(resolve(Map.of("app", "echo", "track", "none"))).isEmpty();
    // A Pod without labels matches no non-empty selector (Gloo's whitelist check would take it: never widen).
    assertThat(resolve(Map.of("app", ""))).isEmpty();
  }

  @Test
  void anEmptySelectorNarrowsNothingAsInGloo() {
    assertThat(resolve(Map.of())).extracting(Endpoint::address)
        .containsExactly("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");
    assertThat(ServiceRef.selecting("demo", "echo", 80, Map.of())).isEqualTo(new ServiceRef("demo", "echo", 80));
  }

  @Test
  void anEndpointWithoutAPodTargetRefOrWithAnUnknownPodNeverMatches() {
    // 127.0.0.3 has no targetRef, 127.0.0.4's Pod is not known: neither is taken by a selector that takes all pods.
    EndpointResolver.PodLabels everyPodMatches = (ns, name) -> Optional.of(Map.of("app", "echo"));
    EndpointResolver.PodLabels knownOnly = (ns, name) -> name.equals("gone") ? Optional.empty()
        : everyPodMatches.of(ns, name);
    ServiceRef ref = ServiceRef.selecting("demo", "echo", 80, Map.of("app", "echo"));
    assertThat(EndpointResolver.resolve(svc, slices, 80, EndpointResolver.selection(ref, knownOnly)))
        .extracting(Endpoint::address).containsExactly("127.0.0.1", "127.0.0.2", "127.0.0.5");

    EndpointSlice nodeTarget = new EndpointSliceBuilder(slices.get(0)).editFirstEndpoint().editTargetRef()
        .withKind("Node").endTargetRef().endEndpoint().build();
    assertThat(EndpointResolver.resolve(svc, List.of(nodeTarget), 80, EndpointResolver.selection(ref, everyPodMatches)))
        .extracting(Endpoint::address).doesNotContain("127.0.0.1");
  }

  @Test
  void aTargetRefWithoutNamespaceIsLookedUpInTheSlicesNamespace() {
    EndpointSlice noNamespace = new EndpointSliceBuilder(slices.get(0)).editFirstEndpoint().editTargetRef()
        .withNamespace(null).endTargetRef().endEndpoint().build();
    ServiceRef ref = ServiceRef.selecting("demo", "echo", 80, Map.of("track", "canary"));
    assertThat(EndpointResolver.resolve(svc, List.of(noNamespace), 80, EndpointResolver.selection(ref, KNOWN)))
        .containsExactly(new Endpoint("127.0.0.1", 8080));
  }

  @Test
  void aSelectorOverTheBoundSelectsNothing() {
    Map<String, String> huge = new HashMap<>();
    for (int i = 0; i <= UpstreamTarget.Kube.MAX_SELECTOR_LABELS; i++) {
      huge.put("k" + i, "v");
    }
    assertThat(ServiceRef.selecting("demo", "echo", 80, huge).selects(new TreeMap<>(huge))).isFalse();
  }
}
