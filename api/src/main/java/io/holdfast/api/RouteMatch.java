package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a request must look like for a route to apply: all given conditions must hold. Without a path
 * condition the path is not constrained (prefix {@code /}).
 */
public record RouteMatch(Optional<PathMatch> path, List<HeaderMatch> headers, List<HttpMethod> methods,
    List<QueryParameterMatch> queryParameters) {

  public RouteMatch {
    Objects.requireNonNull(path, "path");
    headers = List.copyOf(headers);
    methods = List.copyOf(methods);
    queryParameters = List.copyOf(queryParameters);
  }

  /** A match without query-parameter conditions. */
  public RouteMatch(Optional<PathMatch> path, List<HeaderMatch> headers, List<HttpMethod> methods) {
    this(path, headers, methods, List.of());
  }

  public static RouteMatch prefix(String prefix) {
    return new RouteMatch(Optional.of(new PathMatch.Prefix(prefix)), List.of(), List.of());
  }

  public static RouteMatch exact(String path) {
    return new RouteMatch(Optional.of(new PathMatch.Exact(path)), List.of(), List.of());
  }

  public static RouteMatch regex(String regex) {
    return new RouteMatch(Optional.of(new PathMatch.Regex(regex)), List.of(), List.of());
  }

  public RouteMatch withHeaders(List<HeaderMatch> newHeaders) {
    return new RouteMatch(path, newHeaders, methods, queryParameters);
  }

  public RouteMatch withMethods(List<HttpMethod> newMethods) {
    return new RouteMatch(path, headers, newMethods, queryParameters);
  }

  public RouteMatch withQueryParameters(List<QueryParameterMatch> newQueryParameters) {
    return new RouteMatch(path, headers, methods, newQueryParameters);
  }

  /** Whether a gRPC call can match: gRPC calls are always POST, so not when methods are given without POST. */
  public boolean admitsGrpcCalls() {
    return methods.isEmpty() || methods.contains(HttpMethod.POST);
  }

  /** True when nothing at all is constrained; validation rejects that (write {@code prefix: /}). */
  public boolean isEmpty() {
    return path.isEmpty() && headers.isEmpty() && methods.isEmpty() && queryParameters.isEmpty();
  }
}
