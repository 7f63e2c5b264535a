package io.holdfast.frontend.gatewayapi;

import com.google.re2j.Pattern;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.GRPCRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.holdfast.api.ResourceKey;
import io.holdfast.ir.Origin;
import io.holdfast.ir.Route;
import io.holdfast.ir.RouteMatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Routes written as YAML, an in-test {@link Backends}, and a request evaluator that applies sorted IR routes the
 * way the proxy does (first match in order wins; prefix, exact and full-match RE2 paths; header names
 * case-insensitive; query parameters by exact name).
 */
final class RouteFixtures {

  private static final ObjectMapper YAML = YAMLMapper.builder().build();

  private RouteFixtures() {
  }

  static HTTPRoute httpRoute(String yaml) {
    return YAML.readValue(yaml, HTTPRoute.class);
  }

  static GRPCRoute grpcRoute(String yaml) {
    return YAML.readValue(yaml, GRPCRoute.class);
  }

  static ResourceKey httpKey(String namespace, String name) {
    return new ResourceKey(GatewayApiFrontEnd.GROUP, "HTTPRoute", namespace, name);
  }

  static ResourceKey grpcKey(String namespace, String name) {
    return new ResourceKey(GatewayApiFrontEnd.GROUP, "GRPCRoute", namespace, name);
  }

  static LoweredRoute lowerHttp(String yaml, Backends backends) {
    HTTPRoute route = httpRoute(yaml);
    return RouteRules.http(route, httpKey(route.getMetadata().getNamespace(), route.getMetadata().getName()),
        backends);
  }

  static LoweredRoute lowerGrpc(String yaml, Backends backends) {
    GRPCRoute route = grpcRoute(yaml);
    return RouteRules.grpc(route, grpcKey(route.getMetadata().getNamespace(), route.getMetadata().getName()),
        backends);
  }

  /** The cluster key {@link FakeBackends} resolves a Service port to. */
  static ResourceKey cluster(String namespace, String service, int port) {
    return ResourceKey.core("Service", namespace, service + ":" + port);
  }

  /**
   * Resolves Services by name: unknown ones are BackendNotFound, another kind is InvalidKind, another namespace
   * without a grant is RefNotPermitted. Records every request.
   */
  static final class FakeBackends implements Backends {
    private final Set<String> services;
    private final Set<String> grantedNamespaces;
    final List<Backends.BackendProtocol> protocols = new ArrayList<>();
    final List<Origin> origins = new ArrayList<>();

    FakeBackends(Set<String> services, Set<String> grantedNamespaces) {
      this.services = services;
      this.grantedNamespaces = grantedNamespaces;
    }

    FakeBackends(String... services) {
      this(Set.of(services), Set.of());
    }

    @Override
    public BackendResolution resolve(String routeNamespace, BackendReference ref, BackendProtocol protocol,
        Origin origin) {
      protocols.add(protocol);
      origins.add(origin);
      String namespace = ref.namespaceOr(routeNamespace);
      if (!ref.isService()) {
        return new BackendResolution.Unresolved(BackendResolution.Reason.INVALID_KIND, "kind " + ref.kind());
      }
      if (!namespace.equals(routeNamespace) && !grantedNamespaces.contains(namespace)) {
        return new BackendResolution.Unresolved(BackendResolution.Reason.REF_NOT_PERMITTED, "no grant");
      }
      if (!services.contains(ref.name()) || ref.port().isEmpty()) {
        return new BackendResolution.Unresolved(BackendResolution.Reason.BACKEND_NOT_FOUND, "no " + ref.name());
      }
      return new BackendResolution.Resolved(cluster(namespace, ref.name(), ref.port().get()));
    }
  }

  /** A request as the proxy sees it; header names any case, the path with its query string. */
  record Request(String method, String pathAndQuery, Map<String, String> headers) {
    static Request get(String pathAndQuery) {
      return new Request("GET", pathAndQuery, Map.of());
    }

    Request with(String header, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(header, value);
      return new Request(method, pathAndQuery, more);
    }

    Request method(String newMethod) {
      return new Request(newMethod, pathAndQuery, headers);
    }

    String path() {
      int query = pathAndQuery.indexOf('?');
      return query < 0 ? pathAndQuery : pathAndQuery.substring(0, query);
    }

    Map<String, String> query() {
      Map<String, String> params = new LinkedHashMap<>();
      int start = pathAndQuery.indexOf('?');
      if (start >= 0) {
        for (String pair : pathAndQuery.substring(start + 1).split("&")) {
          int eq = pair.indexOf('=');
          params.putIfAbsent(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
        }
      }
      return params;
    }

    Optional<String> header(String name) {
      return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(Map.Entry::getValue).findFirst();
    }
  }

  /** The first route, in precedence order, that matches {@code request}. */
  static Optional<Route> select(List<RankedRoute> routes, Request request) {
    return routes.stream().sorted().map(RankedRoute::route).filter(r -> matches(r.match(), request)).findFirst();
  }

  /** Sorts the routes of several lowered routes together, as the front end does for one host. */
  static List<RankedRoute> merged(LoweredRoute... lowered) {
    List<RankedRoute> all = new ArrayList<>();
    for (LoweredRoute one : lowered) {
      all.addAll(one.routes());
    }
    return all.stream().sorted().toList();
  }

  static boolean matches(RouteMatch match, Request request) {
    String path = request.path();
    RouteMatch.PathMatch written = match.path();
    boolean pathMatches = written instanceof RouteMatch.PathMatch.Prefix ? path.startsWith(written.value())
        : written instanceof RouteMatch.PathMatch.Exact ? path.equals(written.value())
        : Pattern.compile(written.value()).matches(path);
    if (!pathMatches || !match.admitsMethod(request.method().toUpperCase(Locale.ROOT))) {
      return false;
    }
    for (RouteMatch.HeaderMatch header : match.headers()) {
      Optional<String> value = request.header(header.name());
      if (value.isEmpty() || !condition(header.condition(), value.get())) {
        return false;
      }
    }
    for (RouteMatch.QueryParameterMatch param : match.queryParameters()) {
      String value = request.query().get(param.name());
      if (value == null || !condition(param.condition(), value)) {
        return false;
      }
    }
    return true;
  }

  private static boolean condition(RouteMatch.Condition condition, String value) {
    if (condition instanceof RouteMatch.Exact exact) {
      return exact.value().equals(value);
    }
    if (condition instanceof RouteMatch.Prefix prefix) {
      return value.startsWith(prefix.value());
    }
    if (condition instanceof RouteMatch.Regex regex) {
      return Pattern.compile(regex.value()).matches(value);
    }
    return ((RouteMatch.Present) condition).present();
  }
}
