package io.holdfast.kube.status;

import io.holdfast.api.GatewayApiKinds;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Condition;
import io.holdfast.kube.source.GatewayCrds;
import io.holdfast.ir.ObjectStatus;
import io.holdfast.ir.ParentStatus;
import io.holdfast.ir.SectionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code status} of a Gateway API object, computed from its {@link ObjectStatus} and the status the object has
 * now, as the specification (gateway.networking.k8s.io/v1) shapes it. Pure: no I/O, the time comes in.
 *
 * <ul>
 *   <li>GatewayClass: {@code conditions}. Gateway: {@code conditions}, {@code listeners[]} (name,
 *       supportedKinds, attachedRoutes, conditions) and, when Holdfast knows them ({@link GatewayAddresses}),
 *       {@code addresses[]} (type, value). Fields Holdfast does not report are kept as they are.</li>
 *   <li>HTTPRoute, GRPCRoute, TLSRoute, TCPRoute: {@code parents[]}, shared with other controllers. Entries whose
 *       {@code controllerName} is another's are kept untouched and in place; each of ours is replaced in place by
 *       the new entry for the same parentRef, ours for parents no longer reported are removed, new ones are
 *       appended.</li>
 *   <li>Every condition carries {@code observedGeneration}; its {@code lastTransitionTime} is the previous one
 *       while the condition's status stays the same (the specification: the time the condition last changed from
 *       one status to another), else {@code now}.</li>
 * </ul>
 */
final class GatewayApiStatusDocument {

  static final String GROUP = "gateway.networking.k8s.io";
  private static final String PARENT_REF = "parentRef";
  private static final String ANCESTOR_REF = "ancestorRef";

  private GatewayApiStatusDocument() {
  }

  /**
   * The status the object should have.
   *
   * @param existing       the object's current {@code status} value (any JSON shape, or null)
   * @param controllerName the controller name route parent entries are written under
   * @return the new status; null only when {@code existing} is null and there is nothing to write
   */
  static Map<String, Object> compute(ObjectStatus desired, Object existing, String controllerName, Instant now) {
    return compute(desired, List.of(), existing, controllerName, now);
  }

  /** As {@link #compute(ObjectStatus, Object, String, Instant)}, a Gateway's {@code addresses} included. */
  static Map<String, Object> compute(ObjectStatus desired, List<GatewayAddresses.Address> addresses, Object existing,
      String controllerName, Instant now) {
    Map<String, Object> current = existing instanceof Map<?, ?> m ? copy(m) : new LinkedHashMap<>();
    if (GatewayApiKinds.isRoute(desired.key())) {
      List<Object> parents = entries(desired, current.get("parents"), controllerName, now, PARENT_REF);
      if (parents.isEmpty() && !current.containsKey("parents")) {
        // Nothing of ours to say on a route that has no parent entries: leave its status as it is (a route
        // of other controllers only must not get an empty status from Holdfast).
        return existing instanceof Map<?, ?> ? current : null;
      }
      current.put("parents", parents);
      return current;
    }
    current.put("conditions", conditions(desired.conditions(), current.get("conditions"), now));
    if (GatewayCrds.isPolicy(desired.key())) {
      // GEP-713's policy status: one entry per target (ancestor), shared with other controllers like route parents.
      current.put("ancestors", entries(desired, current.get("ancestors"), controllerName, now, ANCESTOR_REF));
      return current;
    }
    if (desired.key().kind().equals(GatewayApiKinds.GATEWAY.kind())) {
      current.put("listeners", listeners(desired.sections(), current.get("listeners"), now));
      if (!addresses.isEmpty()) {
        current.put("addresses", addresses.stream().map(GatewayApiStatusDocument::address).toList());
      }
    }
    return current;
  }

  private static Object address(GatewayAddresses.Address a) {
    Map<String, Object> address = new LinkedHashMap<>();
    address.put("type", a.type().name());
    address.put("value", a.value());
    return address;
  }

  /** Whether {@code gatewayClass}'s {@code spec.controllerName} (from its object) is {@code controllerName}. */
  static boolean isOurs(Object spec, String controllerName) {
    return spec instanceof Map<?, ?> m && controllerName.equals(m.get("controllerName"));
  }

