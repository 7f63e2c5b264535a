package io.holdfast.api;

import java.util.Objects;

/**
 * A listening socket ({@code kind: Gateway}) and the VirtualServices it serves; becomes one Envoy listener and
 * its route configuration.
 *
 * @param bindAddress IP literal, default {@code 0.0.0.0}
 */
public record Gateway(Metadata metadata, String bindAddress, int port, VirtualServiceSelection selection)
    implements GatewayResource {

  public static final String DEFAULT_BIND_ADDRESS = "0.0.0.0";

  public Gateway {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(selection, "selection");
  }

  public Gateway withSelection(VirtualServiceSelection newSelection) {
    return new Gateway(metadata, bindAddress, port, newSelection);
  }

  @Override
  public String kind() {
    return ResourceKey.GATEWAY;
  }
}
