package io.holdfast.ir;

import java.util.Objects;
import java.util.Optional;

/**
 * Settings of a listening socket, for every filter chain on it.
 *
 * @param proxyProtocol                connections start with a PROXY protocol header (v1 or v2) from a load
 *                                     balancer in front; the client address is taken from it
 * @param perConnectionBufferLimitBytes how much Envoy buffers per connection before applying back-pressure
 *                                     (Envoy's default 1 MiB)
 */
public record SocketOptions(boolean proxyProtocol, Optional<Integer> perConnectionBufferLimitBytes) {

  public static final SocketOptions NONE = new SocketOptions(false, Optional.empty());

  public SocketOptions {
    Objects.requireNonNull(perConnectionBufferLimitBytes, "perConnectionBufferLimitBytes");
    perConnectionBufferLimitBytes.filter(b -> b < 1).ifPresent(b -> {
      throw new IllegalArgumentException("perConnectionBufferLimitBytes " + b + " is not positive");
    });
  }
}
