package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/** The {@code spec} of a Gateway. */
final class GatewaySpecParser {

  private static final Set<String> SPEC = Set.of("bindAddress", "port", "virtualServices", "selector", "ssl",
      "proxyNames", "options", "grpcServer", "sourcePrefixRanges");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> SELECTOR = Set.of("matchLabels");

  private GatewaySpecParser() {
  }

  static Optional<GatewayResource> parse(Metadata metadata, JsonNode spec, List<Problem> problems) {
    return Fields.of(spec, "spec", problems, SPEC).flatMap(fields -> {
      String bindAddress = fields.string("bindAddress").orElse(Gateway.DEFAULT_BIND_ADDRESS);
      Optional<Integer> port = fields.requiredInteger("port");
      Optional<VirtualServiceSelection> selection = selection(fields);
      Optional<Boolean> ssl = fields.has("ssl") ? fields.bool("ssl") : Optional.of(false);
      Optional<List<String>> proxyNames = ProxyNames.parse(fields);
      Optional<TrafficOptions.Listener> options = TrafficOptionsParser.gateway(fields);
      Optional<Boolean> grpcServer = fields.has("grpcServer") ? fields.bool("grpcServer") : Optional.of(false);
      Optional<List<String>> sources = fields.has("sourcePrefixRanges")
          ? fields.stringList("sourcePrefixRanges", false) : Optional.of(List.of());
      return port.flatMap(p -> selection.flatMap(s -> ssl.flatMap(tls -> proxyNames.flatMap(names -> options.flatMap(o ->
          grpcServer.flatMap(grpc -> sources.map(r -> new Gateway(metadata, bindAddress, p, s, tls, names, o, grpc,
              r))))))));
    });
  }

  private static Optional<VirtualServiceSelection> selection(Fields fields) {
    boolean named = fields.has("virtualServices");
    boolean selector = fields.has("selector");
    if (named && selector) {
      fields.problem(fields.path(), Reasons.CONFLICTING_FIELDS, "give either virtualServices or selector, not both");
      return Optional.empty();
    }
    if (selector) {
      return fields.object("selector", SELECTOR)
          .flatMap(s -> s.has("matchLabels") ? s.stringMap("matchLabels") : Optional.of(Map.<String, String>of()))
          .map(VirtualServiceSelection.LabelSelector::new);
    }
    if (!named) {
      return Optional.of(new VirtualServiceSelection.AllInNamespace());
    }
    return fields.list("virtualServices", true).flatMap(elements -> {
      List<ObjectRef> refs = new ArrayList<>();
      boolean ok = true;
      for (Fields.Element element : elements) {
        Optional<ObjectRef> ref = ObjectRefs.parse(element, fields.problems(), REF, "name");
        ref.ifPresent(refs::add);
        ok &= ref.isPresent();
      }
      return ok ? Optional.of(new VirtualServiceSelection.Named(refs)) : Optional.empty();
    });
  }
}
