package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.gatewayapi.v1.BackendRef;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.ParentReference;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.TCPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.TLSRoute;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayApiKinds;
import io.holdfast.frontend.gatewayapi.Models.Parsed;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A TLSRoute or TCPRoute, read into what its lowering needs: parentRefs, hostnames (TLSRoute's SNI names; none for
 * TCPRoute) and each rule's backendRefs. The served versions ({@link #TLS_ROUTE_VERSIONS},
 * {@link #TCP_ROUTE_VERSIONS}) have the same fields as fabric8's v1 models, which read all of them; another
 * apiVersion is not one Holdfast knows and is ignored.
 */
record StreamRoute(ApiObject object, Parsed<?> parsed, List<ParentReference> parentRefs, List<String> hostnames,
    List<List<BackendRef>> rules) {

  /** The TLSRoute versions the upstream CRDs serve (v1 standard since v1.5; v1alpha2/v1alpha3 experimental). */
  static final List<String> TLS_ROUTE_VERSIONS = List.of("v1", "v1alpha3", "v1alpha2");
  /** The TCPRoute versions the upstream CRDs serve (experimental). */
  static final List<String> TCP_ROUTE_VERSIONS = List.of("v1", "v1alpha2");

  /** The route, if {@code object} is a TLSRoute or TCPRoute of a known version that can be read. */
  static Optional<StreamRoute> parse(ApiObject object) {
    String kind = object.key().kind();
    String apiVersion = object.at("/apiVersion").asString("");
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    if (kind.equals(GatewayApiKinds.TLS_ROUTE.kind()) && TLS_ROUTE_VERSIONS.contains(version)) {
      return Models.parse(object, TLSRoute.class).parsed().map(p -> {
        var spec = p.model().getSpec();
        return new StreamRoute(object, p, spec == null ? List.of() : orEmpty(spec.getParentRefs()),
            spec == null ? List.of() : orEmpty(spec.getHostnames()),
            spec == null ? List.of() : orEmpty(spec.getRules()).stream()
                .map(r -> orEmpty(r.getBackendRefs())).toList());
      });
    }
    if (kind.equals(GatewayApiKinds.TCP_ROUTE.kind()) && TCP_ROUTE_VERSIONS.contains(version)) {
      return Models.parse(object, TCPRoute.class).parsed().map(p -> {
        var spec = p.model().getSpec();
        return new StreamRoute(object, p, spec == null ? List.of() : orEmpty(spec.getParentRefs()), List.of(),
            spec == null ? List.of() : orEmpty(spec.getRules()).stream()
                .map(r -> orEmpty(r.getBackendRefs())).toList());
      });
    }
    return Optional.empty();
  }

  /** Why {@code object}, a TLSRoute or TCPRoute of a known version, cannot be read; empty otherwise. */
  static Optional<String> unreadable(ApiObject object) {
    String kind = object.key().kind();
    String apiVersion = object.at("/apiVersion").asString("");
    String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
    if (kind.equals(GatewayApiKinds.TLS_ROUTE.kind()) && TLS_ROUTE_VERSIONS.contains(version)) {
      return Models.parse(object, TLSRoute.class).problem();
    }
    if (kind.equals(GatewayApiKinds.TCP_ROUTE.kind()) && TCP_ROUTE_VERSIONS.contains(version)) {
      return Models.parse(object, TCPRoute.class).problem();
    }
    return Optional.empty();
  }

  private static <T> List<T> orEmpty(List<T> list) {
    return Objects.requireNonNullElse(list, List.of());
  }
}
