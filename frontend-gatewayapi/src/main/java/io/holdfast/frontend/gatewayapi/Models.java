package io.holdfast.frontend.gatewayapi;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.holdfast.api.ApiObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns {@link ApiObject} trees into fabric8's Gateway API model objects. Fields a newer release of the API
 * added (unknown to the model) are ignored, as the API server would keep them; a tree the model cannot read
 * (a string where a list belongs) is reported with the mapper's message.
 */
final class Models {

  private static final JsonMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  private Models() {
  }

  /** An object read into its model, with the object it came from. */
  record Parsed<T extends HasMetadata>(ApiObject object, T model) {

    /** {@code metadata.creationTimestamp}; empty when the source has none (files) or it does not parse. */
    Optional<Instant> created() {
      String stamp = model.getMetadata() == null ? null : model.getMetadata().getCreationTimestamp();
      if (stamp == null || stamp.isEmpty()) {
        return Optional.empty();
      }
      try {
        return Optional.of(Instant.parse(stamp));
      } catch (DateTimeParseException e) {
        return Optional.empty();
      }
    }

    long generation() {
      return object.generation();
    }
  }

  /** The model of {@code object}, or the reason it cannot be read. */
  static <T extends HasMetadata> Result<T> parse(ApiObject object, Class<T> type) {
    try {
      return new Result<>(Optional.of(new Parsed<>(object, MAPPER.treeToValue(object.bodyCopy(), type))),
          Optional.empty());
    } catch (JacksonException e) {
      return new Result<>(Optional.empty(), Optional.of(e.getOriginalMessage()));
    }
  }

  /** A parsed object, or the problem that kept it from parsing. */
  record Result<T extends HasMetadata>(Optional<Parsed<T>> parsed, Optional<String> problem) {
  }
}
