package io.holdfast.frontend.gloo;

import io.holdfast.api.Reasons;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A delegate selector's {@code expressions}, with Kubernetes label-selector semantics as Gloo applies them:
 * {@code Equals}/{@code DoubleEquals}/{@code In} need the label with one of the values; {@code NotEquals} and
 * {@code NotIn} also match objects without the label; {@code Exists}/{@code DoesNotExist} test presence;
 * {@code GreaterThan}/{@code LessThan} compare integer values.
 */
record LabelExpressions(List<Expression> expressions) {

  record Expression(String key, String operator, List<String> values) {
  }

  private static final List<String> OPERATORS = List.of("Equals", "DoubleEquals", "NotEquals", "In", "NotIn",
      "Exists", "DoesNotExist", "GreaterThan", "LessThan");

  static Optional<LabelExpressions> read(Node selector) {
    List<Expression> out = new java.util.ArrayList<>();
    for (Node expression : selector.list("expressions")) {
      expression.only("selector expression", java.util.Set.of("key", "operator", "values"));
      String key = expression.requiredString("key").orElse("");
      String operator = expression.string("operator").orElse("Equals");
      if (!OPERATORS.contains(operator)) {
        expression.error(expression.at("operator"), Reasons.INVALID_VALUE, "unknown operator \"" + operator
            + "\" (expected one of " + OPERATORS + ")");
        return Optional.empty();
      }
      out.add(new Expression(key, operator, expression.strings("values")));
    }
    return Optional.of(new LabelExpressions(out));
  }

  boolean matches(Map<String, String> labels) {
    return expressions.stream().allMatch(e -> matches(e, labels));
  }

  private static boolean matches(Expression e, Map<String, String> labels) {
    String value = labels.get(e.key());
    return switch (e.operator()) {
      case "Equals", "DoubleEquals", "In" -> value != null && e.values().contains(value);
      case "NotEquals", "NotIn" -> value == null || !e.values().contains(value);
      case "Exists" -> value != null;
      case "DoesNotExist" -> value == null;
      default -> value != null && e.values().size() == 1 && compare(value, e.values().get(0), e.operator());
    };
  }

  private static boolean compare(String value, String bound, String operator) {
    try {
      long v = Long.parseLong(value);
      long b = Long.parseLong(bound);
      return operator.equals("GreaterThan") ? v > b : v < b;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
