package io.holdfast.api;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/** What a matched route does: exactly one of forward, split, redirect, direct response or delegate. */
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
   * @param stripQuery   leave the request's query string out of the redirect's location
   */
  record Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite,
      int responseCode, boolean httpsRedirect, boolean stripQuery) implements RouteAction {
    public static final int DEFAULT_RESPONSE_CODE = 301;

    public Redirect {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(prefixRewrite, "prefixRewrite");
    }

    /** A redirect keeping the query string. */
    public Redirect(Optional<String> host, Optional<String> path, Optional<String> prefixRewrite, int responseCode,
        boolean httpsRedirect) {
      this(host, path, prefixRewrite, responseCode, httpsRedirect, false);
    }
  }

  /** {@code directResponse: {status, body?}}: answer without contacting any upstream. */
  record DirectResponse(int status, Optional<String> body) implements RouteAction {
    public DirectResponse {
      Objects.requireNonNull(body, "body");
    }
  }

  /**
   * {@code delegate: {ref} | {selector}}: hand the matched prefix to RouteTables, whose routes are served in this
   * route's place (see {@link RouteTable}).
   */
  record Delegate(DelegateTarget target) implements RouteAction {
    public Delegate {
      Objects.requireNonNull(target, "target");
    }
  }

  /** Which RouteTables a {@link Delegate} names: one by reference, or all a label selector matches. */
  sealed interface DelegateTarget {
  }

  /** {@code ref: {name, namespace?}}; without a namespace, the delegating object's own. */
  record DelegateRef(ObjectRef ref) implements DelegateTarget {
    public DelegateRef {
      Objects.requireNonNull(ref, "ref");
    }
  }

  /**
   * {@code selector: {matchLabels?, namespaces?}}: every RouteTable carrying all the labels (none: every one), in
   * the given namespaces ({@code "*"}: all; none given: the delegating object's own).
   */
  record DelegateSelector(Map<String, String> matchLabels, List<String> namespaces) implements DelegateTarget {
    public static final String ANY_NAMESPACE = "*";

    public DelegateSelector {
      matchLabels = Collections.unmodifiableMap(new TreeMap<>(matchLabels));
      namespaces = List.copyOf(namespaces);
    }

    /** Whether this selector, written in {@code ownerNamespace}, picks {@code table}. */
    public boolean selects(String ownerNamespace, RouteTable table) {
      String namespace = table.metadata().namespace();
      boolean inNamespace = namespaces.isEmpty() ? namespace.equals(ownerNamespace)
          : namespaces.contains(ANY_NAMESPACE) || namespaces.contains(namespace);
      return inNamespace && table.metadata().labels().entrySet().containsAll(matchLabels.entrySet());
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
