package io.holdfast.api;

/** HTTP request methods a route can be restricted to (matched on the {@code :method} pseudo-header). */
public enum HttpMethod {
  GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH
}
