package io.holdfast.api;

import java.util.Comparator;
import java.util.Objects;

/** One ready backend address of a Kubernetes Service (an IP literal and the target port). */
public record Endpoint(String address, int port) implements Comparable<Endpoint> {

  private static final Comparator<Endpoint> ORDER =
      Comparator.comparing(Endpoint::address).thenComparingInt(Endpoint::port);

  public Endpoint {
    Objects.requireNonNull(address, "address");
  }

  @Override
  public int compareTo(Endpoint other) {
    return ORDER.compare(this, other);
  }
}
