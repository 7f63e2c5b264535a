package io.holdfast.server.monitoring;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A strict PromQL syntax checker (no PromQL parser for Java is among the project's allowed dependencies): a
 * tokenizer and a recursive-descent parser of the expression grammar of Prometheus 2.x/3.x: number and string
 * literals, vector selectors with label matchers, range vectors and subqueries, {@code offset} and {@code @},
 * unary and binary operators with {@code bool}, {@code on}/{@code ignoring} and {@code group_left}/
 * {@code group_right}, aggregations with {@code by}/{@code without} before or after, and calls of the known
 * functions. Operator precedence is not modelled: it changes an expression's meaning, not whether it parses.
 * Grafana's {@code $__rate_interval}-style variables are accepted where a duration goes. What the parser returns
 * is the set of metric names the expression selects.
 */
final class PromQl {
  static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "group", "stddev", "stdvar", "count",
      "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio");
  static final Set<String> FUNCTIONS = Set.of("abs", "absent", "absent_over_time", "acos", "acosh", "asin",
      "asinh", "atan", "atanh", "avg_over_time", "ceil", "changes", "clamp", "clamp_max", "clamp_min", "cos", "cosh",
      "count_over_time", "day_of_month", "day_of_week", "day_of_year", "days_in_month", "deg", "delta", "deriv",
      "exp", "floor", "histogram_avg", "histogram_count", "histogram_fraction", "histogram_quantile",
      "histogram_stddev", "histogram_stdvar", "histogram_sum", "holt_winters", "hour", "idelta", "increase",
      "irate", "label_join", "label_replace", "last_over_time", "ln", "log10", "log2", "mad_over_time",
      "max_over_time", "min_over_time", "minute", "month", "pi", "predict_linear", "present_over_time",
      "quantile_over_time", "rad", "rate", "resets", "round", "scalar", "sgn", "sin", "sinh", "sort", "sort_desc",
      "sort_by_label", "sort_by_label_desc", "sqrt", "stddev_over_time", "stdvar_over_time", "sum_over_time",
      "tan", "tanh", "time", "timestamp", "vector", "year");
  private static final Set<String> BINARY_WORDS = Set.of("and", "or", "unless", "atan2");
  private static final Set<String> BINARY_SYMBOLS = Set.of("+", "-", "*", "/", "%", "^", "==", "!=", ">", "<",
      ">=", "<=");

  private enum Type { IDENT, NUMBER, DURATION, STRING, SYMBOL, END }

  private record Token(Type type, String text, int at) {
  }

  private final String source;
  private final List<Token> tokens;
  private int pos;
  private final Set<String> metrics = new TreeSet<>();

  private PromQl(String source) {
    this.source = source;
    this.tokens = tokenize(source);
  }

  /**
   * The metric names {@code expr} selects.
   *
   * @throws IllegalArgumentException naming the position and what was expected, if it does not parse
   */
  static Set<String> metricNames(String expr) {
    PromQl p = new PromQl(expr);
    p.expression();
    p.expect(Type.END, null);
    return p.metrics;
  }

  // ---- grammar

  private void expression() {
    unary();
    while (isBinaryOperator()) {
      next();
      if (peekIs("bool")) {
        next();
      }
      if (peekIs("on") || peekIs("ignoring")) {
        next();
        labelList();
        if (peekIs("group_left") || peekIs("group_right")) {
          next();
          if (peekSymbol("(")) {
            labelList();
          }
        }
      }
      unary();
    }
  }

  private void unary() {
    while (peekSymbol("-") || peekSymbol("+")) {
      next();
    }
    primary();
    postfix();
  }

  private void primary() {
    Token t = peek();
    switch (t.type()) {
      case NUMBER -> next();
      case STRING -> next();
      case SYMBOL -> {
        if (t.text().equals("(")) {
          next();
          expression();
          expectSymbol(")");
        } else if (t.text().equals("{")) {
          matchers();
        } else {
          throw error(t, "an expression");
        }
      }
      case IDENT -> {
        String word = t.text();
        if (AGGREGATIONS.contains(word)) {
          aggregation();
        } else if (FUNCTIONS.contains(word) && tokens.get(pos + 1).text().equals("(")) {
          next();
          arguments();
        } else if (tokens.get(pos + 1).text().equals("(")) {
          throw new IllegalArgumentException("unknown function '" + word + "' at " + t.at() + " in: " + source);
        } else if (isKeyword(word)) {
          throw error(t, "an expression");
        } else {
          next();
          metrics.add(word);
          if (peekSymbol("{")) {
            matchers();
          }
        }
      }
      default -> throw error(t, "an expression");
    }
  }

  private void aggregation() {
    next();
    if (peekIs("by") || peekIs("without")) {
      next();
      labelList();
    }
    arguments();
    if (peekIs("by") || peekIs("without")) {
      next();
      labelList();
    }
  }

  private void arguments() {
    expectSymbol("(");
    if (!peekSymbol(")")) {
      expression();
      while (peekSymbol(",")) {
        next();
        expression();
      }
    }
    expectSymbol(")");
  }

  private void postfix() {
    if (peekSymbol("[")) {
      next();
      expect(Type.DURATION, "a duration");
      if (peekSymbol(":")) {
        next();
        if (peek().type() == Type.DURATION) {
          next();
        }
      }
      expectSymbol("]");
    }
    if (peekIs("offset")) {
      next();
      if (peekSymbol("-")) {
        next();
      }
      expect(Type.DURATION, "a duration");
    }
    if (peekSymbol("@")) {
      next();
      if (peek().type() == Type.NUMBER) {
        next();
      } else {
        Token t = expect(Type.IDENT, "a timestamp, start() or end()");
        if (!t.text().equals("start") && !t.text().equals("end")) {
          throw error(t, "start() or end()");
        }
        expectSymbol("(");
        expectSymbol(")");
      }
    }
  }

  private void matchers() {
    expectSymbol("{");
    while (!peekSymbol("}")) {
      Token label = peek();
      if (label.type() == Type.STRING) {
        next();
        metrics.add(label.text()); // {"name"} selects a metric by a quoted name (Prometheus 3)
      } else {
        expect(Type.IDENT, "a label name");
        Token op = next();
        if (!Set.of("=", "!=", "=~", "!~").contains(op.text())) {
          throw error(op, "=, !=, =~ or !~");
        }
        Token value = expect(Type.STRING, "a quoted label value");
        if (label.text().equals("__name__") && op.text().equals("=")) {
          metrics.add(value.text());
        }
      }
      if (!peekSymbol(",")) {
        break;
      }
      next();
    }
    expectSymbol("}");
  }

  private void labelList() {
    expectSymbol("(");
    while (!peekSymbol(")")) {
      expect(Type.IDENT, "a label name");
      if (!peekSymbol(",")) {
        break;
      }
      next();
    }
    expectSymbol(")");
  }

  // ---- token helpers

  private boolean isBinaryOperator() {
    Token t = peek();
    return (t.type() == Type.SYMBOL && BINARY_SYMBOLS.contains(t.text()))
        || (t.type() == Type.IDENT && BINARY_WORDS.contains(t.text()));
  }

  private static boolean isKeyword(String word) {
    return BINARY_WORDS.contains(word) || Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
        "bool", "offset").contains(word);
  }

  private Token peek() {
    return tokens.get(pos);
  }

  private boolean peekIs(String word) {
    return peek().type() == Type.IDENT && peek().text().equals(word);
  }

  private boolean peekSymbol(String symbol) {
    return peek().type() == Type.SYMBOL && peek().text().equals(symbol);
  }

  private Token next() {
    Token t = tokens.get(pos);
    if (t.type() != Type.END) {
      pos++;
    }
    return t;
  }

  private Token expect(Type type, String what) {
    Token t = peek();
    if (t.type() != type) {
      throw error(t, what == null ? "the end" : what);
    }
    return next();
  }

  private void expectSymbol(String symbol) {
    if (!peekSymbol(symbol)) {
      throw error(peek(), "'" + symbol + "'");
    }
    next();
  }

  private IllegalArgumentException error(Token t, String expected) {
    return new IllegalArgumentException("expected " + expected + " at " + t.at() + " but found "
        + (t.type() == Type.END ? "the end" : "'" + t.text() + "'") + " in: " + source);
  }

  // ---- tokenizer

  private static List<Token> tokenize(String s) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    boolean inBrackets = false; // durations only appear inside [...] or after offset
    while (i < s.length()) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      if (c == '#') { // a comment runs to the end of the line
        while (i < s.length() && s.charAt(i) != '\n') {
          i++;
        }
        continue;
      }
      int start = i;
      boolean afterOffset = !out.isEmpty() && out.get(out.size() - 1).text().equals("offset")
          || out.size() >= 2 && out.get(out.size() - 1).text().equals("-")
          && out.get(out.size() - 2).text().equals("offset");
      if ((inBrackets || afterOffset) && (Character.isDigit(c) || c == '$')) {
        i++;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
          i++;
        }
        String text = s.substring(start, i);
        if (!text.matches("(\\d+(ms|s|m|h|d|w|y))+|\\$\\w+|\\$\\{\\w+}")) {
          throw new IllegalArgumentException("bad duration '" + text + "' at " + start + " in: " + s);
        }
        out.add(new Token(Type.DURATION, text, start));
      } else if (Character.isDigit(c) || (c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1)))) {
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.'
            || ((s.charAt(i) == '+' || s.charAt(i) == '-') && (s.charAt(i - 1) == 'e' || s.charAt(i - 1) == 'E')))) {
          i++;
        }
        String text = s.substring(start, i);
        if (!text.matches("\\d+(\\.\\d*)?([eE][+-]?\\d+)?|\\.\\d+([eE][+-]?\\d+)?|0x[0-9a-fA-F]+")) {
          throw new IllegalArgumentException("bad number '" + text + "' at " + start + " in: " + s);
        }
        out.add(new Token(Type.NUMBER, text, start));
      } else if (Character.isLetter(c) || c == '_' || (c == ':' && !inBrackets)) {
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_'
            || s.charAt(i) == ':')) {
          i++;
        }
        String word = s.substring(start, i);
        out.add(new Token(word.equalsIgnoreCase("inf") || word.equalsIgnoreCase("nan") ? Type.NUMBER : Type.IDENT,
            word, start));
      } else if (c == '"' || c == '\'' || c == '`') {
        i++;
        StringBuilder text = new StringBuilder();
        while (i < s.length() && s.charAt(i) != c) {
          if (s.charAt(i) == '\\' && c != '`' && i + 1 < s.length()) {
            i++;
          }
          text.append(s.charAt(i++));
        }
        if (i >= s.length()) {
          throw new IllegalArgumentException("unterminated string at " + start + " in: " + s);
        }
        i++;
        out.add(new Token(Type.STRING, text.toString(), start));
      } else {
        String two = i + 1 < s.length() ? s.substring(i, i + 2) : "";
        String symbol = Set.of("==", "!=", ">=", "<=", "=~", "!~").contains(two) ? two : String.valueOf(c);
        if (!"(){}[],:+-*/%^=<>@".contains(symbol) && symbol.length() == 1) {
          throw new IllegalArgumentException("unexpected character '" + c + "' at " + i + " in: " + s);
        }
        i += symbol.length();
        if (symbol.equals("[")) {
          inBrackets = true;
        } else if (symbol.equals("]")) {
          inBrackets = false;
        }
        out.add(new Token(Type.SYMBOL, symbol, start));
      }
    }
    out.add(new Token(Type.END, "", s.length()));
    return out;
  }
}
