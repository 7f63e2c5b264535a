package io.holdfast.api;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/** Where an upstream's endpoints come from. */
public sealed interface UpstreamTarget {

  /**
   * Fixed hosts written in the resource ({@code spec.static.hosts}). Addresses are IP literals, or host names the
   * proxy resolves (see {@link UpstreamOptions.Dns}).
   */
  record Static(List<Host> hosts) implements UpstreamTarget {
    public Static {
      hosts = List.copyOf(hosts);
    }
  }

  /**
   * One port of a Kubernetes Service ({@code spec.kube}); endpoints come from its EndpointSlices. A non-empty
   * {@code selector} narrows them to the endpoints whose Pod ({@code targetRef}) carries every one of its labels
   * with the same value; an endpoint without a Pod behind it, or whose Pod is unknown, is left out. Empty: the whole
   * Service.
   */
  record Kube(Optional<String> namespace, String name, int port, SortedMap<String, String> selector)
      implements UpstreamTarget {

    /**
     * Most labels in one selector. Reason: every endpoint's Pod is checked against each of them on every rebuild;
     * selectors name a handful (a Service's own selector, plus a version label), and a longer one rejects its
     * Upstream ({@code InvalidValue}) rather than cost each rebuild more.
     */
    public static final int MAX_SELECTOR_LABELS = 64;

    public Kube {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
      selector = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(selector, "selector")));
    }

    /** The whole Service port, not narrowed by pod labels. */
    public Kube(Optional<String> namespace, String name, int port) {
      this(namespace, name, port, new TreeMap<>());
    }

    /** The endpoints this target names; {@code upstreamNamespace} is used when no namespace is given. */
    public ServiceRef service(String upstreamNamespace) {
      return new ServiceRef(namespace.orElse(upstreamNamespace), name, port, selector);
    }
  }

  /** One static host; {@code weight} defaults to 1. */
  record Host(String address, int port, int weight) {
    public Host {
      Objects.requireNonNull(address, "address");
    }

    public static Host of(String address, int port) {
      return new Host(address, port, 1);
    }
  }
}
