package io.holdfast.testkit;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * One request as the emulated API received it (reads included), for checking what a client asked for: which
 * paths, with which selectors, and whether its RBAC grants it ({@link RbacRules}).
 *
 * @param userAgent the client's {@code User-Agent}, empty if it sent none
 * @param path      the path with its query, as sent
 * @param code      the HTTP status the API answered (101 for a watch upgraded to a WebSocket), 0 if none
 */
public record ApiRequest(String userAgent, String method, String path, int code) {

  /** The path without its query. */
  public String resourcePath() {
    return KubeApiDispatcher.withoutQuery(path);
  }

  /** A query parameter, decoded; empty if absent. */
  public Optional<String> query(String name) {
    int q = path.indexOf('?');
    if (q < 0) {
      return Optional.empty();
    }
    return Arrays.stream(path.substring(q + 1).split("&"))
        .filter(p -> p.startsWith(name + "="))
        .map(p -> URLDecoder.decode(p.substring(name.length() + 1), StandardCharsets.UTF_8))
        .findFirst();
  }

  /** A GET with {@code watch=true}. */
  public boolean isWatch() {
    return "GET".equalsIgnoreCase(method) && KubeApiDispatcher.isWatch(path);
  }
}
