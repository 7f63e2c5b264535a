package io.holdfast.api;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/** The {@code spec} of an Upstream. */
final class UpstreamSpecParser {

  private static final Set<String> SPEC = Stream.concat(
      Stream.of("static", "kube", "loadBalancing", "connectTimeout", "http2"),
      UpstreamOptionsParser.FIELDS.stream()).collect(Collectors.toUnmodifiableSet());
  private static final Set<String> STATIC = Set.of("hosts");
  private static final Set<String> HOST = Set.of("address", "port", "weight");
  private static final Set<String> KUBE = Set.of("namespace", "name", "port", "selector");

  private UpstreamSpecParser() {
  }

  static Optional<GatewayResource> parse(Metadata metadata, JsonNode spec, List<Problem> problems) {
    return Fields.of(spec, "spec", problems, SPEC).flatMap(fields -> {
      Optional<UpstreamTarget> target = target(fields);
      LoadBalancing lb = fields.string("loadBalancing").flatMap(text -> loadBalancing(fields, text))
          .orElse(LoadBalancing.ROUND_ROBIN);
      Duration connectTimeout = fields.duration("connectTimeout").orElse(Upstream.DEFAULT_CONNECT_TIMEOUT);
      boolean http2 = fields.bool("http2").orElse(false);
      Optional<UpstreamOptions> options = UpstreamOptionsParser.parse(fields);
      return target.flatMap(t -> options.map(o -> new Upstream(metadata, t, lb, connectTimeout, http2, o)));
    });
  }

  private static Optional<UpstreamTarget> target(Fields fields) {
    boolean hasStatic = fields.has("static");
    boolean hasKube = fields.has("kube");
    if (hasStatic && hasKube) {
      fields.problem(fields.path(), Reasons.CONFLICTING_FIELDS, "give either static or kube, not both");
      return Optional.empty();
    }
    if (hasKube) {
      return fields.object("kube", KUBE).flatMap(kube -> {
        Optional<String> namespace = kube.string("namespace");
        Optional<String> name = kube.requiredString("name");
        Optional<Integer> port = kube.requiredInteger("port");
        Optional<Map<String, String>> selector = kube.has("selector") ? kube.stringMap("selector")
            : Optional.of(Map.of());
        if (name.isEmpty() || port.isEmpty() || selector.isEmpty()) {
          return Optional.empty();
        }
        return Optional.of(new UpstreamTarget.Kube(namespace, name.get(), port.get(), new TreeMap<>(selector.get())));
      });
    }
    if (!hasStatic) {
      fields.problem(fields.path(), Reasons.MISSING_FIELD, "one of static or kube is required");
      return Optional.empty();
    }
    return fields.object("static", STATIC)
        .flatMap(s -> s.list("hosts", true))
        .flatMap(elements -> hosts(elements, fields.problems()));
  }

  private static Optional<UpstreamTarget> hosts(List<Fields.Element> elements, List<Problem> problems) {
    List<UpstreamTarget.Host> hosts = new ArrayList<>();
    boolean ok = true;
    for (Fields.Element element : elements) {
      Optional<UpstreamTarget.Host> host = Fields.of(element.node(), element.path(), problems, HOST)
          .flatMap(h -> {
            Optional<String> address = h.requiredString("address");
            Optional<Integer> port = h.requiredInteger("port");
            int weight = h.integer("weight").orElse(1);
            return address.flatMap(a -> port.map(p -> new UpstreamTarget.Host(a, p, weight)));
          });
      host.ifPresent(hosts::add);
      ok &= host.isPresent();
    }
    return ok ? Optional.of(new UpstreamTarget.Static(hosts)) : Optional.empty();
  }

  private static Optional<LoadBalancing> loadBalancing(Fields fields, String text) {
    try {
      return Optional.of(LoadBalancing.valueOf(text));
    } catch (IllegalArgumentException e) {
      fields.problem(fields.path("loadBalancing"), Reasons.INVALID_VALUE, "unknown load balancing \"" + text
          + "\" (expected one of " + Arrays.stream(LoadBalancing.values()).map(Enum::name)
          .collect(Collectors.joining(", ")) + ")");
      return Optional.empty();
    }
  }
}
