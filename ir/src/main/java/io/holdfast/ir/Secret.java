package io.holdfast.ir;

import java.util.Objects;

/**
 * TLS material a listener or cluster uses. The type exists so that TLS lands on the same shape; no front end
 * produces one yet and the translator refuses them until it translates them.
 */
public record Secret(Origin origin) {

  public Secret {
    Objects.requireNonNull(origin, "origin");
  }
}
