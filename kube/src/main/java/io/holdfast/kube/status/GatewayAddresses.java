package io.holdfast.kube.status;

import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The addresses Holdfast's Gateways are reachable at, for their {@code status.addresses}: the ones the operator
 * states ({@code --gateway-address}, for proxies behind a fixed address or name), then the load-balancer ingress of
 * the Service in front of the proxies ({@code --gateway-service}), as Envoy Gateway and Contour report theirs. The
 * Service is watched, so an ingress assigned later (a cloud load balancer takes a while) reaches every Gateway's
 * status. Holdfast's proxies serve every Gateway, so every Gateway gets the same addresses. Thread-safe: the
 * watch replaces an immutable list; {@link #current} reads it.
 */
public final class GatewayAddresses implements AutoCloseable {

  /** One {@code status.addresses[]} entry. */
  public record Address(Type type, String value) {

    /** The Gateway API's address types Holdfast reports. */
    public enum Type {
      IPAddress, Hostname
    }

    public Address {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(value, "value");
    }

    /** An IP literal is an {@code IPAddress}; anything else a {@code Hostname}. */
    public static Address of(String value) {
      return new Address(isIp(value) ? Type.IPAddress : Type.Hostname, value);
    }
  }

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final List<Address> stated;
  private volatile List<Address> fromService = List.of();
  private volatile Runnable onChange = () -> { };
  private SharedIndexInformer<Service> informer;

  private GatewayAddresses(List<Address> stated) {
    this.stated = List.copyOf(stated);
  }

  /** Only the stated addresses (none: Gateways get no {@code status.addresses}). */
  public static GatewayAddresses stated(List<String> addresses) {
    return new GatewayAddresses(addresses.stream().map(Address::of).toList());
  }

  /**
   * The stated addresses, then those of Service {@code namespace/name}'s {@code status.loadBalancer.ingress},
   * watched through {@code client}; {@code onChange} runs (on the watch's thread) whenever they change.
   */
  public static GatewayAddresses watching(List<String> addresses, KubernetesClient client, String namespace,
      String name, Runnable onChange) {
    GatewayAddresses out = stated(addresses);
    out.onChange = Objects.requireNonNull(onChange, "onChange");
    out.informer = client.services().inNamespace(namespace).withName(name).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Service service) {
        out.update(Optional.of(service));
      }

      @Override
      public void onUpdate(Service before, Service after) {
        out.update(Optional.of(after));
      }

      @Override
      public void onDelete(Service service, boolean unknownFinalState) {
        out.update(Optional.empty());
      }
    });
    return out;
  }

  /** Stated first, then the Service's ingress, without repeats. */
  public List<Address> current() {
    List<Address> all = new ArrayList<>(stated);
    fromService.stream().filter(a -> !all.contains(a)).forEach(all::add);
    return List.copyOf(all);
  }

  /** The ingress addresses of {@code service}: an entry's IP, else its hostname. */
  static List<Address> ingress(Optional<Service> service) {
    List<LoadBalancerIngress> ingress = service.map(Service::getStatus)
        .map(s -> s.getLoadBalancer() == null ? null : s.getLoadBalancer().getIngress())
        .orElse(List.of());
    List<Address> out = new ArrayList<>();
    for (LoadBalancerIngress entry : ingress) {
      if (entry.getIp() != null && !entry.getIp().isEmpty()) {
        out.add(new Address(Address.Type.IPAddress, entry.getIp()));
      } else if (entry.getHostname() != null && !entry.getHostname().isEmpty()) {
        out.add(new Address(Address.Type.Hostname, entry.getHostname()));
      }
    }
    return List.copyOf(out);
  }

  private void update(Optional<Service> service) {
    List<Address> now = ingress(service);
    if (!now.equals(fromService)) {
      fromService = now;
      onChange.run();
    }
  }

  private static boolean isIp(String value) {
    return IPV4.matcher(value).matches() || value.contains(":");
  }

  @Override
  public void close() {
    if (informer != null) {
      informer.close();
    }
  }
}
