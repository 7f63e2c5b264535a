package io.holdfast.xds.envoycheck;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/** Collects violations and the rule kinds met that the checker cannot evaluate. Not thread-safe: one per walk. */
final class Findings {

  private static final int MAX_SHOWN = 80;

  private final List<Violation> violations = new ArrayList<>();
  private final SortedMap<String, Integer> unenforced = new TreeMap<>();

  void violation(String path, String rule, String actual) {
    violations.add(new Violation(path, rule, actual));
  }

  /**
   * Notes each rule set in {@code rules} (a PGV {@code *Rules} message applied to a value) that the checker does
   * not evaluate. A bool rule set to false asks for nothing, so it is not counted.
   */
  void account(String rulesType, Message rules) {
    rules.getAllFields().forEach((field, value) -> {
      String kind = rulesType + "." + field.getName();
      boolean asksForSomething = field.getJavaType() != FieldDescriptor.JavaType.BOOLEAN || Boolean.TRUE.equals(value);
      if (asksForSomething && !RuleKinds.enforced(kind)) {
        unenforced.merge(kind, 1, Integer::sum);
      }
    });
  }

  Report report() {
    return new Report(violations, unenforced);
  }

  /** A value as shown in a violation: strings quoted with control characters escaped, long ones cut. */
  static String show(Object value) {
    if (value instanceof String text) {
      StringBuilder quoted = new StringBuilder("\"");
      text.codePoints().limit(MAX_SHOWN).forEach(c -> quoted.append(c < 0x20 || c == 0x7f || c == '"' || c == '\\'
          ? escape(c) : Character.toString(c)));
      return quoted.append(text.codePointCount(0, text.length()) > MAX_SHOWN ? "...\"" : "\"").toString();
    }
    return String.valueOf(value);
  }

  private static String escape(int c) {
    return switch (c) {
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      case '"' -> "\\\"";
      case '\\' -> "\\\\";
      default -> String.format("\\x%02x", c);
    };
  }
}
