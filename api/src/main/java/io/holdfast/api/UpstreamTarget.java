package io.holdfast.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

  /** One port of a Kubernetes Service ({@code spec.kube}); endpoints come from its EndpointSlices. */
  record Kube(Optional<String> namespace, String name, int port) implements UpstreamTarget {
    public Kube {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(name, "name");
    }

    /** The service this target names; {@code upstreamNamespace} is used when no namespace is given. */
    public ServiceRef service(String upstreamNamespace) {
      return new ServiceRef(namespace.orElse(upstreamNamespace), name, port);
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
