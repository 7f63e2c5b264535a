package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.holdfast.api.Endpoint;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The ready endpoints of one Service port, from the Service's EndpointSlices. A Service port number is mapped
 * to slice ports by the Service port's name (slices name their ports after the Service's; an unnamed port is
 * the Service's only one), and the slice port's number is the target port. Stateless.
 */
final class EndpointResolver {

  /** The label the EndpointSlice controller puts on every slice of a Service. */
  static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  private static final String TCP = "TCP";
  private static final String FQDN = "FQDN";

  private EndpointResolver() {
  }

  /**
   * The sorted, de-duplicated endpoints; empty if the Service has no TCP port {@code servicePort} or no ready
   * endpoint for it. An endpoint counts as ready when {@code conditions.ready} is true or unset: the API defines
   * unset as unknown, to be treated as ready.
   */
  static List<Endpoint> resolve(Service service, List<EndpointSlice> slices, int servicePort) {
    Optional<String> portName = portName(service, servicePort);
    if (portName.isEmpty()) {
      return List.of();
    }
    TreeSet<Endpoint> endpoints = new TreeSet<>();
    for (EndpointSlice slice : slices) {
      if (FQDN.equals(slice.getAddressType())) {
        continue; // Endpoint addresses are IP literals; FQDN slices are deprecated and unused by Services
      }
      Optional<Integer> target = targetPort(slice, portName.get());
      if (target.isEmpty() || slice.getEndpoints() == null) {
        continue;
      }
      for (var endpoint : slice.getEndpoints()) {
        if (isReady(endpoint.getConditions()) && endpoint.getAddresses() != null) {
          endpoint.getAddresses().stream().filter(Objects::nonNull)
              .forEach(address -> endpoints.add(new Endpoint(address, target.get())));
        }
      }
    }
    return List.copyOf(endpoints);
  }

  /** The (normalised, "" when unnamed) name of the Service's TCP port with this number. */
  private static Optional<String> portName(Service service, int servicePort) {
    if (service.getSpec() == null || service.getSpec().getPorts() == null) {
      return Optional.empty();
    }
    return service.getSpec().getPorts().stream()
        .filter(p -> p.getPort() != null && p.getPort() == servicePort && isTcp(p.getProtocol()))
        .map(ServicePort::getName)
        .map(EndpointResolver::normalise)
        .findFirst();
  }

  private static Optional<Integer> targetPort(EndpointSlice slice, String portName) {
    if (slice.getPorts() == null) {
      return Optional.empty();
    }
    return slice.getPorts().stream()
        .filter(p -> p.getPort() != null && isTcp(p.getProtocol()) && normalise(p.getName()).equals(portName))
        .map(EndpointPort::getPort)
        .findFirst();
  }

  private static boolean isReady(EndpointConditions conditions) {
    return conditions == null || conditions.getReady() == null || conditions.getReady();
  }

  private static boolean isTcp(String protocol) {
    return protocol == null || TCP.equals(protocol);
  }

  private static String normalise(String name) {
    return name == null ? "" : name;
  }
}
