package io.holdfast.kube.deploy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The manifests under deploy/, parsed as kubectl would take them, one file at a time. */
final class DeployManifests {
  static final Path DEPLOY = Path.of("..", "deploy");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private DeployManifests() {
  }

  /** Every object of {@code file}, a path under deploy/. */
  static List<HasMetadata> load(String file) {
    List<HasMetadata> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(DEPLOY.resolve(file))) {
      Object parsed = SERIALIZATION.unmarshal(in);
      if (parsed instanceof List<?> list) {
        list.forEach(o -> out.add((HasMetadata) o));
      } else {
        out.add((HasMetadata) parsed);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  static <T> T one(List<HasMetadata> all, Class<T> type) {
    List<T> found = all.stream().filter(type::isInstance).map(type::cast).toList();
    if (found.size() != 1) {
      throw new AssertionError("expected one " + type.getSimpleName() + ", found " + found.size());
    }
    return found.get(0);
  }
}
