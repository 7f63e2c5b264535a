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

  /** Where a resource's document starts: its source's name and the document's first content line (1-based). */
  public record Location(String source, int line) {
    public Location {
      Objects.requireNonNull(source, "source");
    }
  }

  /**
   * @param locations where each resource named by a document (parsed or not) was read, in source order; a key
   *                  given twice has two locations
   */
  public record Loaded(GatewayConfig config, List<ManifestError> errors, Map<ResourceKey, List<Location>> locations) {
    public Loaded {
      Objects.requireNonNull(config, "config");
      errors = List.copyOf(errors);
      Map<ResourceKey, List<Location>> copy = new java.util.TreeMap<>();
      locations.forEach((key, list) -> copy.put(key, List.copyOf(list)));
      locations = java.util.Collections.unmodifiableMap(copy);
    }

    /** The locations of {@code key}, empty if no document named it. */
    public List<Location> locationsOf(ResourceKey key) {
      return locations.getOrDefault(key, List.of());
    }
  }

  public Loaded load(List<Source> sources, Map<ServiceRef, List<Endpoint>> serviceEndpoints) {
    GatewayConfig.Builder config = GatewayConfig.builder();
    serviceEndpoints.forEach(config::endpoints);
    List<ManifestError> errors = new ArrayList<>();
    Map<ResourceKey, List<Location>> locations = new java.util.TreeMap<>();
    for (Source source : sources) {
      ManifestReader.Result read = reader.read(source.name(), source.text());
      errors.addAll(read.errors());
      for (ManifestDocument document : read.documents()) {
        ParseResult result = parser.parse(document.tree());
        Location location = new Location(source.name(), document.line());
        if (result instanceof ParseResult.Parsed parsed) {
          locations.computeIfAbsent(parsed.resource().key(), k -> new ArrayList<>()).add(location);
          config.add(parsed.resource());
        } else if (result instanceof ParseResult.Invalid invalid) {
          Optional<UnparsedResource> unparsed = invalid.toUnparsed();
          if (unparsed.isPresent()) {
            locations.computeIfAbsent(unparsed.get().key(), k -> new ArrayList<>()).add(location);
            config.addUnparsed(unparsed.get());
          } else {
            errors.add(new ManifestError(source.name(), document.line(), 1, "document " + document.index()
                + " is not a usable resource: " + invalid.problems().stream().map(Problem::toString)
                .collect(Collectors.joining("; "))));
          }
        }
      }
    }
    return new Loaded(config.build(), errors, locations);
  }
}
