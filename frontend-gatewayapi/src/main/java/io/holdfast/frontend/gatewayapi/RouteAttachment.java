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

  private RouteAttachment() {
  }

  /** One listener a route attaches to, with the hostnames it serves there. */
  record Attached(ListenerState listener, List<String> hostnames) {
  }

  /** A parentRef naming one of Holdfast's Gateways, and what came of it. */
  record Outcome(ParentReference ref, ResourceKey gateway, Optional<Problem> notAccepted, List<Attached> attached) {
  }

  /** A Gateway Holdfast programs, with its listeners as checked in this build. */
  record OwnGateway(ResourceKey key, Optional<Instant> created, List<ListenerState> listeners) {
  }

  static List<Outcome> attach(GroupKind routeKind, ResourceKey route, List<ParentReference> refs,
      List<String> hostnames, Map<ResourceKey, OwnGateway> gateways, Namespaces namespaces) {
    List<Outcome> outcomes = new ArrayList<>();
    for (ParentReference ref : refs) {
      String group = Objects.requireNonNullElse(ref.getGroup(), GatewayApiFrontEnd.GROUP);
      String kind = Objects.requireNonNullElse(ref.getKind(), "Gateway");
      if (!group.equals(GatewayApiFrontEnd.GROUP) || !kind.equals("Gateway") || ref.getName() == null) {
        continue;
      }
      String namespace = ref.getNamespace() == null || ref.getNamespace().isEmpty()
          ? route.namespace() : ref.getNamespace();
      OwnGateway gateway = gateways.get(new ResourceKey(GatewayApiFrontEnd.GROUP, "Gateway", namespace,
          ref.getName()));
      if (gateway != null) {
        outcomes.add(outcome(routeKind, route, ref, hostnames, gateway, namespaces));
      }
    }
    return outcomes;
  }

  private static Outcome outcome(GroupKind routeKind, ResourceKey route, ParentReference ref, List<String> hostnames,
      OwnGateway gateway, Namespaces namespaces) {
    List<ListenerState> selected = gateway.listeners().stream()
        .filter(l -> ref.getSectionName() == null || ref.getSectionName().equals(l.name))
        .filter(l -> ref.getPort() == null || ref.getPort() == l.port)
        .toList();
    if (selected.isEmpty()) {
      return new Outcome(ref, gateway.key(), Optional.of(new Problem(NO_MATCHING_PARENT, "Gateway "
          + gateway.key().namespace() + "/" + gateway.key().name() + " has no listener"
          + (ref.getSectionName() == null ? "" : " named " + ref.getSectionName())
          + (ref.getPort() == null ? "" : " on port " + ref.getPort()))), List.of());
    }
    List<ListenerState> allowing = selected.stream()
        .filter(ListenerState::accepted)
        .filter(l -> l.accepts(routeKind))
        .filter(l -> allowsNamespace(l, gateway.key().namespace(), route.namespace(), namespaces))
        .toList();
    if (allowing.isEmpty()) {
      return new Outcome(ref, gateway.key(), Optional.of(new Problem(NOT_ALLOWED_BY_LISTENERS, "no listener "
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
      return new Outcome(ref, gateway.key(), Optional.of(new Problem(NO_MATCHING_LISTENER_HOSTNAME, "no hostname "
          + "of the route (" + String.join(", ", hostnames) + ") matches a selected listener's hostname")),
          List.of());
    }
    return new Outcome(ref, gateway.key(), Optional.empty(), attached);
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
