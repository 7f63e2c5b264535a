package io.holdfast.frontend.options;

import io.holdfast.api.ResourceKey;
import java.util.Optional;

/**
 * The text of one Secret entry as the owner of some security options may read it: empty when the Secret or entry
 * is missing, or the owner may not read it (another namespace without consent). Each front end builds one per
 * owner from its config and its consent rules.
 */
@FunctionalInterface
public interface SecretLookup {

  /** Finds nothing: every option reading a Secret fails closed. */
  SecretLookup NONE = (secret, entry) -> Optional.empty();

  Optional<String> entry(ResourceKey secret, String entry);
}
