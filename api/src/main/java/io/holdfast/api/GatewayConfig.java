package io.holdfast.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The whole input of validation and translation: every resource from every source, plus the endpoints of the
 * Kubernetes Services that upstreams and routes name, plus the raw TLS material that {@link SslConfig}s and
 * Gateway API listeners name ({@link TlsSecretData}: Kubernetes Secrets, or PEM files of the config directory),
 * plus the objects of other config APIs ({@link ApiObject}: the Gateway API's kinds, kept as JSON trees for their
 * own front end). Immutable; lists are sorted by key (ties keep their input order) so equal inputs compare equal
 * whatever order the sources delivered them in. Duplicate keys are kept: validation rejects them.
 *
 * <p>{@code serviceEndpoints} has an entry for every Service port a source could resolve, possibly an empty list
 * (the Service exists but has no ready endpoint); a Service the source does not have gets no entry.
 */
public record GatewayConfig(List<Upstream> upstreams, List<VirtualService> virtualServices,
    List<Gateway> gateways, List<UnparsedResource> unparsed,
    SortedMap<ServiceRef, List<Endpoint>> serviceEndpoints, List<TcpGateway> tcpGateways,
    List<RouteTable> routeTables, SortedMap<ResourceKey, TlsSecretData> secrets, List<ApiObject> apiObjects) {

  public GatewayConfig {
    upstreams = sortedCopy(upstreams, Comparator.comparing(Upstream::key));
    virtualServices = sortedCopy(virtualServices, Comparator.comparing(VirtualService::key));
    gateways = sortedCopy(gateways, Comparator.comparing(Gateway::key));
    unparsed = sortedCopy(unparsed, Comparator.comparing(UnparsedResource::key));
    tcpGateways = sortedCopy(tcpGateways, Comparator.comparing(TcpGateway::key));
    TreeMap<ServiceRef, List<Endpoint>> endpoints = new TreeMap<>();
    serviceEndpoints.forEach((service, list) -> endpoints.put(service, List.copyOf(list)));
    serviceEndpoints = Collections.unmodifiableSortedMap(endpoints);
    routeTables = sortedCopy(routeTables, Comparator.comparing(RouteTable::key));
    secrets = Collections.unmodifiableSortedMap(new TreeMap<>(secrets));
    apiObjects = sortedCopy(apiObjects, Comparator.comparing(ApiObject::key));
  }

  public static GatewayConfig empty() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this config's content, to derive a changed copy. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    upstreams.forEach(builder::add);
    virtualServices.forEach(builder::add);
    gateways.forEach(builder::add);
    tcpGateways.forEach(builder::add);
    unparsed.forEach(builder::addUnparsed);
    serviceEndpoints.forEach(builder::endpoints);
    routeTables.forEach(builder::add);
    secrets.forEach(builder::secret);
    apiObjects.forEach(builder::add);
    return builder;
  }

  /** Every parsed resource, kind by kind (upstreams, virtual services, gateways, TCP gateways, route tables). */
  public List<GatewayResource> resources() {
    List<GatewayResource> all = new ArrayList<>(upstreams);
    all.addAll(virtualServices);
    all.addAll(gateways);
    all.addAll(tcpGateways);
    all.addAll(routeTables);
    return List.copyOf(all);
  }

  /** The objects of {@code group} among {@link #apiObjects()} (of another config API), in key order. */
  public List<ApiObject> apiObjectsOf(String group) {
    return apiObjects.stream().filter(o -> o.key().group().equals(group)).toList();
  }

  /** The endpoints known for {@code service}; empty if none (a valid, empty cluster). */
  public List<Endpoint> endpointsOf(ServiceRef service) {
    return serviceEndpoints.getOrDefault(service, List.of());
  }

  /** The TLS material delivered under {@code key} ({@link TlsSecretData}'s keys), if the source has it. */
  public java.util.Optional<TlsSecretData> secretOf(ResourceKey key) {
    return java.util.Optional.ofNullable(secrets.get(key));
  }

  private static <T> List<T> sortedCopy(List<T> items, Comparator<T> order) {
    List<T> copy = new ArrayList<>(items);
    copy.forEach(item -> Objects.requireNonNull(item, "list element"));
    copy.sort(order);
    return List.copyOf(copy);
  }

  /** Collects resources; not thread-safe. */
  public static final class Builder {
    private final List<Upstream> upstreams = new ArrayList<>();
    private final List<VirtualService> virtualServices = new ArrayList<>();
    private final List<Gateway> gateways = new ArrayList<>();
    private final List<TcpGateway> tcpGateways = new ArrayList<>();
    private final List<UnparsedResource> unparsed = new ArrayList<>();
    private final Map<ServiceRef, List<Endpoint>> endpoints = new TreeMap<>();
    private final List<RouteTable> routeTables = new ArrayList<>();
    private final Map<ResourceKey, TlsSecretData> secrets = new TreeMap<>();
    private final List<ApiObject> apiObjects = new ArrayList<>();

    private Builder() {
    }

    public Builder add(GatewayResource resource) {
      if (resource instanceof Upstream upstream) {
        upstreams.add(upstream);
      } else if (resource instanceof VirtualService vs) {
        virtualServices.add(vs);
      } else if (resource instanceof Gateway gateway) {
        gateways.add(gateway);
      } else if (resource instanceof TcpGateway tcpGateway) {
        tcpGateways.add(tcpGateway);
      } else if (resource instanceof RouteTable table) {
        routeTables.add(table);
      }
      return this;
    }

    /** Drops every resource, parsed or not, that has {@code key} (to replace or delete one object). */
    public Builder remove(ResourceKey key) {
      Objects.requireNonNull(key, "key");
      for (List<? extends GatewayResource> list
          : List.of(upstreams, virtualServices, gateways, tcpGateways, routeTables)) {
        list.removeIf(r -> r.key().equals(key));
      }
      unparsed.removeIf(u -> u.key().equals(key));
      apiObjects.removeIf(o -> o.key().equals(key));
      return this;
    }

    /** Adds an object of another config API (see {@link ApiObject}). */
    public Builder add(ApiObject object) {
      apiObjects.add(Objects.requireNonNull(object, "object"));
      return this;
    }

    public Builder addUnparsed(UnparsedResource resource) {
      unparsed.add(resource);
      return this;
    }

    /** Sets (replaces) the endpoints of one service port. */
    public Builder endpoints(ServiceRef service, List<Endpoint> list) {
      endpoints.put(service, List.copyOf(list));
      return this;
    }

    /** Sets (replaces) the TLS material under {@code key}. */
    public Builder secret(ResourceKey key, TlsSecretData data) {
      secrets.put(java.util.Objects.requireNonNull(key, "key"), java.util.Objects.requireNonNull(data, "data"));
      return this;
    }

    public GatewayConfig build() {
      return new GatewayConfig(upstreams, virtualServices, gateways, unparsed, new TreeMap<>(endpoints),
          tcpGateways, routeTables, new TreeMap<>(secrets), apiObjects);
    }
  }
}
