package io.holdfast.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads manifest texts into one {@link GatewayConfig}: {@link ManifestReader} splits each text into documents,
 * {@link ModelParser} parses each document. A document that fails to parse but names its resource becomes an
 * {@link UnparsedResource} (validation reports it per resource); problems without any resource to attach to
 * (YAML syntax, non-mapping documents, no kind or name) are returned as {@link ManifestError}s. Nothing is
 * all-or-nothing: every readable resource is in the config. Thread-safe.
 */
public final class ConfigLoader {

  private final ManifestReader reader = new ManifestReader();
  private final ModelParser parser = new ModelParser();

  /** One manifest text and the name it is reported under (a file path, a ConfigMap key). */
  public record Source(String name, String text) {
    public Source {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(text, "text");
    }
  }

  public record Loaded(GatewayConfig config, List<ManifestError> errors) {
    public Loaded {
      Objects.requireNonNull(config, "config");
      errors = List.copyOf(errors);
    }
  }

  public Loaded load(List<Source> sources, Map<ServiceRef, List<Endpoint>> serviceEndpoints) {
    GatewayConfig.Builder config = GatewayConfig.builder();
    serviceEndpoints.forEach(config::endpoints);
    List<ManifestError> errors = new ArrayList<>();
    for (Source source : sources) {
      ManifestReader.Result read = reader.read(source.name(), source.text());
      errors.addAll(read.errors());
      for (ManifestDocument document : read.documents()) {
        ParseResult result = parser.parse(document.tree());
        if (result instanceof ParseResult.Parsed parsed) {
          config.add(parsed.resource());
        } else if (result instanceof ParseResult.Invalid invalid) {
          Optional<UnparsedResource> unparsed = invalid.toUnparsed();
          if (unparsed.isPresent()) {
            config.addUnparsed(unparsed.get());
          } else {
            errors.add(new ManifestError(source.name(), document.line(), 1, "document " + document.index()
                + " is not a usable resource: " + invalid.problems().stream().map(Problem::toString)
                .collect(Collectors.joining("; "))));
          }
        }
      }
    }
    return new Loaded(config.build(), errors);
  }
}
