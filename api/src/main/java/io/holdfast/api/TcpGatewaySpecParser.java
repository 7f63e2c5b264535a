package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The {@code spec} of a TcpGateway. Upstream references are objects ({@code {name, namespace?}}), never bare
 * strings: a Kubernetes structural schema cannot declare a field that is either a string or an object, and file
 * mode reads the same shapes as the CRDs.
 */
final class TcpGatewaySpecParser {

  private static final Set<String> SPEC = Set.of("bindAddress", "port", "hosts", "proxyNames");
  private static final Set<String> HOST = Set.of("name", "sniDomains", "upstream", "split", "sslConfig",
      "sourcePrefixRanges");
  private static final Set<String> REF = Set.of("name", "namespace");
  private static final Set<String> TARGET = Set.of("upstream", "weight");

  private TcpGatewaySpecParser() {
  }

  static Optional<GatewayResource> parse(Metadata metadata, JsonNode spec, List<Problem> problems) {
    return Fields.of(spec, "spec", problems, SPEC).flatMap(fields -> {
      String bindAddress = fields.string("bindAddress").orElse(Gateway.DEFAULT_BIND_ADDRESS);
      Optional<Integer> port = fields.requiredInteger("port");
      Optional<List<TcpGateway.Host>> hosts = fields.list("hosts", true).flatMap(elements -> {
        List<TcpGateway.Host> parsed = new ArrayList<>();
        boolean ok = true;
        for (Fields.Element element : elements) {
          Optional<TcpGateway.Host> host = Fields.of(element.node(), element.path(), problems, HOST)
              .flatMap(TcpGatewaySpecParser::host);
          host.ifPresent(parsed::add);
          ok &= host.isPresent();
        }
        return ok ? Optional.of(parsed) : Optional.empty();
      });
      Optional<List<String>> proxyNames = ProxyNames.parse(fields);
      return port.flatMap(p -> hosts.flatMap(h -> proxyNames.map(names ->
          new TcpGateway(metadata, bindAddress, p, h, names))));
    });
  }

  private static Optional<TcpGateway.Host> host(Fields host) {
    Optional<String> name = host.requiredString("name");
    boolean hasSni = host.has("sniDomains");
    Optional<List<String>> sniDomains = hasSni ? host.stringList("sniDomains", false) : Optional.of(List.of());
    Optional<List<String>> sources = host.has("sourcePrefixRanges")
        ? host.stringList("sourcePrefixRanges", false) : Optional.of(List.of());
    Optional<RouteAction> destination = destination(host);
    Optional<Optional<SslConfig>> ssl = host.has("sslConfig")
        ? SslConfigParser.parse(host).map(Optional::of) : Optional.of(Optional.empty());
    return name.flatMap(n -> sniDomains.flatMap(s -> destination.flatMap(d -> ssl.flatMap(t -> sources.map(r ->
        new TcpGateway.Host(n, s, d, t, r))))));
  }

  /** Exactly one of {@code upstream: {name, namespace?}} and {@code split: [{upstream, weight}]}. */
  private static Optional<RouteAction> destination(Fields host) {
    boolean single = host.has("upstream");
    boolean split = host.has("split");
    if (single && split) {
      host.problem(host.path(), Reasons.CONFLICTING_FIELDS, "give either upstream or split, not both");
      return Optional.empty();
    }
    if (!single && !split) {
      host.problem(host.path(), Reasons.MISSING_FIELD, "one of upstream, split is required");
      return Optional.empty();
    }
    if (single) {
      return host.object("upstream", REF).flatMap(ref -> ObjectRefs.read(ref, "name")).map(RouteAction.Forward::new);
    }
    return host.list("split", false).flatMap(elements -> {
      List<RouteAction.WeightedTarget> targets = new ArrayList<>();
      boolean ok = true;
      for (Fields.Element element : elements) {
        Optional<RouteAction.WeightedTarget> target = Fields.of(element.node(), element.path(), host.problems(), TARGET)
            .flatMap(t -> {
              Optional<ObjectRef> ref = t.requiredObject("upstream", REF).flatMap(r -> ObjectRefs.read(r, "name"));
              Optional<Integer> weight = t.requiredInteger("weight");
              return ref.flatMap(r -> weight.map(w -> new RouteAction.WeightedTarget(r, w)));
            });
        target.ifPresent(targets::add);
        ok &= target.isPresent();
      }
      return ok ? Optional.of(new RouteAction.Split(targets)) : Optional.empty();
    });
  }
}
