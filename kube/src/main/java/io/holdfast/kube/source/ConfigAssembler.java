package io.holdfast.kube.source;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.holdfast.api.ApiObject;
import io.holdfast.api.GatewayConfig;
import io.holdfast.api.ModelParser;
import io.holdfast.api.ParseResult;
import io.holdfast.api.Problem;
import io.holdfast.api.ResourceKey;
import io.holdfast.api.ServiceRef;
import io.holdfast.api.TlsSecretData;
import io.holdfast.api.Upstream;
import io.holdfast.api.UpstreamTarget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds one {@link GatewayConfig} from a {@link ClusterView}: every custom resource goes through
 * {@link ModelParser} (the same parser as files), resources that fail to parse are kept as unparsed so
 * validation reports them, the Gateway API's objects and the Namespaces are carried as {@link ApiObject}s for their
 * front end, every Service port a kube Upstream or a Gateway API route's backendRef names gets its ready endpoints
 * (narrowed to the Pods an Upstream's {@code selector} matches),
 * and every Secret an object names ({@link NamedSecrets}) gets its data. Stateless.
 */
final class ConfigAssembler {

  private static final Logger log = LoggerFactory.getLogger(ConfigAssembler.class);

  /** The kinds carried as {@link ApiObject}s: the Gateway API's, then Holdfast's policy kinds. */
  private static final List<ResourceDefinitionContext> FOREIGN = java.util.stream.Stream.concat(
      GatewayCrds.GATEWAY_API.stream(), GatewayCrds.POLICIES.stream()).toList();

  private final ModelParser parser = new ModelParser();
  private final KubernetesSerialization serialization;

  /** @param serialization the client's (Jackson 3) serialization, which knows the fabric8 model types */
  ConfigAssembler(KubernetesSerialization serialization) {
    this.serialization = Objects.requireNonNull(serialization, "serialization");
  }

  /** A config and the metadata of the custom resources it was built from. */
  record Assembled(GatewayConfig config, Map<ResourceKey, ObservedObject> observed) {
    Assembled {
      Objects.requireNonNull(config, "config");
      observed = Collections.unmodifiableMap(new TreeMap<>(observed));
    }
  }

  Assembled assemble(ClusterView view) {
    GatewayConfig.Builder config = GatewayConfig.builder();
    Map<ResourceKey, ObservedObject> observed = new TreeMap<>();
    Set<ServiceRef> services = new LinkedHashSet<>();
    Set<ResourceKey> secrets = new LinkedHashSet<>();
    for (ResourceDefinitionContext kind : GatewayCrds.ALL) {
      for (GenericKubernetesResource resource : view.customResources(kind)) {
        ObjectMeta meta = resource.getMetadata();
        if (meta == null || meta.getName() == null) {
          continue; // the API never serves such an object; nothing could report on it
        }
        String namespace = meta.getNamespace() == null ? "" : meta.getNamespace();
        observed.put(new ResourceKey(kind.getKind(), namespace, meta.getName()), observedOf(meta));
        ParseResult result = parser.parse(tree(resource, kind));
        if (result instanceof ParseResult.Parsed parsed) {
          config.add(parsed.resource());
          if (parsed.resource() instanceof Upstream upstream
              && upstream.target() instanceof UpstreamTarget.Kube kube) {
            services.add(kube.service(upstream.metadata().namespace()));
          }
          secrets.addAll(NamedSecrets.of(parsed.resource()));
        } else if (result instanceof ParseResult.Invalid invalid) {
          invalid.toUnparsed().ifPresentOrElse(config::addUnparsed, () -> log.warn(
              "custom resource skipped: it names no resource kind={} namespace={} name={} problems={}",
              kind.getKind(), namespace, meta.getName(),
              invalid.problems().stream().map(Problem::toString).collect(Collectors.joining("; "))));
        }
      }
    }
    // The Gateway API's kinds and Holdfast's policy kinds both go to the Gateway API front end as ApiObjects, as
    // ConfigLoader.foreignObject carries them from files.
    for (ResourceDefinitionContext kind : FOREIGN) {
      for (GenericKubernetesResource resource : view.customResources(kind)) {
        ObjectMeta meta = resource.getMetadata();
        if (meta == null || meta.getName() == null) {
          continue;
        }
        ApiObject object = apiObject(tree(resource, kind), kind.getGroup(), kind.getKind(),
            Boolean.TRUE.equals(kind.isNamespaceScoped()) ? namespaceOf(meta) : "", meta.getGeneration());
        observed.put(object.key(), observedOf(meta));
        config.add(object);
        GatewayApiRefs.services(object).forEach(services::add);
        secrets.addAll(NamedSecrets.of(object));
      }
    }
    List<ApiObject> glooObjects = new ArrayList<>();
    for (ResourceDefinitionContext kind : GatewayCrds.GLOO) {
      for (GenericKubernetesResource resource : view.customResources(kind)) {
        ObjectMeta meta = resource.getMetadata();
        if (meta == null || meta.getName() == null) {
          continue;
        }
        ApiObject object = apiObject(tree(resource, kind), kind.getGroup(), kind.getKind(), namespaceOf(meta),
            meta.getGeneration());
        observed.put(object.key(), observedOf(meta));
        config.add(object);
        services.addAll(GlooRefs.services(object));
        glooObjects.add(object);
        secrets.addAll(NamedSecrets.of(object));
      }
    }
    // Routes' subset choices join a route to its Upstream: resolved once every Gloo object is read.
    services.addAll(io.holdfast.api.GlooUpstreams.subsetServices(glooObjects));
    for (io.fabric8.kubernetes.api.model.Namespace namespace : view.namespaces()) {
      ObjectMeta meta = namespace.getMetadata();
      if (meta != null && meta.getName() != null) {
        config.add(apiObject(serialization.convertValue(namespace, JsonNode.class), ResourceKey.CORE_GROUP,
            KubeConfigSource.NAMESPACE, "", meta.getGeneration()));
      }
    }
    // A narrowed reference (a selector) gets its whole Service resolved beside it, so that validation can tell "no
    // Service" from "no pod labels" (PodLabelsUnavailable).
    Set<ServiceRef> resolved = new LinkedHashSet<>();
    services.forEach(ref -> {
      resolved.add(ref.wholeService());
      resolved.add(ref);
    });
    boolean podsReadable = view.podsReadable();
    for (ServiceRef ref : resolved) {
      // A Service not in the cache gets no entry: the translator then sees an empty cluster, which is right. Nor
      // does a narrowed reference while pods cannot be read: its endpoints are unknown, and never the wider set.
      if (ref.isNarrowed() && !podsReadable) {
        continue;
      }
      view.service(ref.namespace(), ref.name()).ifPresent(service -> config.endpoints(ref,
          EndpointResolver.resolve(service, view.slicesOf(ref.namespace(), ref.name()), ref.port(),
              EndpointResolver.selection(ref, view::podLabels))));
    }
    for (ResourceKey key : secrets) {
      // Only Secrets some resource names reach the config: an unrelated Secret's change is no config change, and
      // no other Secret's content ever leaves the informer cache. A missing one gets no entry: the front end
      // reports SecretNotFound and keeps the last good certificate.
      view.secret(key.namespace(), key.name()).ifPresent(secret -> config.secret(key, secretData(secret)));
    }
    return new Assembled(config.build(), observed);
  }

  /**
   * The Secret's entries as text. {@code data} is base64 as the API serves it; {@code stringData} is write-only on
   * a real API server (merged into {@code data} on write) but an emulated API may keep it, so it is merged here
   * the same way, over {@code data}. An entry that is not valid base64 is kept as an empty entry so the front end
   * reports the certificate as invalid rather than missing.
   */
  static TlsSecretData secretData(io.fabric8.kubernetes.api.model.Secret secret) {
    Map<String, String> entries = new TreeMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((name, value) -> entries.put(name, decode(value)));
    }
    if (secret.getStringData() != null) {
      entries.putAll(secret.getStringData());
    }
    return new TlsSecretData(new TreeMap<>(entries));
  }

  private static String decode(String base64) {
    try {
      return new String(Base64.getMimeDecoder().decode(base64 == null ? "" : base64), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /**
   * The resource as the JSON document ModelParser reads. List responses may leave out apiVersion and kind on
   * their items, so those are filled in from the informer's definition. The resourceVersion is dropped: it
   * changes on every status write, and keeping it would make each status write look like a new config (and
   * start another round of validation and status writing). Writers get it from {@link ObservedObject}.
   */
  JsonNode tree(GenericKubernetesResource resource, ResourceDefinitionContext kind) {
    JsonNode tree = serialization.convertValue(resource, JsonNode.class);
    if (tree.get("metadata") instanceof ObjectNode metadata) {
      metadata.remove("resourceVersion");
    }
    if (tree instanceof ObjectNode object) {
      if (!object.hasNonNull("apiVersion")) {
        object.put("apiVersion", kind.getGroup() + "/" + kind.getVersion());
      }
      if (!object.hasNonNull("kind")) {
        object.put("kind", kind.getKind());
      }
    }
    return tree;
  }

  /**
   * An object of another config API as its front end reads it: without {@code status} (written by controllers,
   * Holdfast included: keeping it would turn every status write into a config change), resourceVersion and
   * managedFields; apiVersion and kind filled in.
   */
  private static ApiObject apiObject(JsonNode tree, String group, String kind, String namespace, Long generation) {
    ObjectNode body = (ObjectNode) tree;
    body.remove("status");
    if (body.get("metadata") instanceof ObjectNode metadata) {
      metadata.remove("resourceVersion");
      metadata.remove("managedFields");
    }
    if (!body.hasNonNull("kind")) {
      body.put("kind", kind);
    }
    if (!body.hasNonNull("apiVersion") && group.isEmpty()) {
      body.put("apiVersion", "v1");
    }
    String name = body.path("metadata").path("name").asString("");
    return new ApiObject(new ResourceKey(group, kind, namespace, name), generation == null ? 1 : generation, body);
  }

  private static String namespaceOf(ObjectMeta meta) {
    return meta.getNamespace() == null ? "default" : meta.getNamespace();
  }

  private static ObservedObject observedOf(ObjectMeta meta) {
    return new ObservedObject(
        meta.getResourceVersion() == null ? "" : meta.getResourceVersion(),
        meta.getGeneration() == null ? 0 : meta.getGeneration(),
        meta.getUid() == null ? "" : meta.getUid());
  }
}
