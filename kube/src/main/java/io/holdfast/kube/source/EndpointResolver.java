package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.holdfast.api.Endpoint;
import io.holdfast.api.ServiceRef;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The ready endpoints of one Service port, from the Service's EndpointSlices. A Service port number is mapped
 * to slice ports by the Service port's name (slices name their ports after the Service's; an unnamed port is
 * the Service's only one), and the slice port's number is the target port. A kube Upstream's {@code selector}
 * narrows them ({@link #selection}) to the endpoints whose {@code targetRef} is a Pod carrying its labels: as Gloo's
 * EDS does, except that an endpoint without a Pod {@code targetRef} is left out rather than matched to a running Pod
 * by IP (the EndpointSlice controller sets targetRef on every Pod endpoint; one it did not set is not checkable, and
 * narrowing never takes what it cannot check). Stateless.
 */
final class EndpointResolver {

  /** The label the EndpointSlice controller puts on every slice of a Service. */
  static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  private static final String TCP = "TCP";
  private static final String FQDN = "FQDN";
  private static final String POD = "Pod";

  private EndpointResolver() {
  }

  /**
   * The sorted, de-duplicated endpoints; empty if the Service has no TCP port {@code servicePort} or no ready
   * endpoint for it. An endpoint counts as ready when {@code conditions.ready} is true or unset: the API defines
   * unset as unknown, to be treated as ready.
   */
  static List<Endpoint> resolve(Service service, List<EndpointSlice> slices, int servicePort) {
    return resolve(service, slices, servicePort, Selection.ALL);
  }

  /** Which endpoints of a slice belong to a reference: all of them, or those of the Pods a selector matches. */
  @FunctionalInterface
  interface Selection {
    Selection ALL = (sliceNamespace, endpoint) -> true;

    boolean selects(String sliceNamespace, io.fabric8.kubernetes.api.model.discovery.v1.Endpoint endpoint);
  }

  /** Pod labels by namespace and name, as the source knows them; empty for a Pod it does not know. */
  @FunctionalInterface
  interface PodLabels {
    Optional<Map<String, String>> of(String namespace, String name);
  }

  /**
   * The endpoints {@code ref} takes: all, if it is not narrowed; else those whose {@code targetRef} is a Pod (in the
   * slice's namespace when the targetRef names none) that {@code pods} knows and whose labels {@code ref} selects.
   */
  static Selection selection(ServiceRef ref, PodLabels pods) {
    if (!ref.isNarrowed()) {
      return Selection.ALL;
    }
    return (sliceNamespace, endpoint) -> {
      ObjectReference target = endpoint.getTargetRef();
      if (target == null || !POD.equals(target.getKind()) || target.getName() == null) {
        return false;
      }
      String namespace = target.getNamespace() == null || target.getNamespace().isEmpty() ? sliceNamespace
          : target.getNamespace();
      return pods.of(namespace, target.getName()).map(ref::selects).orElse(false);
    };
  }

  /** As {@link #resolve(Service, List, int)}, keeping only the endpoints {@code selection} takes. */
  static List<Endpoint> resolve(Service service, List<EndpointSlice> slices, int servicePort, Selection selection) {
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
        if (isReady(endpoint.getConditions()) && endpoint.getAddresses() != null
            && selection.selects(namespaceOf(slice), endpoint)) {
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

  private static String namespaceOf(EndpointSlice slice) {
    return slice.getMetadata() == null || slice.getMetadata().getNamespace() == null ? ""
        : slice.getMetadata().getNamespace();
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
