package io.holdfast.it.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.testkit.GatewayApiCrds;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

/**
 * Scenario 12: the Kubernetes Gateway API through an outage. A GatewayClass, a Gateway and an HTTPRoute serve
 * {@value #BEFORE}; every replica is cut off from the API; an HTTPRoute for {@value #LATE} is created on the API
 * meanwhile (replicas cannot see it: they keep serving what they had, with no failed call). After the API is back,
 * every replica serves the new route, its status lands on the API, and every status write on it came from one
 * replica: the leader.
 */
@ExtendWith(ProcessCleanup.class)
class GatewayApiDuringOutageIT {
  static final String BEFORE = "gw-before.test";
  static final String LATE = "gw-late.test";
  private static final String G = "/apis/gateway.networking.k8s.io/v1";
  private static final String NS = GatewayResources.NS;
  private static final String CONTROLLER = "holdfast.io/gateway-controller";
  private static final Duration OUTAGE = Duration.ofSeconds(15);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void anHttpRouteCreatedDuringAnOutageIsServedEverywhereAndGetsItsStatusFromOneLeader() {
    Reliability.Section section = new Reliability.Section("12", "Gateway API: an HTTPRoute created during an"
        + " outage", getClass());
    try (OutageCluster c = OutageCluster.start("s9-gateway-api", 3, List.of())) {
      try {
        GatewayApiCrds.all().forEach(crd -> submit(c, "POST",
            "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", SERIALIZATION.asJson(crd)));
        for (String backend : List.of("a", "b")) {
          submit(c, "POST", "/api/v1/namespaces/" + NS + "/services", json("""
              apiVersion: v1
              kind: Service
              metadata: {name: %1$s, namespace: %2$s}
              spec: {ports: [{name: grpc, port: 8080}]}
              """.formatted(backend, NS)));
          submit(c, "POST", "/apis/discovery.k8s.io/v1/namespaces/" + NS + "/endpointslices", json("""
              apiVersion: discovery.k8s.io/v1
              kind: EndpointSlice
              metadata: {name: %1$s-1, namespace: %2$s, labels: {kubernetes.io/service-name: %1$s}}
              addressType: IPv4
              ports: [{name: grpc, port: %3$d, protocol: TCP}]
              endpoints: [{addresses: [127.0.0.1], conditions: {ready: true}}]
              """.formatted(backend, NS, c.backend(backend).port())));
        }
        submit(c, "POST", G + "/gatewayclasses", json("""
            apiVersion: gateway.networking.k8s.io/v1
            kind: GatewayClass
            metadata: {name: holdfast}
            spec: {controllerName: %s}
            """.formatted(CONTROLLER)));
        submit(c, "POST", G + "/namespaces/" + NS + "/gateways", json("""
            apiVersion: gateway.networking.k8s.io/v1
            kind: Gateway
            metadata: {name: edge, namespace: %s}
            spec:
              gatewayClassName: holdfast
              listeners: [{name: http, port: 10090, protocol: HTTP}]
            """.formatted(NS)));
        submit(c, "POST", G + "/namespaces/" + NS + "/httproutes", route("before", BEFORE, "a"));
        awaitRouteAccepted(c, "before");
        c.clientsServed("pod-gw-", BEFORE);

        long cutAt = System.currentTimeMillis();
        c.cutAll();
        c.timeline().mark("harness", "API cut off for every replica");
        await("every replica follower").atMost(Duration.ofSeconds(10)).pollInterval(OutageCluster.POLL)
            .until(() -> c.leaders().isEmpty());
        submit(c, "POST", G + "/namespaces/" + NS + "/httproutes", route("late", LATE, "b"));
        c.timeline().mark("harness", "HTTPRoute late (" + LATE + " -> b) created on the API");
        c.hold(OUTAGE.minusMillis(System.currentTimeMillis() - cutAt), "outage");
        long succeededDuringOutage = c.succeededCalls();

        long restoredAt = System.currentTimeMillis();
        c.restoreAll();
        c.timeline().mark("harness", "API restored");
        Replica leader = c.leader();
        awaitRouteAccepted(c, "late");
        long acceptedAt = System.currentTimeMillis();
        for (CallClient late : c.clientsServed("pod-late-", LATE)) {
          assertThat(late.calls()).as(late.name() + " routed").filteredOn(CallClient.Call::ok)
              .extracting(CallClient.Call::backend).containsOnly("b");
        }
        long routedAt = System.currentTimeMillis();

        // The API's own record: every status write on the late route came from one replica, the leader.
        List<WriteRecord> statusWrites = c.api().writes().stream()
            .filter(w -> w.path().startsWith(G + "/namespaces/" + NS + "/httproutes/late/status")).toList();
        Set<String> writers = statusWrites.stream().map(WriteRecord::writer).collect(Collectors.toSet());
        assertThat(statusWrites).as("status writes on the late HTTPRoute").isNotEmpty();
        assertThat(writers).as("status writers of the late HTTPRoute").containsExactly(leader.identity());
        assertThat(c.allAlive()).as("no replica process exited").isTrue();
        assertThat(c.failedCalls()).as("failed client calls: %s", c.clients().stream()
            .flatMap(x -> x.failures().stream()).toList()).isZero();

        section.figure("replicas", c.replicas().size())
            .figure("outage length", Reliability.seconds(restoredAt - cutAt))
            .figure("client calls succeeded by the end of the outage", succeededDuringOutage)
            .figure("restore to HTTPRoute Accepted (status on the API)", Reliability.seconds(acceptedAt - restoredAt))
            .figure("restore to every replica routing it", Reliability.seconds(routedAt - restoredAt))
            .figure("status writes on the HTTPRoute / writers", statusWrites.size() + " / " + writers)
            .figure("failed calls", c.failedCalls())
            .passed();
      } finally {
        section.timeline(c.timeline());
      }
    } finally {
      section.write();
    }
  }

  private static String route(String name, String hostname, String backend) {
    return json("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata: {name: %s, namespace: %s}
        spec:
          parentRefs: [{name: edge, sectionName: http}]
          hostnames: [%s]
          rules: [{backendRefs: [{name: %s, port: 8080}]}]
        """.formatted(name, NS, hostname, backend));
  }

  /** Waits until the API holds the route's parent entry under Holdfast's controller name with Accepted=True. */
  private static void awaitRouteAccepted(OutageCluster c, String route) {
    await("HTTPRoute " + route + " Accepted by " + CONTROLLER).atMost(OutageCluster.CONVERGE)
        .pollInterval(Duration.ofMillis(200)).until(() -> accepted(c, route));
  }

  private static boolean accepted(OutageCluster c, String route) {
    JsonNode parents;
    try {
      parents = c.api().get(G + "/namespaces/" + NS + "/httproutes/" + route).path("status").path("parents");
    } catch (RuntimeException e) {
      return false;
    }
    for (JsonNode parent : parents) {
      if (CONTROLLER.equals(parent.path("controllerName").asString(""))) {
        for (JsonNode condition : parent.path("conditions")) {
          if ("Accepted".equals(condition.path("type").asString(""))
              && "True".equals(condition.path("status").asString(""))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static void submit(OutageCluster c, String method, String path, String json) {
    int code = c.api().submit(method, path, json);
    assertThat(code).as(method + " " + path).isIn(200, 201);
  }

  /** One YAML document as the single-line JSON the emulated API's standard input takes. */
  private static String json(String yaml) {
    return SERIALIZATION.asJson(SERIALIZATION.unmarshal(yaml, GenericKubernetesResource.class));
  }
}
