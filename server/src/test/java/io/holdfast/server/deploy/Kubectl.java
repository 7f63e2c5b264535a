package io.holdfast.server.deploy;

import static org.assertj.core.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The machine's {@code kubectl}, run as a process: {@code kubectl kustomize} renders a kustomization offline (no
 * cluster, no kubeconfig). A missing kubectl fails the test that needs it, naming the package to install: a
 * skipped check would look like a passing one.
 */
final class Kubectl {
  /** Debian's package with kubectl (.ci/run installs it when kubectl is missing). */
  static final String PACKAGE = "kubernetes-client";
  /** Rendering a few dozen objects takes well under a second; far past that it hangs. */
  private static final long TIMEOUT_SECONDS = 120;

  private Kubectl() {
  }

  /** The objects {@code kubectl kustomize dir} renders, in its output's order. */
  static List<HasMetadata> kustomize(Path dir) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(binary().toString(), "kustomize", dir.toString())
        .redirectErrorStream(false).start();
    CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("kubectl kustomize " + dir + " did not finish within " + TIMEOUT_SECONDS + " s");
    }
    if (process.exitValue() != 0) {
      fail("kubectl kustomize " + dir + " exited " + process.exitValue() + " (deploy/ needs kubectl 1.27 or later,"
          + " kustomize 5, for sortOptions): "
          + new String(err.join(), StandardCharsets.UTF_8));
    }
    return objects(new ByteArrayInputStream(out.join()));
  }

  /** The objects of a YAML stream (one document or several), typed as kubectl would read them. */
  static List<HasMetadata> objects(java.io.InputStream in) {
    Object parsed = new KubernetesSerialization().unmarshal(in);
    List<HasMetadata> objects = new ArrayList<>();
    if (parsed instanceof List<?> list) {
      list.forEach(o -> objects.add((HasMetadata) o));
    } else {
      objects.add((HasMetadata) parsed);
    }
    return objects;
  }

  private static byte[] readAll(java.io.InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Path binary() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "kubectl");
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return fail("kubectl is not on the PATH (" + path + "): install it (Debian's '" + PACKAGE
        + "' package, or kubectl 1.27 or later), as .ci/run does");
  }
}
