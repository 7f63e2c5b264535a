package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.Gateway;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.Listener;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.RouteGroupKind;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.RouteNamespaces;
import io.holdfast.api.AccessPolicy;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.Reasons;
import io.holdfast.api.ResourceKey;
import io.holdfast.frontend.gatewayapi.ListenerState.Problem;
import io.holdfast.ir.Secret;
import io.holdfast.ir.SectionStatus.GroupKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The rules of a Gateway's listeners, each alone and then against each other. Alone: the protocol must be one
 * Holdfast serves (HTTP, HTTPS, TLS in Passthrough mode, TCP: {@code UnsupportedProtocol}; a TLS listener that
 * would terminate: {@code UnsupportedValue}), the port in range ({@code PortUnavailable}) and allowed by the
 * {@link AccessPolicy} ({@code PortUnavailable}, finding {@code PortNotPermitted}), the
 * hostname a DNS name; {@code allowedRoutes.kinds} lists route kinds the protocol supports (others are left out of
 * {@code supportedKinds} with ResolvedRefs=False {@code InvalidRouteKinds}); an HTTPS listener's certificates
 * resolve ({@link CertificateRefs}). Against each other: on one port, listeners of another protocol than the first
 * accepted one conflict ({@code ProtocolConflict}), and listeners of one protocol with the same hostname (or both
 * none) conflict ({@code HostnameConflict}; TCP listeners ignore hostnames, so two on one port conflict);
 * conflicted listeners are not served. TLS and HTTPS on one port is a {@code ProtocolConflict} (both would select
 * by SNI on one socket; the specification lets an implementation refuse the mix).
 */
final class ListenerRules {

  static final List<GroupKind> HTTP_KINDS = List.of(groupKind(GatewayApiKinds.HTTP_ROUTE),
      groupKind(GatewayApiKinds.GRPC_ROUTE));
  static final List<GroupKind> TLS_KINDS = List.of(groupKind(GatewayApiKinds.TLS_ROUTE));
  static final List<GroupKind> TCP_KINDS = List.of(groupKind(GatewayApiKinds.TCP_ROUTE));

  private static GroupKind groupKind(GatewayApiKinds.Kind kind) {
    return new GroupKind(GatewayApiKinds.GROUP, kind.kind());
  }

  private ListenerRules() {
  }

