package io.holdfast.api;

import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One port of a Kubernetes Service, optionally narrowed to the endpoints whose Pod carries every label of
 * {@code selector} (a kube Upstream's {@code selector}; empty: the whole Service): the key of
 * {@link GatewayConfig#serviceEndpoints()}. The selector is part of the key, so a narrowed and an unnarrowed
 * reference to one Service port have their own endpoint lists, and a narrowed one never reads the wider list.
 */
public record ServiceRef(String namespace, String name, int port, SortedMap<String, String> selector)
    implements Comparable<ServiceRef> {

  private static final Comparator<ServiceRef> ORDER = Comparator.comparing(ServiceRef::namespace)
      .thenComparing(ServiceRef::name)
      .thenComparingInt(ServiceRef::port)
      .thenComparing(ServiceRef::selector, ServiceRef::compareSelectors);

  public ServiceRef {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    selector = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(selector, "selector")));
  }

  /** The whole Service port, not narrowed by pod labels. */
  public ServiceRef(String namespace, String name, int port) {
    this(namespace, name, port, new TreeMap<>());
  }

  /** This Service port narrowed to the pods carrying every label of {@code labels} (empty: not narrowed). */
  public static ServiceRef selecting(String namespace, String name, int port, Map<String, String> labels) {
    return new ServiceRef(namespace, name, port, new TreeMap<>(labels));
  }

  /** Whether only the endpoints of pods matching {@link #selector()} belong to it. */
  public boolean isNarrowed() {
    return !selector.isEmpty();
  }

  /** The same Service port, not narrowed. */
  public ServiceRef wholeService() {
    return isNarrowed() ? new ServiceRef(namespace, name, port) : this;
  }

  /**
   * Whether a Pod with {@code podLabels} belongs to this reference: it carries every selector label with the same
   * value (an empty selector takes every pod), as Gloo's kube Upstream selector and a Service's own selector do.
   */
  public boolean selects(Map<String, String> podLabels) {
    if (selector.size() > UpstreamTarget.Kube.MAX_SELECTOR_LABELS) {
      return false; // rejected by validation (UpstreamRules); never widened meanwhile
    }
    for (Map.Entry<String, String> label : selector.entrySet()) {
      if (!label.getValue().equals(podLabels.get(label.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Label by label (key, then value), the shorter first on a tie: consistent with equals, so two selectors are one
   * map key only when they are equal (comparing their text would let {@code {a: "b, c=d"}} stand for
   * {@code {a: b, c: d}}).
   */
  private static int compareSelectors(SortedMap<String, String> a, SortedMap<String, String> b) {
    var left = a.entrySet().iterator();
    var right = b.entrySet().iterator();
    while (left.hasNext() && right.hasNext()) {
      Map.Entry<String, String> l = left.next();
      Map.Entry<String, String> r = right.next();
      int order = l.getKey().compareTo(r.getKey());
      if (order == 0) {
        order = l.getValue().compareTo(r.getValue());
      }
      if (order != 0) {
        return order;
      }
    }
    return Boolean.compare(left.hasNext(), right.hasNext());
  }

  @Override
  public int compareTo(ServiceRef other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return namespace + "/" + name + ":" + port + (isNarrowed() ? selector.toString() : "");
  }
}
