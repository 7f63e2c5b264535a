package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPortBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Builders for the Kubernetes objects the tests put into the cluster. Addresses are loopback only. */
final class KubeObjects {

  private KubeObjects() {
  }

  /** A custom resource from YAML (one document, apiVersion and kind included). */
  static GenericKubernetesResource resource(String yaml) {
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }

  static GenericKubernetesResource kubeUpstream(String namespace, String name, String service, int port) {
    return resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: Upstream
        metadata: {name: %s, namespace: %s}
        spec: {kube: {name: %s, port: %d}}
        """.formatted(name, namespace, service, port));
  }

  static GenericKubernetesResource virtualService(String namespace, String name, String domain) {
    return resource("""
        apiVersion: gateway.holdfast.io/v1
        kind: VirtualService
        metadata: {name: %s, namespace: %s}
        spec:
          domains: [%s]
          routes: [{match: {prefix: /}, directResponse: {status: 200}}]
        """.formatted(name, namespace, domain));
  }

  /** A Service with one TCP port per {@code name:port} pair ({@code :80} for an unnamed one). */
  static Service service(String namespace, String name, String... namedPorts) {
    return new ServiceBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).endMetadata()
        .withNewSpec()
        .withPorts(Arrays.stream(namedPorts).map(p -> {
          String[] parts = p.split(":");
          return new ServicePortBuilder().withName(parts[0].isEmpty() ? null : parts[0])
              .withPort(Integer.parseInt(parts[1])).withProtocol("TCP").build();
        }).toList())
        .endSpec()
        .build();
  }

  /** One endpoint of a slice: an address and its ready condition (null: unset). */
  record Ep(String address, Boolean ready) {
  }

  static EndpointSlice slice(String namespace, String name, String service, String portName, int port,
      List<Ep> endpoints) {
    return new EndpointSliceBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name)
        .addToLabels(EndpointResolver.SERVICE_NAME_LABEL, service).endMetadata()
        .withAddressType("IPv4")
        .withPorts(new EndpointPortBuilder().withName(portName).withPort(port).withProtocol("TCP").build())
        .withEndpoints(endpoints.stream().map(e -> new EndpointBuilder().withAddresses(e.address())
            .withNewConditions().withReady(e.ready()).endConditions().build()).toList())
        .build();
  }

  /** One endpoint of a slice, ready, and the Pod its {@code targetRef} names (null: no targetRef). */
  record PodEp(String address, String pod) {
  }

  /** A slice whose endpoints name their Pods, as the EndpointSlice controller writes them. */
  static EndpointSlice podSlice(String namespace, String name, String service, String portName, int port,
      List<PodEp> endpoints) {
    return new EndpointSliceBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name)
        .addToLabels(EndpointResolver.SERVICE_NAME_LABEL, service).endMetadata()
        .withAddressType("IPv4")
        .withPorts(new EndpointPortBuilder().withName(portName).withPort(port).withProtocol("TCP").build())
        .withEndpoints(endpoints.stream().map(e -> {
          EndpointBuilder endpoint = new EndpointBuilder().withAddresses(e.address())
              .withNewConditions().withReady(true).endConditions();
          if (e.pod() != null) {
            endpoint.withNewTargetRef().withKind("Pod").withNamespace(namespace).withName(e.pod()).endTargetRef();
          }
          return endpoint.build();
        }).toList())
        .build();
  }

  /** A Pod with these labels (nothing else: the source reads no more of it). */
  static Pod pod(String namespace, String name, Map<String, String> labels) {
    return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).withLabels(labels)
        .endMetadata().build();
  }
}
