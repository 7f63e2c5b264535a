package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** What a matched route does: exactly one of forward, split, redirect or direct response. */
public sealed interface RouteAction {

  /** {@code route: {upstream, namespace?}}: send everything to one upstream. */
  record Forward(ObjectRef upstream) implements RouteAction {
    public Forward {
      Objects.requireNonNull(upstream, "upstream");
    }
  }

  /** {@code split: [{upstream, namespace?, weight}]}: weighted traffic split; weights are relative. */
  record Split(List<WeightedTarget> targets) implements RouteAction {
    public Split {
      targets = List.copyOf(targets);
    }
  }

  record WeightedTarget(ObjectRef upstream, int weight) {
    public WeightedTarget {
      Objects.requireNonNull(upstream, "upstream");
    }
  }

  /**
   * {@code redirect}: answer with a redirect. {@code path} replaces the whole path, {@code prefixRewrite} only
   * the matched prefix (at most one of them).
   *
   * @param responseCode 301 (default), 302, 303, 307 or 308
   */
  record Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite,
      int responseCode, boolean httpsRedirect) implements RouteAction {
    public static final int DEFAULT_RESPONSE_CODE = 301;

    public Redirect {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(prefixRewrite, "prefixRewrite");
    }
  }

  /** {@code directResponse: {status, body?}}: answer without contacting any upstream. */
  record DirectResponse(int status, Optional<String> body) implements RouteAction {
    public DirectResponse {
      Objects.requireNonNull(body, "body");
    }
  }

  /** Every upstream this action sends traffic to, in order. */
  default List<ObjectRef> upstreams() {
    if (this instanceof Forward forward) {
      return List.of(forward.upstream());
    }
    if (this instanceof Split split) {
      return split.targets().stream().map(WeightedTarget::upstream).toList();
    }
    return List.of();
  }
}