  private static List<Object> listeners(List<SectionStatus> sections, Object existing, Instant now) {
    Map<String, Object> before = new LinkedHashMap<>();
    if (existing instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Map<?, ?> m && m.get("name") instanceof String name) {
          before.put(name, m.get("conditions"));
        }
      }
    }
    List<Object> out = new ArrayList<>();
    for (SectionStatus section : sections) {
      Map<String, Object> listener = new LinkedHashMap<>();
      listener.put("name", section.name());
      List<Object> kinds = new ArrayList<>();
      section.supportedKinds().forEach(k -> {
        Map<String, Object> kind = new LinkedHashMap<>();
        kind.put("group", k.group());
        kind.put("kind", k.kind());
        kinds.add(kind);
      });
      listener.put("supportedKinds", kinds);
      listener.put("attachedRoutes", section.attachedRoutes());
      listener.put("conditions", conditions(section.conditions(), before.get(section.name()), now));
      out.add(listener);
    }
    return out;
  }

  /**
   * A route's {@code parents} or a policy's {@code ancestors}: the entries of {@code desired.parents()} under
   * {@code refField}, other controllers' entries kept as they are.
   */
  private static List<Object> entries(ObjectStatus desired, Object existing, String controllerName, Instant now,
      String refField) {
    String routeNamespace = desired.key().namespace();
    Map<List<Object>, ParentStatus> wanted = new LinkedHashMap<>();
    for (ParentStatus parent : desired.parents()) {
      wanted.put(identity(parentRef(parent), routeNamespace), parent);
    }
    List<Object> out = new ArrayList<>();
    if (existing instanceof List<?> list) {
      for (Object item : list) {
        if (!(item instanceof Map<?, ?> entry) || !controllerName.equals(entry.get("controllerName"))) {
          out.add(item); // another controller's: not ours to change
          continue;
        }
        List<Object> id = identity(entry.get(refField), routeNamespace);
        ParentStatus replacement = wanted.remove(id);
        if (replacement != null) {
          out.add(parentEntry(replacement, entry.get("conditions"), controllerName, now, refField));
        } // else: a parent we no longer report on; our entry goes
      }
    }
    wanted.values().forEach(p -> out.add(parentEntry(p, null, controllerName, now, refField)));
    return out;
  }

  private static Map<String, Object> parentEntry(ParentStatus parent, Object existingConditions,
      String controllerName, Instant now, String refField) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put(refField, parentRef(parent));
    entry.put("controllerName", controllerName);
    entry.put("conditions", conditions(parent.conditions(), existingConditions, now));
    return entry;
  }

  private static Map<String, Object> parentRef(ParentStatus parent) {
    ResourceKey key = parent.parent();
    Map<String, Object> ref = new LinkedHashMap<>();
    ref.put("group", key.group());
    ref.put("kind", key.kind());
    ref.put("namespace", key.namespace());
    ref.put("name", key.name());
    parent.section().ifPresent(s -> ref.put("sectionName", s));
    parent.port().ifPresent(p -> ref.put("port", p));
    return ref;
  }

  /** A parentRef with the specification's defaults applied, so a written and a read one compare equal. */
  private static List<Object> identity(Object parentRef, String routeNamespace) {
    if (!(parentRef instanceof Map<?, ?> ref)) {
      return List.of();
    }
    Object port = ref.get("port");
    return List.of(string(ref.get("group"), GROUP), string(ref.get("kind"), "Gateway"),
        string(ref.get("namespace"), routeNamespace), string(ref.get("name"), ""),
        string(ref.get("sectionName"), ""), port instanceof Number n ? n.longValue() : -1L);
  }

  private static String string(Object value, String fallback) {
    return value instanceof String s && !s.isEmpty() ? s : fallback;
  }

  /**
   * The conditions in order, each with the previous {@code lastTransitionTime} of its type while its status is
   * unchanged.
   */
  static List<Object> conditions(List<Condition> conditions, Object existing, Instant now) {
    List<Object> out = new ArrayList<>();
    for (Condition c : conditions) {
      String status = status(c.status());
      Map<String, Object> condition = new LinkedHashMap<>();
      condition.put("type", c.type());
      condition.put("status", status);
      condition.put("reason", c.reason());
      condition.put("message", truncate(c.message()));
      condition.put("observedGeneration", c.observedGeneration());
      condition.put("lastTransitionTime", keptTime(existing, c.type(), status)
          .orElse(StatusDocument.timestamp(now)));
      out.add(condition);
    }
    return out;
  }

  private static Optional<String> keptTime(Object existing, String type, String status) {
    if (existing instanceof List<?> list) {
      for (Object item : list) {
        if (item instanceof Map<?, ?> m && type.equals(m.get("type"))) {
          return status.equals(m.get("status")) && m.get("lastTransitionTime") instanceof String s && !s.isEmpty()
              ? Optional.of(s) : Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  private static String status(Condition.Status status) {
    String name = status.name();
    return name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
  }

  /** The API's limit on a condition message is 32768 characters. */
  private static String truncate(String message) {
    return message.length() <= 32_768 ? message : message.substring(0, 32_765) + "...";
  }

  private static Map<String, Object> copy(Map<?, ?> m) {
    Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(Objects.toString(k), v));
    return out;
  }
}
