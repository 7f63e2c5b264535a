package io.holdfast.kube.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.SectionStatus;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.testkit.ApiWrite;
import io.holdfast.testkit.GatewayApiCrds;
import io.holdfast.testkit.MockKubeApi;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gateway API statuses written onto the emulated API: route parents merged with another controller's entry, listener
 * statuses, lastTransitionTime kept while a condition's status stays, and GatewayClass statuses only for ours.
 */
@ExtendWith(QuickAwait.class)
class GatewayApiStatusTest {

  private static final String G = GatewayCrds.GATEWAY_API_GROUP;
  private static final String OURS = "holdfast.test/gateway-controller";
  private static final String FOREIGN = "other.test/controller";
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final ResourceKey OUR_CLASS = new ResourceKey(G, "GatewayClass", "", "holdfast");
  private static final ResourceKey OTHER_CLASS = new ResourceKey(G, "GatewayClass", "", "other");
  private static final ResourceKey GATEWAY = new ResourceKey(G, "Gateway", "infra", "edge");
  private static final ResourceKey ROUTE = new ResourceKey(G, "HTTPRoute", "apps", "web");
  private static final ResourceKey THEIRS = new ResourceKey(G, "HTTPRoute", "apps", "theirs");

  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T10:00:00Z"));
  private final Clock clock = new Clock() {
    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  };

