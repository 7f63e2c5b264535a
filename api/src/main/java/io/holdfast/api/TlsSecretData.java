package io.holdfast.api;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The raw content of one piece of TLS material as a source delivers it, before anything checks it: the data of a
 * Kubernetes Secret ({@code tls.crt}, {@code tls.key}, {@code ca.crt}, decoded to text) or the text of one PEM file
 * of the config directory. Also the data of the Opaque Secrets security options name
 * ({@link SecurityOptions#secretRefs}: basic-auth users, key sets), which are as secret and travel the same way. {@link GatewayConfig#secrets()} holds them under the keys below. Its {@code toString}
 * names the entries and their sizes only, so a log line or an exception message can never carry a private key.
 *
 * <ul>
 *   <li>Kubernetes mode: {@link #secretKey} (core group, kind {@code Secret}, namespace, name); entries as in the
 *       Secret's {@code data}.</li>
 *   <li>File mode: {@link #fileKey} (group {@link #FILE_GROUP}, kind {@code File}, no namespace, the path relative to
 *       the config directory with {@code /} separators); one entry, {@link #FILE_CONTENT}.</li>
 * </ul>
 *
 * @param entries entry name to text, sorted
 */
public record TlsSecretData(SortedMap<String, String> entries) {

  public static final String SECRET_KIND = "Secret";
  public static final String FILE_KIND = "File";
  /** Not a Kubernetes API group: marks keys of files read from the config directory. */
  public static final String FILE_GROUP = "files.holdfast.io";
  public static final String TLS_CRT = "tls.crt";
  public static final String TLS_KEY = "tls.key";
  public static final String CA_CRT = "ca.crt";
  public static final String FILE_CONTENT = "content";

  public TlsSecretData {
    entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
  }

  /** The data of one PEM file. */
  public static TlsSecretData file(String text) {
    return new TlsSecretData(new TreeMap<>(java.util.Map.of(FILE_CONTENT, text)));
  }

  public static ResourceKey secretKey(String namespace, String name) {
    return ResourceKey.core(SECRET_KIND, namespace, name);
  }

  public static ResourceKey secretKey(ObjectRef ref, String referrerNamespace) {
    return secretKey(ref.namespace().orElse(referrerNamespace), ref.name());
  }

  public static ResourceKey fileKey(String relativePath) {
    return new ResourceKey(FILE_GROUP, FILE_KIND, "", Objects.requireNonNull(relativePath, "relativePath"));
  }

  public static boolean isFileKey(ResourceKey key) {
    return key.group().equals(FILE_GROUP) && key.kind().equals(FILE_KIND);
  }

  /** How a status message names the material: {@code Secret demo/web-tls} or {@code file tls/a.crt}. */
  public static String describe(ResourceKey key) {
    return isFileKey(key) ? "file " + key.name() : "Secret " + key.namespace() + "/" + key.name();
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("TlsSecretData[");
    entries.forEach((name, value) -> text.append(text.length() > 14 ? ", " : "").append(name).append('=')
        .append(value.length()).append(" chars"));
    return text.append(']').toString();
  }
}
