package io.holdfast.frontend.holdfast;

import io.holdfast.api.Metadata;
import io.holdfast.api.ObjectRef;
import io.holdfast.api.Reasons;

/** Names every resource must have: they become parts of Envoy resource names. */
final class MetadataRules {

  private MetadataRules() {
  }

  static void check(Metadata metadata, Ledger.Sink sink) {
    if (!Syntax.isObjectName(metadata.name())) {
      sink.error("metadata.name", Reasons.INVALID_NAME, "\"" + metadata.name()
          + "\" is not a valid name (lower case letters, digits, '-' and '.', at most 253 characters)");
    }
    if (!Syntax.isNamespace(metadata.namespace())) {
      sink.error("metadata.namespace", Reasons.INVALID_NAME, "\"" + metadata.namespace()
          + "\" is not a valid namespace (lower case letters, digits and '-', at most 63 characters)");
    }
  }

  static void checkPort(int port, String field, Ledger.Sink sink) {
    if (!Syntax.isPort(port)) {
      sink.error(field, Reasons.PORT_OUT_OF_RANGE, "port " + port + " is out of range 1-65535");
    }
  }

  static void checkRef(ObjectRef ref, String nameField, String namespaceField, Ledger.Sink sink) {
    if (!Syntax.isObjectName(ref.name())) {
      sink.error(nameField, Reasons.INVALID_NAME, "\"" + ref.name() + "\" is not a valid name");
    }
    ref.namespace().filter(ns -> !Syntax.isNamespace(ns)).ifPresent(ns ->
        sink.error(namespaceField, Reasons.INVALID_NAME, "\"" + ns + "\" is not a valid namespace"));
  }
}
