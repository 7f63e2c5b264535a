package io.holdfast.api;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Parses {@code {<nameField>, namespace?}} references. */
final class ObjectRefs {

  private ObjectRefs() {
  }

  static Optional<ObjectRef> parse(Fields.Element element, List<Problem> problems, Set<String> allowed,
      String nameField) {
    return Fields.of(element.node(), element.path(), problems, allowed).flatMap(ref -> read(ref, nameField));
  }

  static Optional<ObjectRef> read(Fields ref, String nameField) {
    Optional<String> namespace = ref.string("namespace");
    return ref.requiredString(nameField).map(name -> new ObjectRef(name, namespace));
  }
}