  @Test
  void parentsMergeWithAForeignEntryTimesStayAndOnlyOurClassesGetStatus() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      GatewayApiCrds.install(admin);
      create(admin, GatewayCrds.GATEWAY_CLASS, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: GatewayClass
          metadata: {name: holdfast}
          spec: {controllerName: %s}
          """.formatted(OURS));
      create(admin, GatewayCrds.GATEWAY_CLASS, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: GatewayClass
          metadata: {name: other}
          spec: {controllerName: %s}
          """.formatted(FOREIGN));
      create(admin, GatewayCrds.GATEWAY_API_GATEWAY, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: infra}
          spec: {gatewayClassName: holdfast, listeners: [{name: http, port: 80, protocol: HTTP}]}
          """);
      GenericKubernetesResource route = create(admin, GatewayCrds.HTTP_ROUTE, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: HTTPRoute
          metadata: {name: web, namespace: apps}
          spec:
            parentRefs: [{name: foreign-gw, namespace: infra}, {name: edge, namespace: infra, sectionName: http}]
          """);
      create(admin, GatewayCrds.HTTP_ROUTE, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: HTTPRoute
          metadata: {name: theirs, namespace: apps}
          spec: {parentRefs: [{name: foreign-gw, namespace: infra}]}
          """);
      // Another controller already reports on its parent.
      Map<String, Object> foreignEntry = Map.of(
          "parentRef", Map.of("group", G, "kind", "Gateway", "namespace", "infra", "name", "foreign-gw"),
          "controllerName", FOREIGN,
          "conditions", List.of(Map.of("type", "Accepted", "status", "True", "reason", "Accepted", "message", "ok",
              "observedGeneration", 1, "lastTransitionTime", "2025-06-01T00:00:00Z")));
      route.getAdditionalProperties().put("status", Map.of("parents", List.of(foreignEntry)));
      admin.genericKubernetesResources(GatewayCrds.HTTP_ROUTE).inNamespace("apps").resource(route).updateStatus();

      FakeLeadership leadership = new FakeLeadership();
      leadership.elect();
      try (StatusWriter writer = StatusWriter.builder(client, leadership).clock(clock).gatewayControllerName(OURS)
          .build().start()) {
        writer.publish(Map.of(
            OUR_CLASS, DesiredStatus.gatewayApi(classStatus(OUR_CLASS)),
            OTHER_CLASS, DesiredStatus.gatewayApi(classStatus(OTHER_CLASS)),
            GATEWAY, DesiredStatus.gatewayApi(gatewayStatus(1)),
            ROUTE, DesiredStatus.gatewayApi(routeStatus(Condition.Status.TRUE, "Accepted", "attached")),
            // A route naming none of our Gateways: nothing to remove, nothing written.
            THEIRS, DesiredStatus.gatewayApi(ObjectStatus.of(THEIRS, 1, List.of()))));
        await().atMost(WAIT).until(() -> parents(admin).size() == 2 && status(admin, OUR_CLASS) != null
            && status(admin, GATEWAY) != null);

        List<Map<String, Object>> parents = parents(admin);
        assertThat(parents.get(0)).isEqualTo(foreignEntry); // untouched and in place
        Map<String, Object> ours = parents.get(1);
        assertThat(ours.get("controllerName")).isEqualTo(OURS);
        assertThat(ours.get("parentRef")).isEqualTo(Map.of("group", G, "kind", "Gateway", "namespace", "infra",
            "name", "edge", "sectionName", "http"));
        Map<String, Object> accepted = condition(ours, "Accepted");
        assertThat(accepted).containsEntry("status", "True").containsEntry("reason", "Accepted")
            .containsEntry("observedGeneration", 1).containsEntry("lastTransitionTime", "2026-01-01T10:00:00Z");
        assertThat(condition(ours, "ResolvedRefs")).containsEntry("status", "True");

        Map<String, Object> gateway = status(admin, GATEWAY);
        assertThat(condition(gateway, "Programmed")).containsEntry("status", "True");
        @SuppressWarnings("unchecked")
        Map<String, Object> listener = ((List<Map<String, Object>>) gateway.get("listeners")).get(0);
        assertThat(listener).containsEntry("name", "http").containsEntry("attachedRoutes", 1)
            .containsEntry("supportedKinds", List.of(Map.of("group", G, "kind", "HTTPRoute")));
        assertThat(condition(listener, "Accepted")).containsEntry("observedGeneration", 1);
        assertThat(condition(status(admin, OUR_CLASS), "Accepted")).containsEntry("status", "True");

        // A later build with another message but the same condition status: the transition time stays.
        now.set(Instant.parse("2026-01-01T11:00:00Z"));
        writer.publish(Map.of(ROUTE, DesiredStatus.gatewayApi(routeStatus(Condition.Status.TRUE, "Accepted",
            "attached again"))));
        await().atMost(WAIT).until(() -> "attached again".equals(condition(parents(admin).get(1), "Accepted")
            .get("message")));
        assertThat(condition(parents(admin).get(1), "Accepted"))
            .containsEntry("lastTransitionTime", "2026-01-01T10:00:00Z");
        assertThat(parents(admin).get(0)).isEqualTo(foreignEntry);

        // The status changes: a new transition time.
        writer.publish(Map.of(ROUTE, DesiredStatus.gatewayApi(routeStatus(Condition.Status.FALSE,
            "NotAllowedByListeners", "no listener allows it"))));
        await().atMost(WAIT).until(() -> "False".equals(condition(parents(admin).get(1), "Accepted").get("status")));
        assertThat(condition(parents(admin).get(1), "Accepted"))
            .containsEntry("lastTransitionTime", "2026-01-01T11:00:00Z")
            .containsEntry("reason", "NotAllowedByListeners");

        // The route no longer names our Gateway: our entry goes, the foreign one stays.
        ObjectStatus detached = ObjectStatus.of(ROUTE, 2, List.of());
        writer.publish(Map.of(ROUTE, DesiredStatus.gatewayApi(detached)));
        await().atMost(WAIT).until(() -> parents(admin).size() == 1);
        assertThat(parents(admin)).containsExactly(foreignEntry);
      }
      // The other controller's class was never written, and every route status write was a /status PUT.
      assertThat(status(admin, OTHER_CLASS)).isNull();
      assertThat(api.writes()).filteredOn(w -> w.path().contains("/gatewayclasses/other")).isEmpty();
      assertThat(api.writes()).filteredOn(w -> w.path().contains("/httproutes/theirs/")).isEmpty();
      assertThat(status(admin, THEIRS)).isNull();
      assertThat(api.writes()).filteredOn(w -> w.path().contains("/httproutes/web") && w.succeeded())
          .extracting(ApiWrite::isStatus).containsOnly(true);
    }
  }

  /**
   * Regression: a finding added after the front end ({@code ObjectStatus.with}) rebuilt Accepted alone, so the
   * writer removed the Gateway's Programmed condition. Now a warning keeps every condition and its transition time;
   * an error (the IR leaving the Gateway out) turns Accepted and Programmed False, with a new time, and the
   * listener conditions stay as they were written.
   */
  @Test
  void aFindingAddedAfterTheFrontEndKeepsTheGatewaysOtherConditions() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      GatewayApiCrds.install(admin);
      create(admin, GatewayCrds.GATEWAY_API_GATEWAY, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: infra}
          spec: {gatewayClassName: holdfast, listeners: [{name: http, port: 80, protocol: HTTP}]}
          """);
      FakeLeadership leadership = new FakeLeadership();
      leadership.elect();
      try (StatusWriter writer = StatusWriter.builder(client, leadership).clock(clock).gatewayControllerName(OURS)
          .build().start()) {
        writer.publish(Map.of(GATEWAY, DesiredStatus.gatewayApi(gatewayStatus(1))));
        await().atMost(WAIT).until(() -> status(admin, GATEWAY) != null);

        now.set(Instant.parse("2026-01-01T11:00:00Z"));
        // A second route attached (something to write), and a warning added after the front end.
        writer.publish(Map.of(GATEWAY, DesiredStatus.gatewayApi(gatewayStatus(2).with(new io.holdfast.ir.Finding(
            io.holdfast.ir.Finding.Severity.WARNING, "", "FrontEndFailed", "its last good build is served")))));
        await().atMost(WAIT).until(() -> attachedRoutes(admin) == 2);
        Map<String, Object> warned = status(admin, GATEWAY);
        assertThat(condition(warned, "Programmed")).containsEntry("status", "True")
            .containsEntry("lastTransitionTime", "2026-01-01T10:00:00Z");
        assertThat(condition(warned, "Accepted")).containsEntry("lastTransitionTime", "2026-01-01T10:00:00Z");

        now.set(Instant.parse("2026-01-01T12:00:00Z"));
        ObjectStatus leftOut = gatewayStatus(1).with(new io.holdfast.ir.Finding(io.holdfast.ir.Finding.Severity.ERROR,
            "", "InternalError", "left out")).withCondition(new Condition(Condition.PROGRAMMED,
            Condition.Status.FALSE, "InternalError", "left out of the config sent to the proxies", 1));
        writer.publish(Map.of(GATEWAY, DesiredStatus.gatewayApi(leftOut)));
        await().atMost(WAIT).until(() -> "False".equals(condition(status(admin, GATEWAY), "Programmed")
            .get("status")));
        Map<String, Object> rejected = status(admin, GATEWAY);
        assertThat(condition(rejected, "Accepted")).containsEntry("status", "False")
            .containsEntry("reason", "InternalError").containsEntry("lastTransitionTime", "2026-01-01T12:00:00Z");
        assertThat(condition(rejected, "Programmed")).containsEntry("reason", "InternalError")
            .containsEntry("lastTransitionTime", "2026-01-01T12:00:00Z");
        @SuppressWarnings("unchecked")
        Map<String, Object> listener = ((List<Map<String, Object>>) rejected.get("listeners")).get(0);
        assertThat(condition(listener, "ResolvedRefs")).containsEntry("lastTransitionTime", "2026-01-01T10:00:00Z");
      }
      assertThat(api.writes()).filteredOn(w -> w.path().contains("/gateways/edge") && w.succeeded())
          .extracting(ApiWrite::isStatus).containsOnly(true).hasSize(3);
    }
  }

  /** A proxy NACKing what a Gateway generated: Programmed is False until a build the proxies accept. */
  @Test
  void aNackedGatewayIsNotProgrammedUntilTheNackClears() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      GatewayApiCrds.install(admin);
      create(admin, GatewayCrds.GATEWAY_API_GATEWAY, """
          apiVersion: gateway.networking.k8s.io/v1
          kind: Gateway
          metadata: {name: edge, namespace: infra}
          spec: {gatewayClassName: holdfast, listeners: [{name: http, port: 80, protocol: HTTP}]}
          """);
      FakeLeadership leadership = new FakeLeadership();
      leadership.elect();
      io.holdfast.ir.NackEvent nack = new io.holdfast.ir.NackEvent("proxy-1",
          "type.googleapis.com/envoy.config.listener.v3.Listener", "v7", List.of("infra/edge"),
          "Invalid listener", Instant.parse("2026-01-01T10:00:00Z"));
      try (StatusWriter writer = StatusWriter.builder(client, leadership).clock(clock).gatewayControllerName(OURS)
          .build().start()) {
        writer.publish(Map.of(GATEWAY, DesiredStatus.gatewayApi(gatewayStatus(1), List.of(), Optional.of(nack))));
        await().atMost(WAIT).until(() -> status(admin, GATEWAY) != null);
        Map<String, Object> nacked = status(admin, GATEWAY);
        assertThat(condition(nacked, "Programmed")).containsEntry("status", "False")
            .containsEntry("reason", DesiredStatus.NACKED_REASON);
        assertThat((String) condition(nacked, "Programmed").get("message")).contains("proxy-1").contains("v7")
            .contains("Invalid listener");
        assertThat(condition(nacked, "Accepted")).containsEntry("status", "True");

        now.set(Instant.parse("2026-01-01T11:00:00Z"));
        writer.publish(Map.of(GATEWAY, DesiredStatus.gatewayApi(gatewayStatus(1), List.of(), Optional.empty())));
        await().atMost(WAIT).until(() -> "True".equals(condition(status(admin, GATEWAY), "Programmed")
            .get("status")));
        assertThat(condition(status(admin, GATEWAY), "Programmed"))
            .containsEntry("lastTransitionTime", "2026-01-01T11:00:00Z");
      }
    }
  }

  @Test
  void aPolicyGetsItsConditionsAndOneAncestorPerTargetBesideAnotherControllersEntry() {
    try (MockKubeApi api = MockKubeApi.start();
         KubernetesClient client = new KubernetesClientBuilder().withConfig(MockKubeApi.configFor(api.port()))
             .build()) {
      KubernetesClient admin = api.admin();
      admin.apiextensions().v1().customResourceDefinitions().resource(
          io.holdfast.kube.source.CrdSchemaTestAccess.load("SecurityPolicy")).create();
      GenericKubernetesResource policy = create(admin, GatewayCrds.SECURITY_POLICY, """
          apiVersion: gateway.holdfast.io/v1
          kind: SecurityPolicy
          metadata: {name: deny, namespace: infra}
          spec:
            targetRefs:
              - {group: gateway.networking.k8s.io, kind: Gateway, name: edge}
              - {group: gateway.networking.k8s.io, kind: Gateway, name: gone}
            rbac: {action: Deny, rules: [{clientIp: [192.0.2.0/24]}]}
          """);
      Map<String, Object> foreignEntry = Map.of(
          "ancestorRef", Map.of("group", G, "kind", "Gateway", "namespace", "infra", "name", "edge"),
          "controllerName", FOREIGN,
          "conditions", List.of(Map.of("type", "Accepted", "status", "True", "reason", "Accepted", "message", "ok",
              "observedGeneration", 1, "lastTransitionTime", "2025-06-01T00:00:00Z")));
      policy.getAdditionalProperties().put("status", Map.of("ancestors", List.of(foreignEntry)));
      admin.genericKubernetesResources(GatewayCrds.SECURITY_POLICY).inNamespace("infra").resource(policy)
          .updateStatus();
      ResourceKey key = new ResourceKey(GatewayCrds.GROUP, "SecurityPolicy", "infra", "deny");
      ObjectStatus desired = new ObjectStatus(key, 1,
          List.of(new Condition("Accepted", Condition.Status.TRUE, "Accepted", "applies to at least one target", 1)),
          List.of(), List.of(
              new ParentStatus(GATEWAY, Optional.empty(),
                  List.of(new Condition("Accepted", Condition.Status.TRUE, "Accepted", "applied", 1))),
              new ParentStatus(new ResourceKey(G, "Gateway", "infra", "gone"), Optional.empty(),
                  List.of(new Condition("Accepted", Condition.Status.FALSE, "TargetNotFound", "no such Gateway",
                      1)))));

      FakeLeadership leadership = new FakeLeadership();
      leadership.elect();
      try (StatusWriter writer = StatusWriter.builder(client, leadership).clock(clock).gatewayControllerName(OURS)
          .build().start()) {
        writer.publish(Map.of(key, DesiredStatus.gatewayApi(desired)));
        await().atMost(WAIT).until(() -> status(admin, key) != null && status(admin, key).get("conditions") != null);
        Map<String, Object> status = status(admin, key);
        assertThat(condition(status, "Accepted")).containsEntry("status", "True").containsEntry("reason", "Accepted");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> ancestors = (List<Map<String, Object>>) status.get("ancestors");
        assertThat(ancestors).hasSize(3);
        assertThat(ancestors.get(0)).isEqualTo(foreignEntry); // another controller's: untouched
        assertThat(ancestors.get(1)).containsEntry("controllerName", OURS).containsEntry("ancestorRef",
            Map.of("group", G, "kind", "Gateway", "namespace", "infra", "name", "edge"));
        assertThat(condition(ancestors.get(2), "Accepted")).containsEntry("status", "False")
            .containsEntry("reason", "TargetNotFound");
      }
    }
  }

  private static ObjectStatus classStatus(ResourceKey key) {
    return ObjectStatus.of(key, 1, List.of()).withConditions(List.of(
        new Condition("SupportedVersion", Condition.Status.TRUE, "SupportedVersion", "v1", 1)));
  }

  private static ObjectStatus gatewayStatus(int attached) {
    Condition accepted = new Condition("Accepted", Condition.Status.TRUE, "Accepted", "accepted", 1);
    Condition programmed = new Condition("Programmed", Condition.Status.TRUE, "Programmed", "programmed", 1);
    return new ObjectStatus(GATEWAY, 1, List.of(accepted, programmed), List.of(), List.of(), List.of(
        new SectionStatus("http", List.of(accepted, programmed,
            new Condition("ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs", "resolved", 1)),
            List.of(new SectionStatus.GroupKind(G, "HTTPRoute")), attached)));
  }

  private static ObjectStatus routeStatus(Condition.Status status, String reason, String message) {
    return ObjectStatus.of(ROUTE, 1, List.of()).withParent(new ParentStatus(GATEWAY, Optional.of("http"),
        List.of(new Condition("Accepted", status, reason, message, 1),
            new Condition("ResolvedRefs", Condition.Status.TRUE, "ResolvedRefs", "resolved", 1))));
  }

  @SuppressWarnings("unchecked")
  private static long attachedRoutes(KubernetesClient admin) {
    Map<String, Object> status = status(admin, GATEWAY);
    return status == null ? -1
        : ((Number) ((List<Map<String, Object>>) status.get("listeners")).get(0).get("attachedRoutes")).longValue();
  }

  private static GenericKubernetesResource create(KubernetesClient admin, ResourceDefinitionContext kind,
      String yaml) {
    GenericKubernetesResource resource = admin.getKubernetesSerialization().unmarshal(yaml,
        GenericKubernetesResource.class);
    var op = admin.genericKubernetesResources(kind);
    return (Boolean.TRUE.equals(kind.isNamespaceScoped()) ? op.inNamespace(resource.getMetadata().getNamespace())
        : op).resource(resource).create();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> status(KubernetesClient admin, ResourceKey key) {
    ResourceDefinitionContext kind = GatewayCrds.context(key).orElseThrow();
    var op = admin.genericKubernetesResources(kind);
    GenericKubernetesResource r = (key.namespace().isEmpty() ? op : op.inNamespace(key.namespace()))
        .withName(key.name()).get();
    return r == null ? null : (Map<String, Object>) r.getAdditionalProperties().get("status");
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> parents(KubernetesClient admin) {
    Map<String, Object> status = status(admin, ROUTE);
    return status == null || status.get("parents") == null ? List.of()
        : (List<Map<String, Object>>) status.get("parents");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> condition(Map<String, Object> holder, String type) {
    return ((List<Map<String, Object>>) holder.get("conditions")).stream().filter(c -> type.equals(c.get("type")))
        .findFirst().orElseThrow();
  }
}
