package io.holdfast.api;

import java.util.Comparator;
import java.util.Objects;

/** One port of a Kubernetes Service: the key of {@link GatewayConfig#serviceEndpoints()}. */
public record ServiceRef(String namespace, String name, int port) implements Comparable<ServiceRef> {

  private static final Comparator<ServiceRef> ORDER = Comparator.comparing(ServiceRef::namespace)
      .thenComparing(ServiceRef::name)
      .thenComparingInt(ServiceRef::port);

  public ServiceRef {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
  }

  @Override
  public int compareTo(ServiceRef other) {
    return ORDER.compare(this, other);
  }

  @Override
  public String toString() {
    return namespace + "/" + name + ":" + port;
  }
}
