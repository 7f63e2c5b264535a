package io.holdfast.pipeline;

import io.holdfast.api.ResourceKey;
import io.holdfast.ir.NackEvent;
import io.holdfast.xds.translate.Translation;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which Holdfast resources a NACK concerns. Envoy and grpc-java name the rejected resources in the error
 * detail ("Cluster 'demo/echo-v2' validation error: ...", "Error adding cluster demo/echo: ..."), while the
 * rejected response usually holds every resource of the type, so names found in the error win; only an error
 * that names none of them is pinned on every resource of the rejected response. Names are matched as whole
 * words, never as substrings: {@code demo/echo} is not named by an error about {@code demo/echo-v2}.
 */
final class NackAttribution {

  private NackAttribution() {
  }

  /** The origins of the resources {@code nack} concerns, in order of mention; empty if it names none we made. */
  static List<ResourceKey> resourcesOf(NackEvent nack, Translation translation) {
    Set<ResourceKey> keys = new LinkedHashSet<>();
    for (String word : words(nack.errorDetail())) {
      translation.originOf(word).ifPresent(keys::add);
    }
    if (keys.isEmpty()) {
      nack.resourceNames().forEach(name -> translation.originOf(name).ifPresent(keys::add));
    }
    return List.copyOf(keys);
  }

  /**
   * Candidate resource names in {@code text}: maximal runs of characters that occur in generated names (see
   * {@code EnvoyNames}: Kubernetes names, {@code /}, domains with {@code :port}), each also without trailing
   * {@code .} or {@code :}, which in prose end a sentence or introduce a message.
   */
  static Set<String> words(String text) {
    Set<String> words = new LinkedHashSet<>();
    int start = -1;
    for (int i = 0; i <= text.length(); i++) {
      boolean inName = i < text.length() && isNameChar(text.charAt(i));
      if (inName && start < 0) {
        start = i;
      } else if (!inName && start >= 0) {
        String word = text.substring(start, i);
        words.add(word);
        String trimmed = word.replaceAll("[.:]+$", "");
        if (!trimmed.isEmpty()) {
          words.add(trimmed);
        }
        start = -1;
      }
    }
    return words;
  }

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '-' || c == '.' || c == '_' || c == '/' || c == ':';
  }
}
