package io.holdfast.api;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Kubernetes-style metadata Holdfast uses. Other Kubernetes metadata fields (uid, annotations,
 * managedFields, ...) are accepted by the parser and dropped.
 *
 * @param generation        0 when the source does not track generations (files)
 * @param resourceVersion   empty string when the source has none
 * @param creationTimestamp when the resource was created, if known; used to decide which of two conflicting
 *                          resources is older
 */
public record Metadata(String name, String namespace, Map<String, String> labels, long generation,
    String resourceVersion, Optional<Instant> creationTimestamp) {

  public static final String DEFAULT_NAMESPACE = "default";

  public Metadata {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    labels = Collections.unmodifiableMap(new TreeMap<>(labels));
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    Objects.requireNonNull(creationTimestamp, "creationTimestamp");
  }

  /** Metadata with only a name and namespace, as tests, generators and hand-built configs need. */
  public static Metadata of(String namespace, String name) {
    return new Metadata(name, namespace, Map.of(), 0, "", Optional.empty());
  }

  /** The same metadata under another name (a front end that reads one object as several). */
  public Metadata withName(String newName) {
    return new Metadata(newName, namespace, labels, generation, resourceVersion, creationTimestamp);
  }

  public Metadata withLabels(Map<String, String> newLabels) {
    return new Metadata(name, namespace, newLabels, generation, resourceVersion, creationTimestamp);
  }

  public Metadata withGeneration(long newGeneration) {
    return new Metadata(name, namespace, labels, newGeneration, resourceVersion, creationTimestamp);
  }

  public Metadata withCreationTimestamp(Instant created) {
    return new Metadata(name, namespace, labels, generation, resourceVersion, Optional.of(created));
  }

  public ResourceKey key(String kind) {
    return new ResourceKey(kind, namespace, name);
  }
}
