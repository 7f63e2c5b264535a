package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.AllowedRoutes;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.RouteNamespaces;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.ListenerState.Problem;
import io.holdfast.ir.SectionStatus.GroupKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Which listeners of Holdfast's Gateways a route's parentRefs attach it to. A parentRef to a Gateway Holdfast does
 * not program is another controller's and gets nothing from Holdfast. For one of Holdfast's: the listeners its
 * {@code sectionName} and {@code port} select ({@code NoMatchingParent} if none), of those the ones that accept
 * the route's kind and namespace ({@code NotAllowedByListeners}), of those the ones whose hostname intersects the
 * route's hostnames ({@code NoMatchingListenerHostname}). Pure.
 */
final class RouteAttachment {

  static final String NO_MATCHING_PARENT = "NoMatchingParent";
  static final String NOT_ALLOWED_BY_LISTENERS = "NotAllowedByListeners";
  static final String NO_MATCHING_LISTENER_HOSTNAME = "NoMatchingListenerHostname";
  /** The Gateway API's limit on a route's {@code spec.parentRefs} (maxItems in its CRDs). */
  static final int MAX_PARENT_REFS = 32;

  private RouteAttachment() {
  }

  /** One listener a route attaches to, with the hostnames it serves there. */
  record Attached(ListenerState listener, List<String> hostnames) {
  }

  /**
   * A parentRef naming one of Holdfast's Gateways, and what came of it.
   *
   * @param index the parentRef's position in {@code spec.parentRefs}
   */
  record Outcome(ParentReference ref, int index, ResourceKey gateway, Optional<Problem> notAccepted,
      List<Attached> attached) {

    String field() {
      return "spec.parentRefs[" + index + "]";
    }
  }

  /**
   * A parentRef that names no Gateway at all: one that does not exist (of any class) or one without a name. No
   * controller can answer it, so Holdfast reports it on the route (not as a parent entry: nobody owns it).
   */
  record Dangling(int index, Problem problem) {

    String field() {
      return Findings.join("spec.parentRefs[" + index + "]", problem.field());
    }
  }

  /** What a route's parentRefs come to: outcomes on Holdfast's Gateways, and the refs naming no Gateway. */
  record Attachment(List<Outcome> outcomes, List<Dangling> dangling) {

    /** Whether nothing of the route concerns Holdfast: no ref to one of its Gateways, none dangling. */
    boolean none() {
      return outcomes.isEmpty() && dangling.isEmpty();
    }
  }

  /** A Gateway Holdfast programs, with its listeners as checked in this build. */
  record OwnGateway(ResourceKey key, Optional<Instant> created, List<ListenerState> listeners) {
  }

  /**
   * @param existing every Gateway in the input, of any class: a ref to one of them that is not Holdfast's is
   *                 another controller's business; a ref to none of them dangles
   */
  static Attachment attach(GroupKind routeKind, ResourceKey route, List<ParentReference> refs,
      List<String> hostnames, Map<ResourceKey, OwnGateway> gateways, java.util.Set<ResourceKey> existing,
      Namespaces namespaces) {
    List<Outcome> outcomes = new ArrayList<>();
    List<Dangling> dangling = new ArrayList<>();
    for (int i = 0; i < refs.size(); i++) {
      ParentReference ref = refs.get(i);
      String group = Objects.requireNonNullElse(ref.getGroup(), GatewayApiFrontEnd.GROUP);
      String kind = Objects.requireNonNullElse(ref.getKind(), "Gateway");
      if (!group.equals(GatewayApiFrontEnd.GROUP) || !kind.equals("Gateway")) {
        continue;
      }
      if (ref.getName() == null || ref.getName().isEmpty()) {
        dangling.add(new Dangling(i, new Problem(NO_MATCHING_PARENT, "a parentRef needs the name of a Gateway",
            "name", Findings.MISSING_FIELD)));
        continue;
      }
      String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty()
          ? route.namespace() : ref.getNamespace();
      ResourceKey key = new ResourceKey(GatewayApiFrontEnd.GROUP, "Gateway", namespace, ref.getName());
      OwnGateway gateway = gateways.get(key);
      if (gateway != null) {
        outcomes.add(outcome(routeKind, route, ref, i, hostnames, gateway, namespaces));
      } else if (!existing.contains(key)) {
        dangling.add(new Dangling(i, new Problem(NO_MATCHING_PARENT, "Gateway " + namespace + "/" + ref.getName()
            + " does not exist", "name")));
      }
    }
    return new Attachment(outcomes, dangling);
  }

  private static Outcome outcome(GroupKind routeKind, ResourceKey route, ParentReference ref, int index,
      List<String> hostnames, OwnGateway gateway, Namespaces namespaces) {
    List<ListenerState> selected = gateway.listeners().stream()
        .filter(l -> ref.getSectionName() == null || ref.getSectionName().equals(l.name))
        .filter(l -> ref.getPort() == null || ref.getPort() == l.port)
        .toList();
    if (selected.isEmpty()) {
      return new Outcome(ref, index, gateway.key(), Optional.of(new Problem(NO_MATCHING_PARENT, "Gateway "
          + gateway.key().namespace() + "/" + gateway.key().name() + " has no listener"
          + (ref.getSectionName() == null ? "" : " named " + ref.getSectionName())
          + (ref.getPort() == null ? "" : " on port " + ref.getPort()),
          ref.getSectionName() != null ? "sectionName" : ref.getPort() != null ? "port" : "")), List.of());
    }
    List<ListenerState> allowing = selected.stream()
        .filter(ListenerState::accepted)
        .filter(l -> l.accepts(routeKind))
        .filter(l -> allowsNamespace(l, gateway.key().namespace(), route.namespace(), namespaces))
        .toList();
    if (allowing.isEmpty()) {
      return new Outcome(ref, index, gateway.key(), Optional.of(new Problem(NOT_ALLOWED_BY_LISTENERS, "no listener "
          + "selected on Gateway " + gateway.key().namespace() + "/" + gateway.key().name() + " allows "
          + routeKind.kind() + "s from namespace " + route.namespace())), List.of());
    }
    List<Attached> attached = new ArrayList<>();
    for (ListenerState listener : allowing) {
      List<String> served = Hostnames.intersect(listener.hostname, hostnames);
      if (!served.isEmpty()) {
        attached.add(new Attached(listener, served));
      }
    }
    if (attached.isEmpty()) {
      return new Outcome(ref, index, gateway.key(), Optional.of(new Problem(NO_MATCHING_LISTENER_HOSTNAME,
          "no hostname "
          + "of the route (" + String.join(", ", hostnames) + ") matches a selected listener's hostname")),
          List.of());
    }
    return new Outcome(ref, index, gateway.key(), Optional.empty(), attached);
  }

  private static boolean allowsNamespace(ListenerState listener, String gatewayNamespace, String routeNamespace,
      Namespaces namespaces) {
    AllowedRoutes allowed = listener.spec.getAllowedRoutes();
    RouteNamespaces from = allowed == null ? null : allowed.getNamespaces();
    String mode = from == null || from.getFrom() == null ? "Same" : from.getFrom();
    return switch (mode) {
      case "All" -> true;
      case "Selector" -> from.getSelector() != null && namespaces.selects(from.getSelector(), routeNamespace);
      case "Same" -> gatewayNamespace.equals(routeNamespace);
      default -> false;
    };
  }
}