  static List<ListenerState> check(Gateway gateway, ResourceKey key, GatewayConfig config, ReferenceGrants grants,
      LastGood memory, Map<String, Secret> secrets, AccessPolicy policy) {
    List<Listener> specs = gateway.getSpec() == null || gateway.getSpec().getListeners() == null
        ? List.of() : gateway.getSpec().getListeners();
    List<ListenerState> listeners = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      ListenerState listener = new ListenerState(i, specs.get(i));
      alone(listener, key, config, grants, memory, secrets, policy);
      listeners.add(listener);
    }
    conflicts(listeners);
    return listeners;
  }

  private static void alone(ListenerState listener, ResourceKey key, GatewayConfig config, ReferenceGrants grants,
      LastGood memory, Map<String, Secret> secrets, AccessPolicy policy) {
    if (!List.of(ListenerState.HTTP, ListenerState.HTTPS, ListenerState.TLS, ListenerState.TCP)
        .contains(listener.protocol)) {
      listener.notAccepted = Optional.of(listener.protocol.isEmpty()
          ? new Problem("UnsupportedProtocol", "a listener needs a protocol", "protocol", Findings.MISSING_FIELD)
          : new Problem("UnsupportedProtocol", "protocol " + listener.protocol
              + " is not supported; Holdfast serves HTTP, HTTPS, TLS and TCP listeners", "protocol"));
      return;
    }
    if (listener.protocol.equals(ListenerState.TLS)) {
      String mode = listener.spec.getTls() == null || listener.spec.getTls().getMode() == null ? "Terminate"
          : listener.spec.getTls().getMode();
      if (!mode.equals("Passthrough")) {
        listener.notAccepted = Optional.of(new Problem("UnsupportedValue", "tls.mode " + mode
            + " is not supported on TLS listeners; Holdfast passes TLS through (tls.mode: Passthrough)", "tls.mode",
            mode.equals("Terminate") ? "UnsupportedValue" : Findings.INVALID_ENUM));
        return;
      }
    }
    if (listener.port < 1 || listener.port > 65535) {
      listener.notAccepted = Optional.of(listener.spec.getPort() == null
          ? new Problem("PortUnavailable", "a listener needs a port", "port", Findings.MISSING_FIELD)
          : new Problem("PortUnavailable", "port " + listener.port + " is out of range 1-65535", "port"));
      return;
    }
    String notPermitted = policy.listenerPortProblem(listener.port);
    if (notPermitted != null) {
      // The Gateway API's reason for a port the implementation cannot listen on; the finding names the setting.
      listener.notAccepted = Optional.of(new Problem("PortUnavailable", notPermitted, "port",
          Reasons.PORT_NOT_PERMITTED));
      return;
    }
    Optional<String> badHostname = listener.hostname.flatMap(Hostnames::problem);
    if (badHostname.isPresent()) {
      listener.notAccepted = Optional.of(new Problem("UnsupportedValue", badHostname.get(), "hostname"));
      return;
    }
    Optional<Problem> badNamespaces = namespacesProblem(listener);
    if (badNamespaces.isPresent()) {
      listener.notAccepted = badNamespaces;
      return;
    }
    kinds(listener);
    if (listener.protocol.equals(ListenerState.HTTPS)) {
      CertificateRefs.resolve(listener, key, config, grants, memory, secrets);
    }
  }

  /** What is wrong with {@code allowedRoutes.namespaces}: a {@code from} outside its enum, a Selector without one. */
  private static Optional<Problem> namespacesProblem(ListenerState listener) {
    RouteNamespaces namespaces = listener.spec.getAllowedRoutes() == null ? null
        : listener.spec.getAllowedRoutes().getNamespaces();
    if (namespaces == null || namespaces.getFrom() == null) {
      return Optional.empty();
    }
    String from = namespaces.getFrom();
    if (!List.of("All", "Same", "Selector").contains(from)) {
      return Optional.of(new Problem("UnsupportedValue", "allowedRoutes.namespaces.from " + from
          + " is not one of All, Same, Selector", "allowedRoutes.namespaces.from", Findings.INVALID_ENUM));
    }
    if (from.equals("Selector") && namespaces.getSelector() == null) {
      return Optional.of(new Problem("UnsupportedValue", "allowedRoutes.namespaces.from Selector needs a selector",
          "allowedRoutes.namespaces.selector", Findings.MISSING_FIELD));
    }
    return Optional.empty();
  }

  private static void kinds(ListenerState listener) {
    List<RouteGroupKind> written = listener.spec.getAllowedRoutes() == null
        || listener.spec.getAllowedRoutes().getKinds() == null
        ? List.of() : listener.spec.getAllowedRoutes().getKinds();
    List<GroupKind> protocolKinds = switch (listener.protocol) {
      case ListenerState.TLS -> TLS_KINDS;
      case ListenerState.TCP -> TCP_KINDS;
      default -> HTTP_KINDS;
    };
    if (written.isEmpty()) {
      listener.supportedKinds = protocolKinds;
      return;
    }
    List<GroupKind> supported = new ArrayList<>();
    List<String> invalid = new ArrayList<>();
    for (RouteGroupKind kind : written) {
      GroupKind groupKind = new GroupKind(Objects.requireNonNullElse(kind.getGroup(), GatewayApiFrontEnd.GROUP),
          Objects.requireNonNullElse(kind.getKind(), ""));
      if (protocolKinds.contains(groupKind)) {
        if (!supported.contains(groupKind)) {
          supported.add(groupKind);
        }
      } else {
        invalid.add(groupKind.group() + "/" + groupKind.kind());
      }
    }
    listener.supportedKinds = List.copyOf(supported);
    if (!invalid.isEmpty()) {
      listener.unresolvedRefs = Optional.of(new Problem("InvalidRouteKinds", "route kinds " + invalid
          + " are not supported on " + listener.protocol + " listeners (supported: "
          + protocolKinds.stream().map(GroupKind::kind).toList() + ")", "allowedRoutes.kinds"));
    }
  }

  private static void conflicts(List<ListenerState> listeners) {
    List<ListenerState> accepted = listeners.stream().filter(ListenerState::accepted).toList();
    for (ListenerState listener : accepted) {
      ListenerState first = accepted.stream().filter(l -> l.port == listener.port).findFirst().orElseThrow();
      if (!first.protocol.equals(listener.protocol)) {
        listener.conflict = Optional.of(new Problem("ProtocolConflict", "port " + listener.port + " is "
            + first.protocol + " for listener " + first.name + "; " + listener.protocol + " cannot share it",
            "protocol"));
        continue;
      }
      Optional<ListenerState> twin = accepted.stream()
          .filter(l -> l != listener && l.port == listener.port && l.protocol.equals(listener.protocol)
              && (l.hostname.equals(listener.hostname) || l.protocol.equals(ListenerState.TCP)))
          .findFirst();
      twin.ifPresent(other -> listener.conflict = Optional.of(new Problem("HostnameConflict", "listener "
          + other.name + " has the same port, protocol and hostname "
          + listener.hostname.orElse("(none)"), "hostname")));
    }
  }
}
